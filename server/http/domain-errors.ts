/**
 * What a service refuses, in the domain's words (D108): services throw these, never HTTP errors,
 * and the one error handler (error-handler.ts) turns each kind into a status, the
 * `{ success: false, message }` body and, for `TooMany`, a Retry-After header. The message is the
 * sentence the person reads, so it is written for them. A domain names its own refusals by
 * extending these (chat-errors.ts: `AnswerInProgress`, `TooManyAnswers`, …); one the domain says
 * once may throw the kind itself with its sentence.
 *
 * `Unavailable` and `UpstreamFailed` are our side's trouble said on purpose (Drive busy, the model
 * unreachable, a shutdown): the caller reads their sentence, and they are logged as errors.
 */

/** Every kind the error handler knows; adding one means giving it a status there. */
export type DomainErrorKind =
  | 'invalid'
  | 'unauthorized'
  | 'forbidden'
  | 'not-found'
  | 'conflict'
  | 'too-large'
  | 'too-many'
  | 'upstream-failed'
  | 'unavailable'

export abstract class DomainError extends Error {
  abstract readonly kind: DomainErrorKind
  constructor(message: string) {
    super(message)
    // The subclass's own name in logs and stack traces ("AnswerInProgress: …").
    this.name = new.target.name
  }
}

/** The request asks for something that cannot be (a document not theirs, a version that does not exist). */
export class Invalid extends DomainError {
  readonly kind = 'invalid'
}

/** Who is asking is not known (a missing or wrong token). */
export class Unauthorized extends DomainError {
  readonly kind = 'unauthorized'
}

/** Known, and not allowed. */
export class Forbidden extends DomainError {
  readonly kind = 'forbidden'
}

/** Not there, or not theirs: the two answer alike so nobody learns what others have. */
export class NotFound extends DomainError {
  readonly kind = 'not-found'
}

/** Not now: what it acts on is in a state that refuses it (an answer being written, Drive not connected). */
export class Conflict extends DomainError {
  readonly kind = 'conflict'
}

/** Larger than the server keeps or serves. */
export class TooLarge extends DomainError {
  readonly kind = 'too-large'
}

/** Too much at once: the caller may try again after `retryAfterSeconds`. */
export class TooMany extends DomainError {
  readonly kind = 'too-many'
  readonly retryAfterSeconds: number
  constructor(message: string, retryAfterSeconds: number) {
    super(message)
    this.retryAfterSeconds = retryAfterSeconds
  }
}

/** A service we depend on answered with a failure (Google refused, the model is unreachable). */
export class UpstreamFailed extends DomainError {
  readonly kind = 'upstream-failed'
}

/** We cannot serve it right now, or on this server at all (Drive not configured, shutting down). */
export class Unavailable extends DomainError {
  readonly kind = 'unavailable'
}
