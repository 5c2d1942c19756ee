/**
 * Conversations with the assistant (product §4 chat send, §7 chat calls). Routes stay thin and call
 * this; the repository holds the SQL; what it refuses it throws as chat errors (chat-errors.ts),
 * which the error handler answers. Sending asks the assistant outside any transaction (a model can
 * take a minute and PGlite runs one query at a time), then stores the question and the answer
 * together or not at all; a streamed answer is written by answer-runs.ts.
 */
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
} from '#contracts/chat.ts'
import type { Answerer, AnswerSettings, StageTimer } from '../answering/answer-shapes.ts'
import { timed } from '../answering/answerer.ts'
import { LlmUnavailableError } from '../answering/llm.ts'
import { MAX_HISTORY_TURNS } from '../answering/prompt.ts'
import { addedUsage, type TokenUsage } from '../answering/token-usage.ts'
import type { StoredCheck } from '../db/schema.ts'
import type { UsageMeter } from '../usage/usage-service.ts'
import {
  type AnswerRun,
  logAnswered,
  logUnchecked,
  logUnjudged,
  runOnce,
  stoppedOr,
  strictlyAfter,
} from './answer-runs.ts'
import { toConversationDto, toMessageDto, toSourceSnapshot } from './chat-dto.ts'
import {
  AnswerInProgress,
  ConversationNotFound,
  MessageNotFound,
  ModelUnavailable,
  NotTheLastAnswer,
  TOO_MANY_VERSIONS,
  TooManyAnswers,
  TooManyVersions,
} from './chat-errors.ts'
import type { ChatRepository } from './chat-repository.ts'
import { refuseMissing, scopeIds, shortTitle } from './conversation-fields.ts'
import { explainDislike, setFeedback, showVersion } from './message-ratings.ts'

/**
 * How long a claim on a conversation (one answer being written) lasts at most. Released as soon as
 * the answer is stored or fails; the lease only matters when an instance dies mid-answer.
 */
export const ANSWER_LEASE_MS = 5 * 60_000

/** What the chat asks of the assistants (issue 36): the one a conversation is with, and how it answers. */
export type ConversationAssistants = {
  /** Its id and name; refuses (404) one that is not the person's. */
  forConversation(user: Owner, id: string): Promise<{ id: string; name: string }>
  answerSettings(userId: string, id: string): Promise<AnswerSettings>
}

type Deps = {
  chats: ChatRepository
  answerer: Answerer
  assistants: ConversationAssistants
  now: () => Date
  /** Answers one person may have written at once, on every instance together (D84). */
  answersPerPerson: number
  /** Holds a person to USAGE_TOKENS_PER_DAY and records what each answer spent (D126). */
  usage: UsageMeter
}
type Owner = { id: string }
type Claim = { until: Date; release: () => Promise<void> }

export class ChatService {
  readonly #chats: ChatRepository
  readonly #answerer: Answerer
  readonly #assistants: ConversationAssistants
  readonly #now: () => Date
  readonly #answersPerPerson: number
  readonly #usage: UsageMeter

  constructor({ chats, answerer, assistants, now, answersPerPerson, usage }: Deps) {
    this.#chats = chats
    this.#answerer = answerer
    this.#assistants = assistants
    this.#now = now
    this.#answersPerPerson = answersPerPerson
    this.#usage = usage
  }

  /**
   * Claims the conversation for one answer (not found when it is not theirs, in progress while one
   * is written in it, too many while the person has answersPerPerson being written elsewhere).
   * `until` names the claim, so the write that stores the answer can end it too. A person whose
   * answers spent USAGE_TOKENS_PER_DAY today is refused first (429 until the next UTC day, D126):
   * that check is read beside the claim (one round trip fewer before the model is asked, D143),
   * and a claim taken meanwhile is given back.
   */
  async #claim(user: Owner, conversationId: string): Promise<Claim> {
    const at = this.#now()
    const until = new Date(at.getTime() + ANSWER_LEASE_MS)
    const release = () => this.#chats.releaseAnswering(user.id, conversationId, until)
    const [spent, claimed] = await Promise.allSettled([
      this.#usage.checkDailyTokens(user.id),
      this.#chats.claimAnswering(user.id, conversationId, at, until, this.#answersPerPerson),
    ])
    if (spent.status === 'rejected') {
      if (claimed.status === 'fulfilled' && claimed.value === 'claimed') await release()
      throw spent.reason
    }
    if (claimed.status === 'rejected') throw claimed.reason
    if (claimed.value === null) throw new ConversationNotFound()
    if (claimed.value === 'busy') throw new AnswerInProgress()
    if (claimed.value === 'limit') throw new TooManyAnswers(this.#answersPerPerson)
    return { until, release }
  }

  /**
   * One answer of the app's and what it spent (nothing: no model was asked), with its citation
   * judge's (D140), against the person and the conversation's assistant (D134), read when the
   * answer began (a conversation keeps its assistant).
   */
  async #record(
    userId: string,
    assistantId: string | null,
    spent: TokenUsage | null | undefined,
    judge: TokenUsage | null = null,
  ): Promise<void> {
    const tokens = addedUsage(spent ?? { promptTokens: 0, completionTokens: 0 }, judge)
    await this.#usage.recordAnswer({ ownerId: userId, source: 'app', assistantId, ...tokens })
  }

  /**
   * The settings of the assistant the conversation is with, its knowledge resolved now (D113);
   * null for a conversation with the whole library (or not the person's).
   */
  async #settings(userId: string, assistantId: string | null): Promise<AnswerSettings | null> {
    return assistantId ? this.#assistants.answerSettings(userId, assistantId) : null
  }

  async createConversation(
    user: Owner,
    {
      title,
      scope,
      assistantId,
    }: { title: string; scope?: ScopeRequest | null; assistantId?: string | null },
  ): Promise<Conversation> {
    const assistant = assistantId
      ? await this.#assistants.forConversation(user, assistantId.toLowerCase())
      : null
    const created = await this.#chats.createConversation({
      userId: user.id,
      title: shortTitle(title),
      now: this.#now(),
      scope: scopeIds(scope),
      assistant,
    })
    return toConversationDto(refuseMissing(created))
  }

  async listConversations(user: Owner): Promise<Conversation[]> {
    return (await this.#chats.listConversations(user.id)).map(toConversationDto)
  }

  async deleteConversation(user: Owner, conversationId: string): Promise<void> {
    if (!(await this.#chats.deleteConversation(user.id, conversationId))) throw new ConversationNotFound()
  }

  async listMessages(user: Owner, conversationId: string): Promise<Message[]> {
    if (!(await this.#chats.findConversation(user.id, conversationId))) throw new ConversationNotFound()
    return (await this.#chats.listMessages(user.id, conversationId)).map(toMessageDto)
  }

  async send(
    user: Owner,
    conversationId: string,
    { content }: SendMessageRequest,
    log: FastifyBaseLogger,
  ): Promise<SendMessageResponse> {
    const { until, release } = await this.#claim(user, conversationId)
    try {
      const history = await this.#chats.recentTurns(user.id, conversationId, MAX_HISTORY_TURNS)
      const { scope, assistantId } = await this.#chats.answeringSetup(user.id, conversationId)
      const settings = await this.#settings(user.id, assistantId)
      const askedAt = this.#now()
      const started = performance.now()
      let answer: Awaited<ReturnType<Answerer['answer']>>
      try {
        answer = await this.#answerer.answer({ userId: user.id, question: content, history, scope, settings })
      } catch (error) {
        if (!(error instanceof LlmUnavailableError)) throw error
        log.warn({ event: 'chat.llm.unavailable', err: error, conversationId }, 'language model unavailable')
        throw new ModelUnavailable(error.message)
      }
      logUnchecked(log, conversationId, answer)
      logUnjudged(log, conversationId, answer)
      const stored = await this.#chats.storeExchange({
        userId: user.id,
        conversationId,
        question: content,
        askedAt,
        answer: answer.content,
        sources: answer.sources.map(toSourceSnapshot),
        corrections: answer.corrections,
        checks: answer.checks,
        answeredAt: strictlyAfter(this.#now(), askedAt),
        claimUntil: until,
      })
      // Deleted while the assistant was thinking: nothing was stored, the conversation is gone.
      if (!stored) throw new ConversationNotFound()
      await this.#record(user.id, assistantId, answer.usage).catch((error: unknown) =>
        log.error({ event: 'usage.record-failed', err: error, conversationId }, 'recording usage failed'),
      )
      logAnswered(log, conversationId, answer.sources.length, started, false, answer.checkMs, answer.judgeMs)
      return { userMessage: toMessageDto(stored.question), aiMessage: toMessageDto(stored.answer) }
    } finally {
      await release()
    }
  }

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
    const chats = this.#chats
    const claimed = timed(timer, 'claim', this.#claim(user, conversationId))
    const history = claimed.then(() =>
      timed(timer, 'history', chats.recentTurns(user.id, conversationId, MAX_HISTORY_TURNS)),
    )
    // A refused claim (404, 409, 429) rejects the history too, perhaps before the draft asks for
    // it: the refusal is answered below, so this rejection is not left unhandled.
    history.catch(() => {})
    // Owner-filtered like every read, so it need not wait for the claim: nulls for anyone else's.
    const setup = timed(timer, 'scope', chats.answeringSetup(user.id, conversationId))
    const scope = setup.then((s) => s.scope)
    const settings = setup.then((s) => this.#settings(user.id, s.assistantId))
    const drafted = this.#answerer.draft(
      { userId: user.id, question: content, history, scope, settings, signal },
      timer,
    )
    let held: Claim
    try {
      held = await claimed
    } catch (error) {
      // Refused (404, 409): what was started for it ends unheard.
      drafted.catch(() => {})
      throw error
    }
    const askedAt = this.#now()
    try {
      const draft = await stoppedOr(drafted)
      const { assistantId } = await setup
      return runOnce({
        release: held.release,
        log,
        conversationId,
        draft,
        record: (text, judge) => this.#record(user.id, assistantId, draft.spent(text), judge),
        store: async (text, sources, stopped, checks) => {
          const stored = await chats.storeExchange({
            userId: user.id,
            conversationId,
            question: content,
            askedAt,
            answer: text,
            sources,
            corrections: draft.corrections,
            checks,
            stopped,
            answeredAt: strictlyAfter(this.#now(), askedAt),
            claimUntil: held.until,
          })
          return (
            stored && { userMessage: toMessageDto(stored.question), aiMessage: toMessageDto(stored.answer) }
          )
        },
      })
    } catch (error) {
      await held.release()
      throw error
    }
  }

  /**
   * Writes the conversation's last answer again, streamed; `done` carries the answer with the new
   * version shown (D93). Refused once it has MAX_ANSWER_VERSIONS.
   */
  async openRegenerate(
    user: Owner,
    conversationId: string,
    messageId: string,
    log: FastifyBaseLogger,
    signal?: AbortSignal,
  ): Promise<AnswerRun> {
    const chats = this.#chats
    const { until, release } = await this.#claim(user, conversationId)
    try {
      const [answer, question] = await chats.lastTwo(user.id, conversationId)
      if (!answer || answer.id !== messageId || answer.isUser || !question?.isUser) {
        const known = (await chats.listMessages(user.id, conversationId)).some((m) => m.id === messageId)
        throw known ? new NotTheLastAnswer() : new MessageNotFound()
      }
      // At the bound nothing is dropped: the person keeps the versions they have (D93).
      if (answer.versionCount >= MAX_ANSWER_VERSIONS) throw new TooManyVersions()
      const turns = await chats.recentTurns(user.id, conversationId, MAX_HISTORY_TURNS + 2)
      // The conversation's scope as it is now: a document deleted since is no longer searched.
      const { scope, assistantId } = await chats.answeringSetup(user.id, conversationId)
      const draft = await stoppedOr(
        this.#answerer.draft({
          userId: user.id,
          question: question.content,
          history: turns.slice(0, -2),
          scope,
          settings: await this.#settings(user.id, assistantId),
          signal,
        }),
      )
      const store = async (
        text: string,
        sources: ReturnType<typeof toSourceSnapshot>[],
        stopped: boolean,
        checks: StoredCheck[] | null,
      ) => {
        const added = await chats.addVersion({
          userId: user.id,
          conversationId,
          answerId: answer.id,
          answer: text,
          sources,
          corrections: draft.corrections,
          checks,
          stopped,
          answeredAt: strictlyAfter(this.#now(), question.createdAt),
          claimUntil: until,
        })
        // Reached the bound meanwhile (checked above under the same claim, so only when a lapsed
        // claim was taken over): nothing is stored, and the run fails as a failed answer does.
        if (added === 'limit') throw new Error(TOO_MANY_VERSIONS)
        return added && { userMessage: toMessageDto(question), aiMessage: toMessageDto(added) }
      }
      const record = (text: string, judge: TokenUsage | null) =>
        this.#record(user.id, assistantId, draft.spent(text), judge)
      return runOnce({ release, log, conversationId, draft, store, record })
    } catch (error) {
      await release()
      throw error
    }
  }

  /** Renames it, limits it to chosen documents (or lifts the limit: `scope: null`), or both. */
  async updateConversation(
    user: Owner,
    conversationId: string,
    { title, scope }: { title?: string; scope?: ScopeRequest | null },
  ): Promise<Conversation> {
    const updated = await this.#chats.updateConversation(user.id, conversationId, {
      ...(title === undefined ? {} : { title: shortTitle(title) }),
      ...(scope === undefined ? {} : { scope: scopeIds(scope) }),
    })
    if (!updated) throw new ConversationNotFound()
    return toConversationDto(refuseMissing(updated))
  }

  async search(user: Owner, q: string): Promise<SearchHit[]> {
    return (await this.#chats.search(user.id, q)).map((row) => ({
      session: toConversationDto(row),
      snippet: row.snippet,
    }))
  }

  setFeedback(user: Owner, messageId: string, feedback: Feedback): Promise<Message> {
    return setFeedback(this.#chats, user.id, messageId, feedback)
  }

  /** Shows another version of an answer (D93), stored so every device shows the same one. */
  showVersion(user: Owner, messageId: string, version: number): Promise<Message> {
    return showVersion(this.#chats, user.id, messageId, version, this.#now())
  }

  /** Why a disliked answer did not help (D93); replaces what was said before. */
  explainDislike(user: Owner, messageId: string, why: DislikeReasonRequest): Promise<Message> {
    return explainDislike(this.#chats, user.id, messageId, why)
  }
}
