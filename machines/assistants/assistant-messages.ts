/**
 * What the assistants screens say when a call fails (issue 36), and the server's own sentence
 * when it sent one: a 4xx carries a sentence the person can act on ("Name is required", "An
 * assistant can use at most 50 Drive folders"); anything else gets ours.
 */
import { statusOf } from '#machines/shared/effects.ts'

export const ASSISTANT_MESSAGES = {
  load: 'Could not load your assistants. Try again.',
  create: 'Could not create the assistant. Try again.',
  loadOne: 'Could not load this assistant. Try again.',
  notFound: 'This assistant does not exist, or it was deleted.',
  save: 'Could not save the assistant. Try again.',
  duplicate: 'Could not duplicate the assistant. Try again.',
  remove: 'Could not delete the assistant. Try again.',
  saved: 'Saved.',
} as const

/** The server's sentence for a 4xx it explained, else `fallback`. */
export function sentenceOf(error: unknown, fallback: string): string {
  const status = statusOf(error)
  if (status !== undefined && status >= 400 && status < 500 && error instanceof Error && error.message)
    return error.message
  return fallback
}

/** A copy's name: the original's with " (copy)", within the contract's 80 characters. */
export function copyName(name: string, max: number): string {
  const suffix = ' (copy)'
  return `${name.slice(0, max - suffix.length).trimEnd()}${suffix}`
}
