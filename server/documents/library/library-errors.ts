/**
 * What the library refuses, as domain errors (D108) with the sentences the person reads; the
 * error handler turns each into its status (404, 409). Another person's document or conversation
 * answers exactly like a missing one (D72).
 */
import { Conflict, NotFound } from '../../http/domain-errors.ts'

export const LIBRARY_MESSAGES = {
  notFound: 'Document not found.',
  notFailed: 'Only a document that could not be read can be retried.',
  notRemoved: 'Only a document removed from the library can be added back.',
  conversationNotFound: 'Chat session not found',
} as const

/** Not in the person's library: another person's, unknown, or gone. */
export class DocumentNotFound extends NotFound {
  constructor() {
    super(LIBRARY_MESSAGES.notFound)
  }
}

/** An upload into a conversation that is not the person's (or not there). */
export class ChatSessionNotFound extends NotFound {
  constructor() {
    super(LIBRARY_MESSAGES.conversationNotFound)
  }
}

/** Retry asked for a document that did not fail. */
export class NotFailed extends Conflict {
  constructor() {
    super(LIBRARY_MESSAGES.notFailed)
  }
}

/** Add back asked for a document that was not removed. */
export class NotRemoved extends Conflict {
  constructor() {
    super(LIBRARY_MESSAGES.notRemoved)
  }
}
