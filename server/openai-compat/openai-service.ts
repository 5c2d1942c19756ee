/**
 * The OpenAI-compatible endpoint's work (issue 38, D130): the models a key may use (`library`,
 * and each assistant of the person's, or only the key's one), and a chat completion: the key's
 * scope and assistant checked, the messages read (chat-messages.ts), the quotas admitted
 * (api-quotas.ts: a refusal never reaches the model), then the answer drafted by the app's own
 * answerer with the assistant's knowledge and settings, exactly as a published assistant's
 * visitor is answered. Stateless: nothing is stored in the person's History; only what the answer
 * spent is recorded (usage_days, source `api`, and the key's day).
 */
import { randomUUID } from 'node:crypto'
import type { ChatCompletionRequest, ModelList } from '#contracts/openai.ts'
import { LIBRARY_MODEL } from '#contracts/openai.ts'
import { CUT_NOTE } from '../answering/answer-cap.ts'
import type { AnswerDraft, Answerer, AnswerSettings } from '../answering/answer-shapes.ts'
import { judgedDraft } from '../answering/citation-judge.ts'
import { LlmAbortedError, LlmUnavailableError } from '../answering/llm.ts'
import { estimatedTokens } from '../answering/token-usage.ts'
import { citedSnippets } from '../publishing/visitor-answers.ts'
import type { ApiAdmission, ApiQuotas } from './api-quotas.ts'
import { readMessages } from './chat-messages.ts'
import { type CompletionMeta, citationOf, type Finished, usageOf } from './completion-format.ts'
import type { ApiCaller } from './key-access.ts'
import { forbidden, modelNotFound, NO_CHAT_SCOPE_MESSAGE, rateLimited, serverError } from './openai-errors.ts'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
export const LIBRARY_MODEL_NAME = 'Whole library'
export const ONE_ASSISTANT_MESSAGE =
  'This API key may only ask its one assistant; use that assistant as the model.'
export const QUOTA_MESSAGES = {
  'key-tokens': 'This API key has used all its tokens for today. Try again tomorrow (UTC).',
  'person-tokens': 'Your answers have used all the tokens you may use today. Try again tomorrow (UTC).',
} as const
/** LLM_CONCURRENCY_PER_USER reached by the person's answers, the app's and the API's together (D134). */
export const answersAtOnceMessage = (limit: number) =>
  `You already have ${limit === 1 ? 'an answer' : `${limit} answers`} being written, in DocChat or through the API. Wait for one to finish, then ask again.`

export type AssistantsPort = {
  /** The person's assistants; `changedAt` in seconds (a model's `created`). */
  list(userId: string): Promise<{ id: string; name: string; changedAt: number }[]>
  /** The assistant's name when it is the person's; null otherwise. */
  find(userId: string, id: string): Promise<{ id: string; name: string } | null>
  settings(userId: string, id: string): Promise<AnswerSettings>
}

type Deps = {
  answerer: Answerer
  assistants: AssistantsPort
  quotas: ApiQuotas
  /** The operator's API_KEY_TOKENS_PER_DAY, USAGE_TOKENS_PER_DAY and LLM_CONCURRENCY_PER_USER. */
  limits: { tokensPerDay: number; usageTokensPerDay: number; answersAtOnce: number }
  now: () => Date
  /** Whether a language model answers (without one, answers cost no tokens). */
  modelAnswers: boolean
}

/** An admitted completion: its pieces as they come, then how it ended. Run it once. */
export type CompletionRun = {
  meta: CompletionMeta
  pieces: AsyncGenerator<string, Finished>
}

export class OpenAiService {
  readonly #deps: Deps

  constructor(deps: Deps) {
    this.#deps = deps
  }

  async models(caller: ApiCaller): Promise<ModelList> {
    this.#requireChat(caller)
    const created = Math.floor(this.#deps.now().getTime() / 1000)
    const mine = await this.#deps.assistants.list(caller.userId)
    const allowed = caller.assistantId === null ? mine : mine.filter((a) => a.id === caller.assistantId)
    const library = {
      id: LIBRARY_MODEL,
      object: 'model',
      created,
      owned_by: 'docchat',
      name: LIBRARY_MODEL_NAME,
    } as const
    return {
      object: 'list',
      data: [
        ...(caller.assistantId === null ? [library] : []),
        ...allowed.map((a) => ({
          id: a.id,
          object: 'model' as const,
          created: a.changedAt,
          owned_by: 'docchat',
          name: a.name,
        })),
      ],
    }
  }

  async open(caller: ApiCaller, request: ChatCompletionRequest, signal: AbortSignal): Promise<CompletionRun> {
    this.#requireChat(caller)
    const read = readMessages(request.messages)
    const assistantId = await this.#assistantFor(caller, request.model)
    const admission = await this.#admit(caller, assistantId)
    try {
      const settings = assistantId ? await this.#deps.assistants.settings(caller.userId, assistantId) : null
      const maxTokens = lowest(request.max_tokens, request.max_completion_tokens)
      const draft = await this.#deps.answerer.draft({
        userId: caller.userId,
        question: read.question,
        history: read.history,
        settings,
        signal,
        caller: {
          instructions: read.instructions,
          ...(request.temperature == null ? {} : { temperature: request.temperature }),
          ...(maxTokens === undefined ? {} : { maxTokens }),
        },
      })
      const spentBefore = [
        read.question,
        read.instructions,
        settings?.instructions ?? '',
        ...read.history.map((t) => t.content),
      ]
      const meta = {
        id: `chatcmpl-${randomUUID()}`,
        created: Math.floor(this.#deps.now().getTime() / 1000),
        model: request.model,
      }
      return { meta, pieces: this.#pieces(draft, settings, admission, spentBefore, signal) }
    } catch (error) {
      await admission.finish(0)
      throw asOpenAiError(error)
    }
  }

  #requireChat(caller: ApiCaller): void {
    if (!caller.scopes.includes('chat')) throw forbidden(NO_CHAT_SCOPE_MESSAGE)
  }

  /** The assistant `model` names (null for the library), once the key may use it. */
  async #assistantFor(caller: ApiCaller, model: string): Promise<string | null> {
    if (model === LIBRARY_MODEL) {
      if (caller.assistantId !== null) throw forbidden(ONE_ASSISTANT_MESSAGE)
      return null
    }
    const found = UUID.test(model)
      ? await this.#deps.assistants.find(caller.userId, model.toLowerCase())
      : null
    if (!found) throw modelNotFound(model)
    if (caller.assistantId !== null && caller.assistantId !== found.id) throw forbidden(ONE_ASSISTANT_MESSAGE)
    return found.id
  }

  async #admit(
    caller: ApiCaller,
    assistantId: string | null,
  ): Promise<Extract<ApiAdmission, { kind: 'admitted' }>> {
    const { limits } = this.#deps
    const admission = await this.#deps.quotas.admit({
      keyId: caller.keyId,
      userId: caller.userId,
      assistantId,
      limits: {
        tokensPerDay: lowest(caller.tokensPerDay, limits.tokensPerDay) ?? limits.tokensPerDay,
        usageTokensPerDay: limits.usageTokensPerDay,
        answersAtOnce: limits.answersAtOnce,
      },
    })
    if (admission.kind === 'refused') {
      const { reason, retryAfterSeconds } = admission
      if (reason === 'answers-at-once')
        throw rateLimited(answersAtOnceMessage(limits.answersAtOnce), 'requests', retryAfterSeconds)
      throw rateLimited(QUOTA_MESSAGES[reason], 'tokens', retryAfterSeconds)
    }
    return admission
  }

  /** The draft's pieces; when they end (however), what the answer spent is recorded once. */
  async *#pieces(
    draft: AnswerDraft,
    settings: AnswerSettings | null,
    admission: Extract<ApiAdmission, { kind: 'admitted' }>,
    spentBefore: string[],
    signal: AbortSignal,
  ): AsyncGenerator<string, Finished> {
    let text = ''
    let tokens = 0
    try {
      try {
        for await (const piece of draft.tokens(signal)) {
          text += piece
          yield piece
        }
      } catch (error) {
        if (!(error instanceof LlmAbortedError)) throw asOpenAiError(error)
      }
      const passages = draft.candidates()
      const fellBack = settings !== null && passages.length === 0 && text.trim() === settings.fallback.trim()
      const asked = this.#deps.modelAnswers && !fellBack && text.length > 0
      // A follow-up's rewrite was paid for whatever the answer turned out to be (D134).
      const rewrite = draft.rewriteSpent
      const promptTokens =
        (rewrite?.promptTokens ?? 0) +
        (asked ? estimatedTokens([...spentBefore, ...passages.map((p) => p.text)]) : 0)
      // Checked once the last piece is in (D129): the whole answer's text carries a repaired
      // marker moved; a stream's pieces already went as the model wrote them (D135). With
      // CITATION_JUDGE=model, what the check cannot vouch for is asked of the model (D140).
      const finished = await judgedDraft(draft, draft.finish(text.trim()), signal)
      const judge = finished.judgeUsage
      const completionTokens =
        (rewrite?.completionTokens ?? 0) +
        (asked ? estimatedTokens([text]) : 0) +
        (judge?.completionTokens ?? 0)
      const allPromptTokens = promptTokens + (judge?.promptTokens ?? 0)
      tokens = allPromptTokens + completionTokens
      return {
        text: finished.content,
        finishReason: text.endsWith(CUT_NOTE) ? 'length' : 'stop',
        usage: usageOf(allPromptTokens, completionTokens),
        citations: citedSnippets(finished).map(citationOf),
      }
    } finally {
      await admission.finish(tokens)
    }
  }
}

/** The lower of two optional limits. */
function lowest(a: number | null | undefined, b: number | null | undefined): number | undefined {
  const given = [a, b].filter((n): n is number => typeof n === 'number')
  return given.length === 0 ? undefined : Math.min(...given)
}

function asOpenAiError(error: unknown): unknown {
  if (error instanceof LlmUnavailableError) return serverError(502, error.message)
  return error
}
