/**
 * What a conversation's fields are made of (product §4): its title from the first message, its
 * scope as stored, and the refusal of a chosen document that is not the person's.
 */
import { type ScopeRequest, TITLE_MAX_LENGTH } from '#contracts/chat.ts'
import { NotInYourLibrary } from './chat-errors.ts'
import type { MissingDocuments, ScopeIds } from './chat-repository.ts'

/** A scope as stored: null for the whole library, else its ids once each, in the order given. */
export function scopeIds(scope: ScopeRequest | null | undefined): ScopeIds {
  return scope ? [...new Set(scope.documentIds.map((id) => id.toLowerCase()))] : null
}

/** Refused naming the first chosen id that is not the person's (D70). */
export function refuseMissing<T>(result: T | MissingDocuments): T {
  if (result && typeof result === 'object' && 'missing' in result)
    throw new NotInYourLibrary(result.missing[0] ?? '')
  return result
}

/**
 * A conversation title is the first message (product §4): one line, at most TITLE_MAX_LENGTH characters
 * (code points, so an emoji is never cut in half), shortened with '…'.
 */
export function shortTitle(title: string): string {
  const line = title.replace(/\s+/g, ' ').trim()
  const chars = Array.from(line)
  if (chars.length <= TITLE_MAX_LENGTH) return line
  return `${chars
    .slice(0, TITLE_MAX_LENGTH - 1)
    .join('')
    .trimEnd()}…`
}
