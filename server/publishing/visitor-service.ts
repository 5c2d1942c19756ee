/**
 * The visitor calls of a published assistant (issue 37, D117, D118): what the assistant shows
 * about itself, the visitor's conversation, a streamed answer, and feedback on the visitor's own
 * answers. Nothing of the owner's leaves but the assistant's answers and cited snippets. Every
 * answer is admitted by the VisitorBudgets port first (a refusal never reaches the model) and
 * reports what it spent once it ends, however it ends.
 */
import type { FastifyBaseLogger } from 'fastify'
import type {
  PublicAskRequest,
  PublicAssistant,
  PublicChallenge,
  PublicStreamEvent,
} from '#contracts/publishing.ts'
import type { AnswerDraft, Answerer, AnswerSettings } from '../answering/answer-shapes.ts'
import { judgedDraft } from '../answering/citation-judge.ts'
import { LlmAbortedError, LlmUnavailableError } from '../answering/llm.ts'
import { MAX_HISTORY_TURNS } from '../answering/prompt.ts'
import { estimatedTokens, totalTokens } from '../answering/token-usage.ts'
import { UpstreamFailed } from '../http/domain-errors.ts'
import type { ProofOfWork } from './challenge.ts'
import {
  AssistantBusy,
  ChallengeNeeded,
  VISITOR_ANSWER_FAILED,
  VISITOR_STOPPED,
  VisitorConversationNotFound,
  VisitorMessageNotFound,
} from './publishing-errors.ts'
import type { PublishedAssistant } from './publishing-repository.ts'
import type { PublishingService } from './publishing-service.ts'
import { citedSnippets, toPublicMessage } from './visitor-answers.ts'
import type { Admission, VisitorBudgets } from './visitor-budgets.ts'
import { verifyUserToken } from './visitor-identity.ts'
import type { Visitor, VisitorRepository } from './visitor-repository.ts'

/** A streamed visitor answer, admitted and drafted: run it once. */
export type VisitorRun = (
  sink: { token(text: string): void },
  signal: AbortSignal,
) => Promise<Exclude<PublicStreamEvent, { event: 'token' }>>

type Deps = {
  publishing: PublishingService
  visitors: VisitorRepository
  answerer: Answerer
  answerSettings: (ownerId: string, assistantId: string) => Promise<AnswerSettings>
  budgets: VisitorBudgets
  /** The owner's optional proof of work before a visitor's first question (D119). */
  proofOfWork: ProofOfWork
  now: () => Date
  /** Whether a language model answers (without one, answers cost no tokens). */
  modelAnswers: boolean
}

type Admitted = Extract<Admission, { kind: 'admitted' }>

/** Who a visitor call says it comes from: the cookie's anonymous id, or a host site's token. */
export type VisitorClaim = { anonymousId: string | null; userToken?: string | undefined }

export class VisitorService {
  readonly #deps: Deps

  constructor(deps: Deps) {
    this.#deps = deps
  }

  async assistant(publicId: string): Promise<PublicAssistant> {
    const a = await this.#deps.publishing.published(publicId)
    return {
      publicId: a.publicId,
      name: a.name,
      description: a.description,
      starterQuestions: a.starterQuestions,
      privacyNotice: a.privacyNotice,
      requireChallenge: a.requireChallenge,
    }
  }

  /** A challenge bound to this assistant (any published one: asking for it costs nothing). */
  async challenge(publicId: string): Promise<PublicChallenge> {
    const a = await this.#deps.publishing.published(publicId)
    const challenge = await this.#deps.proofOfWork.createChallenge(a.publicId)
    return { parameters: { ...challenge.parameters }, signature: challenge.signature ?? '' }
  }

  /**
   * The visitor's latest conversation; 404 when they have none (or no cookie yet). A signed
   * visitor is named by their token on every device, never by the cookie (D123).
   */
  async conversation(publicId: string, visitor: VisitorClaim) {
    const a = await this.#deps.publishing.published(publicId)
    const key = await this.#keyOf(a, visitor)
    const id = key && (await this.#deps.visitors.latestConversation(a.assistantId, key))
    if (!id) throw new VisitorConversationNotFound()
    const messages = await this.#deps.visitors.listVisitorMessages(id)
    return { conversationId: id, messages: messages.map((m) => toPublicMessage(m, a)) }
  }

  async feedback(
    publicId: string,
    visitor: VisitorClaim,
    messageId: string,
    feedback: 'like' | 'dislike',
  ): Promise<null> {
    const a = await this.#deps.publishing.published(publicId)
    const key = await this.#keyOf(a, visitor)
    const set =
      key !== null &&
      (await this.#deps.visitors.setVisitorFeedback({
        assistantId: a.assistantId,
        visitorKey: key,
        messageId,
        feedback,
      }))
    if (!set) throw new VisitorMessageNotFound()
    return null
  }

  /** The signed visitor's key when a token comes (refused when bad), else the cookie's id (or null). */
  async #keyOf(a: PublishedAssistant, visitor: VisitorClaim): Promise<string | null> {
    if (visitor.userToken === undefined) return visitor.anonymousId
    return (await this.#visitor(a, visitor.userToken, () => '')).key
  }

  /**
   * Checks, admits and drafts a visitor's answer; the run streams it. `anonymousId` is called only
   * for a visitor without a signed token (it sets their cookie when they have none).
   */
  async openAsk(
    publicId: string,
    request: PublicAskRequest,
    anonymousId: () => string,
    log: FastifyBaseLogger,
    signal: AbortSignal,
  ): Promise<VisitorRun> {
    const { visitors, budgets } = this.#deps
    const a = await this.#deps.publishing.published(publicId)
    const visitor = await this.#visitor(a, request.userToken, anonymousId)
    const conversationId = request.conversationId ?? null
    if (
      conversationId &&
      !(await visitors.isVisitorsConversation(a.assistantId, visitor.key, conversationId))
    )
      throw new VisitorConversationNotFound()
    await this.#checkChallenge(a, visitor, conversationId, request.challenge)
    const admission = await budgets.admit({
      ownerId: a.ownerId,
      assistantId: a.assistantId,
      visitorKey: visitor.key,
      budgets: a.budgets,
    })
    if (admission.kind === 'refused') throw new AssistantBusy(a.busyMessage, admission.retryAfterSeconds)
    try {
      const settings = await this.#deps.answerSettings(a.ownerId, a.assistantId)
      const history = conversationId
        ? await visitors.recentVisitorTurns(conversationId, MAX_HISTORY_TURNS)
        : []
      const draft = await stoppedOr(
        this.#deps.answerer.draft({
          userId: a.ownerId,
          question: request.content,
          history,
          settings,
          signal,
        }),
      )
      const spentBefore = [request.content, settings.instructions, ...history.map((t) => t.content)]
      return this.#run({
        a,
        visitor,
        conversationId,
        question: request.content,
        draft,
        settings,
        admission,
        log,
        spentBefore,
      })
    } catch (error) {
      await admission.finish(0)
      if (error instanceof LlmUnavailableError) throw new UpstreamFailed(error.message)
      throw error
    }
  }

  /**
   * A visitor's first question, when the owner asks for a proof of work, needs a solved challenge,
   * before anything is counted or answered. "First" is the visitor's first conversation with the
   * assistant, as the widget judges it: once answered, a new conversation asks for none again
   * (their budgets bound them from then on); a script without the cookie is a new visitor each time.
   */
  async #checkChallenge(
    a: PublishedAssistant,
    visitor: Visitor,
    conversationId: string | null,
    challenge: string | undefined,
  ): Promise<void> {
    if (!a.requireChallenge || conversationId !== null) return
    if (await this.#deps.visitors.latestConversation(a.assistantId, visitor.key)) return
    const verdict = challenge
      ? await this.#deps.proofOfWork.verifyChallenge(challenge, a.publicId)
      : { ok: false }
    if (!verdict.ok) throw new ChallengeNeeded()
  }

  async #visitor(
    a: PublishedAssistant,
    userToken: string | undefined,
    anonymousId: () => string,
  ): Promise<Visitor> {
    if (userToken === undefined) return { key: anonymousId(), signed: false, name: null, email: null }
    const signed = await verifyUserToken(userToken, {
      secret: this.#deps.publishing.identitySecret(a),
      publicId: a.publicId,
      now: this.#deps.now(),
    })
    return { key: `sub:${signed.sub}`, signed: true, name: signed.name, email: signed.email }
  }

  #run(x: {
    a: PublishedAssistant
    visitor: Visitor
    conversationId: string | null
    question: string
    draft: AnswerDraft
    settings: AnswerSettings
    admission: Admitted
    log: FastifyBaseLogger
    spentBefore: string[]
  }): VisitorRun {
    const { a, draft, admission, log } = x
    const askedAt = this.#deps.now()
    return async (sink, signal) => {
      let tokens = 0
      try {
        let text = ''
        try {
          for await (const token of draft.tokens(signal)) {
            text += token
            sink.token(token)
            if (signal.aborted) break
          }
        } catch (error) {
          if (error instanceof LlmUnavailableError)
            return { event: 'error', data: { message: error.message } }
          if (!(error instanceof LlmAbortedError)) throw error
        }
        text = text.trim()
        const passages = draft.candidates()
        const fellBack = passages.length === 0 && text === x.settings.fallback.trim()
        // A follow-up's rewrite was paid for whatever the answer turned out to be (D134).
        tokens = totalTokens(draft.rewriteSpent)
        if (this.#deps.modelAnswers && !fellBack && text.length > 0)
          tokens += estimatedTokens([...x.spentBefore, ...passages.map((p) => p.text), text])
        if (text.length === 0)
          return {
            event: 'error',
            data: { message: signal.aborted ? VISITOR_STOPPED : VISITOR_ANSWER_FAILED },
          }
        // After the last token, before the answer is stored and `done` sent, as in the app (D129).
        const checked = draft.finish(text)
        if (checked.checks === null)
          log.warn(
            { event: 'visitor.citations.unchecked', err: checked.checkError, assistantId: a.assistantId },
            'citations not checked',
          )
        // With CITATION_JUDGE=model, what the check cannot vouch for is asked of the model (D140).
        const finished = await judgedDraft(draft, checked, signal)
        if (finished.judgeError !== undefined)
          log.warn(
            { event: 'visitor.citations.unjudged', err: finished.judgeError, assistantId: a.assistantId },
            'citations not judged',
          )
        tokens += totalTokens(finished.judgeUsage)
        const sources = citedSnippets(finished)
        const stored = await this.#deps.visitors.storeVisitorExchange({
          assistantId: a.assistantId,
          ownerId: a.ownerId,
          conversationId: x.conversationId,
          visitor: x.visitor,
          question: x.question,
          askedAt,
          answer: {
            content: finished.content,
            sources,
            fellBack,
            foundNothing: sources.length === 0,
            tokens,
          },
          answeredAt: new Date(Math.max(this.#deps.now().getTime(), askedAt.getTime() + 1)),
        })
        return {
          event: 'done',
          data: {
            conversationId: stored.conversationId,
            userMessage: toPublicMessage(stored.question, a),
            aiMessage: toPublicMessage(stored.answer, a),
          },
        }
      } catch (error) {
        log.error(
          { event: 'visitor.answer.failed', err: error, assistantId: a.assistantId },
          'visitor answer failed',
        )
        return { event: 'error', data: { message: VISITOR_ANSWER_FAILED } }
      } finally {
        await admission
          .finish(tokens)
          .catch((error: unknown) =>
            log.error(
              { event: 'visitor.budget.finish-failed', err: error },
              'recording a visitor answer failed',
            ),
          )
      }
    }
  }
}

/** Stopped before the model wrote anything: a draft with no words (nothing is stored). */
const NOTHING_WRITTEN: AnswerDraft = {
  candidates: () => [],
  async *tokens() {},
  sourcesFor: () => [],
  finish: (content) => ({ content, sources: [], checks: [], checkMs: 0 }),
  corrections: [],
  spent: () => null,
}

async function stoppedOr(drafted: Promise<AnswerDraft>): Promise<AnswerDraft> {
  try {
    return await drafted
  } catch (error) {
    if (error instanceof LlmAbortedError) return NOTHING_WRITTEN
    throw error
  }
}
