/**
 * HTTP errors made at the edge. Services do not throw these: they throw domain errors
 * (domain-errors.ts, D108), which the one error handler maps to status, body and headers. What is
 * left here is for the HTTP layer itself: the rate limiter's 429 (`tooManyAttempts`, built by
 * @fastify/rate-limit's hook) and what a route or a request parser answers itself (auth's routes,
 * the multipart upload's parsing: `throw httpErrors.badRequest(...)`, `serverError`). Their
 * message is written for the person who sent the request and the error handler sends it as is.
 *
 * http-errors marks a 5xx's message as not for the caller (`expose: false`), which is right for
 * a library's failure; `serverError` makes one whose sentence the caller sees.
 */
import { type HttpError, httpErrors } from '@fastify/sensible'

export const NOT_SIGNED_IN = 'Not signed in'
/** What a browser-session call answers a request carrying a personal API key (D124). */
export const API_KEY_NOT_ACCEPTED =
  'API keys are not accepted by this call: it takes only a signed-in browser session. Send the request without the Authorization header.'

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
