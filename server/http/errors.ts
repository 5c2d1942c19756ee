/**
 * Errors thrown on purpose are @fastify/sensible's `httpErrors` (http-errors), thrown by routes
 * and services alike: `throw httpErrors.notFound(LIBRARY_MESSAGES.notFound)`. Their message is
 * written for the person who sent the request and the error handler sends it as is; anything else
 * that reaches it as a 5xx says only that it is our fault (error-handler.ts).
 *
 * http-errors marks a 5xx's message as not for the caller (`expose: false`), which is right for
 * a library's failure. The few 5xx we throw on purpose (Drive busy, the model unreachable, the
 * server shutting down) carry a sentence for the person, so they are made with `serverError`.
 */
import { type HttpError, httpErrors } from '@fastify/sensible'

export const NOT_SIGNED_IN = 'Not signed in'

/** A 5xx thrown on purpose, whose sentence the caller sees. */
export function serverError(status: 502 | 503, message: string): HttpError {
  return httpErrors.createError(status, message, { expose: true })
}

export function tooManyAttempts(retryAfterMs: number): HttpError {
  const minutes = Math.max(1, Math.ceil(retryAfterMs / 60_000))
  return httpErrors.tooManyRequests(
    `Too many attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
  )
}
