/**
 * Conversations with the assistant (product §4 chat send, §7 chat calls). Routes stay thin and call
 * this; the repository holds the SQL. Sending asks the assistant outside any transaction (a model
 * can take a minute and PGlite runs one query at a time), then stores the question and the answer
 * together or not at all.
 */
import { httpErrors } from '@fastify/sensible'
import type { FastifyBaseLogger } from 'fastify'
import {
  type Conversation,
  type DislikeReasonRequest,
  type Feedback,
  MAX_ANSWER_VERSIONS,
  type Message,
  type ScopeRequest,
  type SearchHit,
  type SendMessageRequest,
  type SendMessageResponse,
  type Source,
  TITLE_MAX_LENGTH,
} from '#contracts/chat.ts'
import { type AnswerDraft, type Assistant, type StageTimer, timed } from '../assistant/assistant.ts'
import { LlmAbortedError, LlmUnavailableError } from '../assistant/llm.ts'
import { MAX_HISTORY_TURNS } from '../assistant/prompt.ts'
import { serverError } from '../http/errors.ts'
import { toConversationDto, toMessageDto, toSourceDto, toSourceSnapshot } from './chat-dto.ts'
import type { ChatRepository, MissingDocuments, ScopeIds } from './chat-repository.ts'

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

/**
 * How long a claim on a conversation (one answer being written) lasts at most. Released as soon as
 * the answer is stored or fails; the lease only matters when an instance dies mid-answer.
 */
export const ANSWER_LEASE_MS = 5 * 60_000

/** Where a streamed answer goes while it is written. */
export type StreamSink = { token(text: string): void; sources(sources: Source[]): void }

/** How a streamed answer ended: what `send` would have returned, or a sentence. */
export type StreamOutcome =
  | { event: 'done'; data: SendMessageResponse }
  | { event: 'error'; data: { message: string } }

/** A streamed answer, checked and claimed: run it once. */
export type AnswerRun = (sink: StreamSink, signal: AbortSignal) => Promise<StreamOutcome>

export type ChatService = ReturnType<typeof createChatService>

type Deps = {
  chats: ChatRepository
  assistant: Assistant
  now: () => Date
  /** Answers one person may have written at once, on every instance together (D84). */
  answersPerPerson: number
}
type Owner = { id: string }
type Claim = { until: Date; release: () => Promise<void> }

const conversationNotFound = () => httpErrors.notFound(CONVERSATION_NOT_FOUND)

/** A scope as stored: null for the whole library, else its ids once each, in the order given. */
function scopeIds(scope: ScopeRequest | null | undefined): ScopeIds {
  return scope ? [...new Set(scope.documentIds.map((id) => id.toLowerCase()))] : null
}

/** 400 naming the first chosen id that is not the person's (D70). */
function refuseMissing<T>(result: T | MissingDocuments): T {
  if (result && typeof result === 'object' && 'missing' in result)
    throw httpErrors.badRequest(notInLibrary(result.missing[0] ?? ''))
  return result
}

/** After `after`, even on a coarse or frozen clock, so the order of messages is certain. */
const strictlyAfter = (t: Date, after: Date) => new Date(Math.max(t.getTime(), after.getTime() + 1))

/**
 * A conversation title is the first message (product §4): one line, at most TITLE_MAX_LENGTH characters
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

export function createChatService({ chats, assistant, now, answersPerPerson }: Deps) {
  /**
   * Claims the conversation for one answer (404 when it is not theirs, 409 while one is written
   * in it, 429 while the person has answersPerPerson being written elsewhere). `until` names the
   * claim, so the write that stores the answer can end it too.
   */
  async function claim(user: Owner, conversationId: string): Promise<Claim> {
    const at = now()
    const until = new Date(at.getTime() + ANSWER_LEASE_MS)
    const claimed = await chats.claimAnswering(user.id, conversationId, at, until, answersPerPerson)
    if (claimed === null) throw conversationNotFound()
    if (claimed === 'busy') throw httpErrors.conflict(ANSWER_IN_PROGRESS)
    if (claimed === 'limit') {
      throw httpErrors.createError(429, tooManyAnswers(answersPerPerson), {
        headers: { 'retry-after': String(ANSWER_RETRY_AFTER_SECONDS) },
      })
    }
    return { until, release: () => chats.releaseAnswering(user.id, conversationId, until) }
  }

  type Store = (
    text: string,
    sources: ReturnType<typeof toSourceSnapshot>[],
    stopped: boolean,
  ) => Promise<SendMessageResponse | null>

  function runOnce(
    release: () => Promise<void>,
    log: FastifyBaseLogger,
    conversationId: string,
    draft: AnswerDraft,
    store: Store,
  ): AnswerRun {
    return async (sink, signal) => {
      const started = performance.now()
      try {
        let text = ''
        let stopped = false
        let announced = false
        try {
          for await (const token of draft.tokens(signal)) {
            // With the first word, the passages its markers may name: the browser shows each [n]
            // as a citation the moment it is written, not only once the answer is complete.
            if (!announced) sink.sources(draft.candidates().map((p) => toSourceDto(toSourceSnapshot(p))))
            announced = true
            text += token
            sink.token(token)
            if (signal.aborted) break
          }
        } catch (error) {
          if (error instanceof LlmUnavailableError) {
            log.warn(
              { event: 'chat.llm.unavailable', err: error, conversationId },
              'language model unavailable',
            )
            return { event: 'error', data: { message: error.message } }
          }
          if (!(error instanceof LlmAbortedError)) {
            log.error({ event: 'chat.answer.failed', err: error, conversationId }, 'answer failed')
            return { event: 'error', data: { message: ANSWER_FAILED } }
          }
        }
        if (signal.aborted) stopped = true
        text = text.trim()
        if (text.length === 0) {
          return { event: 'error', data: { message: stopped ? STOPPED_BEFORE_ANSWER : ANSWER_FAILED } }
        }
        const used = draft.sourcesFor(text)
        const snapshots = used.map(toSourceSnapshot)
        const stored = await store(text, snapshots, stopped)
        // Deleted while the assistant was writing: nothing was stored, the conversation is gone.
        if (!stored) return { event: 'error', data: { message: CONVERSATION_NOT_FOUND } }
        sink.sources(stored.aiMessage.sources)
        logAnswered(log, conversationId, used.length, started, stopped)
        return { event: 'done', data: stored }
      } catch (error) {
        log.error({ event: 'chat.answer.failed', err: error, conversationId }, 'answer failed')
        return { event: 'error', data: { message: ANSWER_FAILED } }
      } finally {
        await release()
      }
    }
  }

  return {
    async createConversation(
      user: Owner,
      { title, scope }: { title: string; scope?: ScopeRequest | null },
    ): Promise<Conversation> {
      const created = await chats.createConversation({
        userId: user.id,
        title: shortTitle(title),
        now: now(),
        scope: scopeIds(scope),
      })
      return toConversationDto(refuseMissing(created))
    },

    async listConversations(user: Owner): Promise<Conversation[]> {
      return (await chats.listConversations(user.id)).map(toConversationDto)
    },

    async deleteConversation(user: Owner, conversationId: string): Promise<void> {
      if (!(await chats.deleteConversation(user.id, conversationId))) throw conversationNotFound()
    },

    async listMessages(user: Owner, conversationId: string): Promise<Message[]> {
      if (!(await chats.findConversation(user.id, conversationId))) throw conversationNotFound()
      return (await chats.listMessages(user.id, conversationId)).map(toMessageDto)
    },

    async send(
      user: Owner,
      conversationId: string,
      { content }: SendMessageRequest,
      log: FastifyBaseLogger,
    ): Promise<SendMessageResponse> {
      const { until, release } = await claim(user, conversationId)
      try {
        const history = await chats.recentTurns(user.id, conversationId, MAX_HISTORY_TURNS)
        const scope = await chats.scopeOf(user.id, conversationId)
        const askedAt = now()
        const started = performance.now()
        let answer: Awaited<ReturnType<Assistant['answer']>>
        try {
          answer = await assistant.answer({ userId: user.id, question: content, history, scope })
        } catch (error) {
          if (!(error instanceof LlmUnavailableError)) throw error
          log.warn(
            { event: 'chat.llm.unavailable', err: error, conversationId },
            'language model unavailable',
          )
          throw serverError(502, error.message)
        }
        const stored = await chats.storeExchange({
          userId: user.id,
          conversationId,
          question: content,
          askedAt,
          answer: answer.content,
          sources: answer.sources.map(toSourceSnapshot),
          corrections: answer.corrections,
          answeredAt: strictlyAfter(now(), askedAt),
          claimUntil: until,
        })
        // Deleted while the assistant was thinking: nothing was stored, the conversation is gone.
        if (!stored) throw conversationNotFound()
        logAnswered(log, conversationId, answer.sources.length, started)
        return { userMessage: toMessageDto(stored.question), aiMessage: toMessageDto(stored.answer) }
      } finally {
        await release()
      }
    },

    /**
     * The streamed send: checks and claims the conversation now (so 404 and 409 answer before the
     * stream starts), then returns the run that writes the answer into a sink. A stopped answer is
     * stored with what had arrived, marked as stopped; a failed one stores nothing. Retrieval for
     * a question that stands alone does not wait for the claim (the first token does not wait for
     * one more round trip); the earlier turns, and so a follow-up's rewrite, do.
     */
    async openStream(
      user: Owner,
      conversationId: string,
      { content }: SendMessageRequest,
      log: FastifyBaseLogger,
      { timer, signal }: { timer?: StageTimer; signal?: AbortSignal } = {},
    ): Promise<AnswerRun> {
      const claimed = timed(timer, 'claim', claim(user, conversationId))
      const history = claimed.then(() =>
        timed(timer, 'history', chats.recentTurns(user.id, conversationId, MAX_HISTORY_TURNS)),
      )
      // Owner-filtered like every read, so it need not wait for the claim: null for anyone else's.
      const scope = timed(timer, 'scope', chats.scopeOf(user.id, conversationId))
      const drafted = assistant.draft({ userId: user.id, question: content, history, scope, signal }, timer)
      let held: Claim
      try {
        held = await claimed
      } catch (error) {
        // Refused (404, 409): what was started for it ends unheard.
        drafted.catch(() => {})
        throw error
      }
      const askedAt = now()
      try {
        const draft = await stoppedOr(drafted)
        return runOnce(held.release, log, conversationId, draft, async (text, sources, stopped) => {
          const stored = await chats.storeExchange({
            userId: user.id,
            conversationId,
            question: content,
            askedAt,
            answer: text,
            sources,
            corrections: draft.corrections,
            stopped,
            answeredAt: strictlyAfter(now(), askedAt),
            claimUntil: held.until,
          })
          return (
            stored && { userMessage: toMessageDto(stored.question), aiMessage: toMessageDto(stored.answer) }
          )
        })
      } catch (error) {
        await held.release()
        throw error
      }
    },

    /**
     * Writes the conversation's last answer again, streamed; `done` carries the answer with the new
     * version shown (D93). 409 once it has MAX_ANSWER_VERSIONS.
     */
    async openRegenerate(
      user: Owner,
      conversationId: string,
      messageId: string,
      log: FastifyBaseLogger,
      signal?: AbortSignal,
    ) {
      const { until, release } = await claim(user, conversationId)
      try {
        const [answer, question] = await chats.lastTwo(user.id, conversationId)
        if (!answer || answer.id !== messageId || answer.isUser || !question?.isUser) {
          const known = (await chats.listMessages(user.id, conversationId)).some((m) => m.id === messageId)
          throw known ? httpErrors.badRequest(ONLY_LAST_ANSWER) : httpErrors.notFound(MESSAGE_NOT_FOUND)
        }
        // At the bound nothing is dropped: the person keeps the versions they have (D93).
        if (answer.versionCount >= MAX_ANSWER_VERSIONS) throw httpErrors.conflict(TOO_MANY_VERSIONS)
        const turns = await chats.recentTurns(user.id, conversationId, MAX_HISTORY_TURNS + 2)
        // The conversation's scope as it is now: a document deleted since is no longer searched.
        const draft = await stoppedOr(
          assistant.draft({
            userId: user.id,
            question: question.content,
            history: turns.slice(0, -2),
            scope: await chats.scopeOf(user.id, conversationId),
            signal,
          }),
        )
        return runOnce(release, log, conversationId, draft, async (text, sources, stopped) => {
          const added = await chats.addVersion({
            userId: user.id,
            conversationId,
            answerId: answer.id,
            answer: text,
            sources,
            corrections: draft.corrections,
            stopped,
            answeredAt: strictlyAfter(now(), question.createdAt),
            claimUntil: until,
          })
          // Reached the bound meanwhile (checked above under the same claim, so only when a lapsed
          // claim was taken over): nothing is stored, and the run fails as a failed answer does.
          if (added === 'limit') throw new Error(TOO_MANY_VERSIONS)
          return added && { userMessage: toMessageDto(question), aiMessage: toMessageDto(added) }
        })
      } catch (error) {
        await release()
        throw error
      }
    },

    /** Renames it, limits it to chosen documents (or lifts the limit: `scope: null`), or both. */
    async updateConversation(
      user: Owner,
      conversationId: string,
      { title, scope }: { title?: string; scope?: ScopeRequest | null },
    ): Promise<Conversation> {
      const updated = await chats.updateConversation(user.id, conversationId, {
        ...(title === undefined ? {} : { title: shortTitle(title) }),
        ...(scope === undefined ? {} : { scope: scopeIds(scope) }),
      })
      if (!updated) throw conversationNotFound()
      return toConversationDto(refuseMissing(updated))
    },

    async search(user: Owner, q: string): Promise<SearchHit[]> {
      return (await chats.search(user.id, q)).map((row) => ({
        session: toConversationDto(row),
        snippet: row.snippet,
      }))
    },

    async setFeedback(user: Owner, messageId: string, feedback: Feedback): Promise<Message> {
      const result = await chats.setFeedback(user.id, messageId, feedback)
      if (result === null) throw httpErrors.notFound(MESSAGE_NOT_FOUND)
      if (result === 'not-an-answer') throw httpErrors.badRequest(ONLY_ANSWERS_RATED)
      return toMessageDto(result)
    },

    /** Shows another version of an answer (D93), stored so every device shows the same one. */
    async showVersion(user: Owner, messageId: string, version: number): Promise<Message> {
      const result = await chats.showVersion(user.id, messageId, version, now())
      if (result === null) throw httpErrors.notFound(MESSAGE_NOT_FOUND)
      if (result === 'not-an-answer') throw httpErrors.badRequest(ONLY_ANSWERS_HAVE_VERSIONS)
      if (result === 'busy') throw httpErrors.conflict(ANSWER_IN_PROGRESS)
      if ('noSuchVersion' in result) throw httpErrors.badRequest(noSuchVersion(result.noSuchVersion))
      return toMessageDto(result)
    },

    /** Why a disliked answer did not help (D93); replaces what was said before. */
    async explainDislike(user: Owner, messageId: string, { reason, note }: DislikeReasonRequest) {
      const result = await chats.explainDislike(user.id, messageId, reason ?? null, note ? note : null)
      if (result === null) throw httpErrors.notFound(MESSAGE_NOT_FOUND)
      if (result === 'not-an-answer') throw httpErrors.badRequest(ONLY_ANSWERS_RATED)
      if (result === 'not-disliked') throw httpErrors.badRequest(ONLY_DISLIKES_EXPLAINED)
      return toMessageDto(result)
    },
  }
}

/**
 * Stopped before the model wrote anything (during the rewrite, say): a draft with no words, so
 * the run ends as any answer stopped before its first word does (D20: nothing is stored).
 */
const NOTHING_WRITTEN: AnswerDraft = {
  candidates: () => [],
  async *tokens() {},
  sourcesFor: () => [],
  corrections: [],
}

async function stoppedOr(drafted: Promise<AnswerDraft>): Promise<AnswerDraft> {
  try {
    return await drafted
  } catch (error) {
    if (error instanceof LlmAbortedError) return NOTHING_WRITTEN
    throw error
  }
}

function logAnswered(
  log: FastifyBaseLogger,
  conversationId: string,
  sources: number,
  started: number,
  stopped = false,
) {
  log.info(
    { event: 'chat.answered', conversationId, sources, stopped, ms: Math.round(performance.now() - started) },
    'question answered',
  )
}
