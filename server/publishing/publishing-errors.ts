/**
 * What publishing and the visitor calls refuse, as domain errors (D108) with the sentences a
 * visitor or the owner reads. An unknown, unpublished or deleted public id is one refusal with one
 * sentence, so nobody learns which public ids exist.
 */
import { Forbidden, NotFound, TooMany, Unauthorized } from '../http/domain-errors.ts'

export const ASSISTANT_UNAVAILABLE = 'This assistant is not available.'
export const FOREIGN_ORIGIN = 'This assistant can only be used from its own chat page or chat widget.'
export const VISITOR_CONVERSATION_NOT_FOUND = 'Conversation not found.'
export const VISITOR_MESSAGE_NOT_FOUND = 'Message not found.'
export const TOKEN_EXPIRED = 'Your sign-in for this chat has expired. Reload the page to continue.'
export const TOKEN_REFUSED =
  "This chat could not confirm who you are. Reload the page, or tell the site's owner if it keeps happening."

/** Unknown, unpublished, deleted: all alike. */
export class AssistantUnavailable extends NotFound {
  constructor() {
    super(ASSISTANT_UNAVAILABLE)
  }
}

/** A visitor call from a page that is not ours (another site's script calling directly). */
export class ForeignOrigin extends Forbidden {
  constructor() {
    super(FOREIGN_ORIGIN)
  }
}

export const CHALLENGE_NEEDED = 'Please confirm you are a person before your first question.'

/** The owner asks for a proof of work before a visitor's first question: missing, wrong or used. */
export class ChallengeNeeded extends Forbidden {
  constructor() {
    super(CHALLENGE_NEEDED)
  }
}

/** Not this visitor's, or not there. */
export class VisitorConversationNotFound extends NotFound {
  constructor() {
    super(VISITOR_CONVERSATION_NOT_FOUND)
  }
}

export class VisitorMessageNotFound extends NotFound {
  constructor() {
    super(VISITOR_MESSAGE_NOT_FOUND)
  }
}

/** The host site's signed visitor token was refused: never trusted, never a fallback to anonymous. */
export class UserTokenRefused extends Unauthorized {
  constructor(expired: boolean) {
    super(expired ? TOKEN_EXPIRED : TOKEN_REFUSED)
  }
}

/** Over a budget: the owner's busy sentence, and when to try again. */
export class AssistantBusy extends TooMany {}

export const VISITOR_ANSWER_FAILED = 'Something went wrong while answering. Please try again.'
export const VISITOR_STOPPED = 'The answer was stopped before anything was written.'
