/**
 * What the chat refuses, as domain errors (D108) with the sentences product §4 and §7 give the
 * person; the error handler turns each into its status (404, 400, 409, 429 with Retry-After, 502).
 */
import { MAX_ANSWER_VERSIONS } from '#contracts/chat.ts'
import { Conflict, Invalid, NotFound, TooMany, UpstreamFailed } from '../http/domain-errors.ts'

export const CONVERSATION_NOT_FOUND = 'Conversation not found'
export const MESSAGE_NOT_FOUND = 'Message not found'
export const ONLY_ANSWERS_RATED = "Only the assistant's answers can be rated, not your own messages."
export const ANSWER_IN_PROGRESS =
  'This conversation is still answering your previous message. Wait for the answer (or stop it), then send again.'
export const ONLY_LAST_ANSWER = 'Only the last answer of a conversation can be written again.'
export const ANSWER_FAILED = 'Something went wrong while answering. Please try again.'
export const STOPPED_BEFORE_ANSWER = 'The answer was stopped before anything was written.'
export const TOO_MANY_VERSIONS = `This answer already has ${MAX_ANSWER_VERSIONS} versions, the most one answer keeps. Ask again in a new message for another.`
export const ONLY_ANSWERS_HAVE_VERSIONS = "Only the assistant's answers have versions."
export const ONLY_DISLIKES_EXPLAINED = 'Only a disliked answer takes a reason: dislike it first.'
/** The 400 for a version an answer does not have. */
export function noSuchVersion(versionCount: number): string {
  return versionCount === 1
    ? 'This answer has one version.'
    : `This answer has ${versionCount} versions: choose one from 1 to ${versionCount}.`
}
/** A chosen document that is not the person's (another person's, unknown, or removed): never widened silently. */
export const notInLibrary = (id: string) => `Document ${id} is not in your library.`

/** The 429 when a person already has `limit` answers being written (LLM_CONCURRENCY_PER_USER, D84). */
export function tooManyAnswers(limit: number): string {
  const answers = limit === 1 ? 'an answer' : `${limit} answers`
  return `You already have ${answers} being written. Wait for one to finish (or stop it), then send again.`
}
/** Seconds a refused sender is told to wait: answers take seconds, and the claim is released at once. */
export const ANSWER_RETRY_AFTER_SECONDS = 5

/** Not theirs, or gone: the two answer alike. */
export class ConversationNotFound extends NotFound {
  constructor() {
    super(CONVERSATION_NOT_FOUND)
  }
}

export class MessageNotFound extends NotFound {
  constructor() {
    super(MESSAGE_NOT_FOUND)
  }
}

/** An answer is being written in this conversation (on any instance). */
export class AnswerInProgress extends Conflict {
  constructor() {
    super(ANSWER_IN_PROGRESS)
  }
}

/** The person already has `limit` answers being written elsewhere (D84). */
export class TooManyAnswers extends TooMany {
  constructor(limit: number) {
    super(tooManyAnswers(limit), ANSWER_RETRY_AFTER_SECONDS)
  }
}

/** A chosen document that is not (or no longer) in the person's library (D70). */
export class NotInYourLibrary extends Invalid {
  constructor(documentId: string) {
    super(notInLibrary(documentId))
  }
}

/** Regenerate asked for an answer that is not the conversation's last one. */
export class NotTheLastAnswer extends Invalid {
  constructor() {
    super(ONLY_LAST_ANSWER)
  }
}

/** The answer has MAX_ANSWER_VERSIONS already (D93). */
export class TooManyVersions extends Conflict {
  constructor() {
    super(TOO_MANY_VERSIONS)
  }
}

/** Rated, given versions or a dislike reason, a message of the person's own: only answers take them. */
export class NotAnAnswer extends Invalid {}

export class NoSuchVersion extends Invalid {
  constructor(versionCount: number) {
    super(noSuchVersion(versionCount))
  }
}

export class NotDisliked extends Invalid {
  constructor() {
    super(ONLY_DISLIKES_EXPLAINED)
  }
}

/** The language model did not answer (its sentence says how). */
export class ModelUnavailable extends UpstreamFailed {}
