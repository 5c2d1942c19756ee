/**
 * Errors a handler throws on purpose. Their message goes to the caller as is (it is written for a
 * person); anything else that reaches the error handler is a 5xx and its details stay in the log.
 */
export class HttpError extends Error {
  readonly statusCode: number

  constructor(statusCode: number, message: string) {
    super(message)
    this.name = 'HttpError'
    this.statusCode = statusCode
  }
}

export const NOT_SIGNED_IN = 'Not signed in'

export function unauthorized(message = NOT_SIGNED_IN): HttpError {
  return new HttpError(401, message)
}

export function tooManyAttempts(retryAfterMs: number): HttpError {
  const minutes = Math.max(1, Math.ceil(retryAfterMs / 60_000))
  return new HttpError(429, `Too many attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`)
}
