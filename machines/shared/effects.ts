/**
 * Helpers every machine shares: the placeholder actor for an effect the app must inject, the
 * logger shape, and reading an HTTP status off an error without importing the browser client.
 */
import { fromPromise } from 'xstate'

/** What machines log through; the app passes `console`, tests pass fakes. */
export type Logger = Pick<Console, 'error' | 'warn'>

/**
 * An actor slot that fails loudly until `provide…Machine(deps)` fills it, so a machine used
 * without its effects can never pretend to succeed.
 */
export function notProvided<TOutput, TInput = void>(name: string) {
  return fromPromise<TOutput, TInput>(async () => {
    throw new Error(
      `The "${name}" effect was not provided: build the machine with its provide…Machine(deps).`,
    )
  })
}

/** The same loud failure for an action slot (logging, notifying the app). */
export function actionNotProvided<TParams = undefined>(
  name: string,
): (args: unknown, params: TParams) => void {
  return () => {
    throw new Error(
      `The "${name}" action was not provided: build the machine with its provide…Machine(deps).`,
    )
  }
}

/**
 * The HTTP status an effect failed with (0 when the server was unreachable), or undefined for an
 * error that carries none. Duck-typed on purpose: machines never import src/api (docs/architecture.md, conventions 2).
 */
export function statusOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null || !('status' in error)) return undefined
  return typeof error.status === 'number' ? error.status : undefined
}

/** The server's sentence for a failure, when there is one. */
export function messageOf(error: unknown): string | undefined {
  return error instanceof Error && error.message.trim() !== '' ? error.message : undefined
}

/** A 4xx or a 503 carries the server's sentence (too many asks, mail off); anything else is ours. */
export function serverSentence(error: unknown, fallback: string): string {
  const status = statusOf(error)
  const said = status !== undefined && ((status >= 400 && status < 500) || status === 503)
  return said ? (messageOf(error) ?? fallback) : fallback
}
