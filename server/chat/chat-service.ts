/**
 * Conversations with the assistant (SPEC §4 chat send, §7 chat calls). Routes stay thin and call
 * this; the repository holds the SQL. Sending asks the assistant outside any transaction (a model
 * can take a minute and PGlite runs one query at a time), then stores the question and the answer
 * together or not at all.
 */
import type { FastifyBaseLogger } from 'fastify'
import {
  type ChatSession,
  type Feedback,
  type Message,
  type SendMessageRequest,
  type SendMessageResponse,
  TITLE_MAX_LENGTH,
} from '#contracts/chat.ts'
import type { Assistant } from '../assistant/assistant.ts'
import { LlmUnavailableError } from '../assistant/llm.ts'
import { MAX_HISTORY_TURNS } from '../assistant/prompt.ts'
import { HttpError } from '../http-errors.ts'
import type { ChatRepository } from '../repositories/chat-repository.ts'
import { toMessageDto, toSessionDto, toSourceSnapshot } from './chat-dto.ts'

export const CONVERSATION_NOT_FOUND = 'Conversation not found'
export const MESSAGE_NOT_FOUND = 'Message not found'
export const ONLY_ANSWERS_RATED = "Only the assistant's answers can be rated, not your own messages."

export type ChatService = ReturnType<typeof createChatService>

type Deps = { chats: ChatRepository; assistant: Assistant; now: () => Date }
type Owner = { id: string }

const conversationNotFound = () => new HttpError(404, CONVERSATION_NOT_FOUND)

/**
 * A session title is the first message (SPEC §4): one line, at most TITLE_MAX_LENGTH characters
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

export function createChatService({ chats, assistant, now }: Deps) {
  return {
    async createSession(user: Owner, title: string): Promise<ChatSession> {
      return toSessionDto(
        await chats.createSession({ userId: user.id, title: shortTitle(title), now: now() }),
      )
    },

    async listSessions(user: Owner): Promise<ChatSession[]> {
      return (await chats.listSessions(user.id)).map(toSessionDto)
    },

    async deleteSession(user: Owner, sessionId: string): Promise<void> {
      if (!(await chats.deleteSession(user.id, sessionId))) throw conversationNotFound()
    },

    async listMessages(user: Owner, sessionId: string): Promise<Message[]> {
      if (!(await chats.findSession(user.id, sessionId))) throw conversationNotFound()
      return (await chats.listMessages(user.id, sessionId)).map(toMessageDto)
    },

    async send(
      user: Owner,
      sessionId: string,
      { content }: SendMessageRequest,
      log: FastifyBaseLogger,
    ): Promise<SendMessageResponse> {
      if (!(await chats.findSession(user.id, sessionId))) throw conversationNotFound()
      const history = await chats.recentTurns(user.id, sessionId, MAX_HISTORY_TURNS)
      const askedAt = now()
      const started = performance.now()
      let answer: Awaited<ReturnType<Assistant['answer']>>
      try {
        answer = await assistant.answer({ userId: user.id, question: content, history })
      } catch (error) {
        if (!(error instanceof LlmUnavailableError)) throw error
        log.warn({ event: 'chat.llm.unavailable', err: error, sessionId }, 'language model unavailable')
        throw new HttpError(502, error.message)
      }
      const stored = await chats.storeExchange({
        userId: user.id,
        sessionId,
        question: content,
        askedAt,
        answer: answer.content,
        sources: answer.sources.map(toSourceSnapshot),
        // Strictly after the question, even on a coarse or frozen clock, so the order is certain.
        answeredAt: new Date(Math.max(now().getTime(), askedAt.getTime() + 1)),
      })
      // Deleted while the assistant was thinking: nothing was stored, the conversation is gone.
      if (!stored) throw conversationNotFound()
      log.info(
        {
          event: 'chat.answered',
          sessionId,
          sources: answer.sources.length,
          ms: Math.round(performance.now() - started),
        },
        'question answered',
      )
      return { userMessage: toMessageDto(stored.question), aiMessage: toMessageDto(stored.answer) }
    },

    async setFeedback(user: Owner, messageId: string, feedback: Feedback): Promise<Message> {
      const result = await chats.setFeedback(user.id, messageId, feedback)
      if (result === null) throw new HttpError(404, MESSAGE_NOT_FOUND)
      if (result === 'not-an-answer') throw new HttpError(400, ONLY_ANSWERS_RATED)
      return toMessageDto(result)
    },
  }
}
