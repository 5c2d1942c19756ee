/**
 * What a person says of an answer (product §7 feedback, D93): a like or dislike, why a disliked
 * one did not help, and which of its versions every device shows. Each refuses a message that is
 * not theirs or not an answer with the chat's errors (chat-errors.ts).
 */
import type { DislikeReasonRequest, Feedback, Message } from '#contracts/chat.ts'
import { toMessageDto } from './chat-dto.ts'
import {
  AnswerInProgress,
  MessageNotFound,
  NoSuchVersion,
  NotAnAnswer,
  NotDisliked,
  ONLY_ANSWERS_HAVE_VERSIONS,
  ONLY_ANSWERS_RATED,
} from './chat-errors.ts'
import type { ChatRepository } from './chat-repository.ts'

export async function setFeedback(
  chats: ChatRepository,
  userId: string,
  messageId: string,
  feedback: Feedback,
): Promise<Message> {
  const result = await chats.setFeedback(userId, messageId, feedback)
  if (result === null) throw new MessageNotFound()
  if (result === 'not-an-answer') throw new NotAnAnswer(ONLY_ANSWERS_RATED)
  return toMessageDto(result)
}

export async function showVersion(
  chats: ChatRepository,
  userId: string,
  messageId: string,
  version: number,
  now: Date,
): Promise<Message> {
  const result = await chats.showVersion(userId, messageId, version, now)
  if (result === null) throw new MessageNotFound()
  if (result === 'not-an-answer') throw new NotAnAnswer(ONLY_ANSWERS_HAVE_VERSIONS)
  if (result === 'busy') throw new AnswerInProgress()
  if ('noSuchVersion' in result) throw new NoSuchVersion(result.noSuchVersion)
  return toMessageDto(result)
}

export async function explainDislike(
  chats: ChatRepository,
  userId: string,
  messageId: string,
  { reason, note }: DislikeReasonRequest,
): Promise<Message> {
  const result = await chats.explainDislike(userId, messageId, reason ?? null, note ? note : null)
  if (result === null) throw new MessageNotFound()
  if (result === 'not-an-answer') throw new NotAnAnswer(ONLY_ANSWERS_RATED)
  if (result === 'not-disliked') throw new NotDisliked()
  return toMessageDto(result)
}
