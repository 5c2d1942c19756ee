/**
 * Generation through any OpenAI-compatible chat-completions endpoint (OpenAI, Ollama, vLLM,
 * llama.cpp …) with the official client library. Provider failures become LlmUnavailableError,
 * which the API answers with 502 and nothing stored; a caller's abort becomes LlmAbortedError.
 *
 * LLM_TIMEOUT_MS bounds one attempt: the client library does not retry (a retried timeout used to
 * make a hung model fail after twice the limit). Streaming, it bounds the wait for each token, so
 * a long answer that keeps coming is never cut, and a model that stops sending fails in time.
 *
 * Every call names the most tokens it may write (LLM_MAX_TOKENS for an answer, less for a
 * rewrite) and says whether the model stopped there (`cut`); the text is cleaned of control
 * characters (NUL and the like), which PostgreSQL cannot store and no person needs (D84, D85).
 */
import type OpenAI from 'openai'
import { withoutControlCharacters } from '#contracts/user-text.ts'
import { DEFAULT_LLM_MAX_TOKENS, type LlmConfig } from '../config.ts'
import type { ModelUsage } from '../operations/metrics.ts'
import type { ChatPromptMessage } from './prompt.ts'
import type { TokenUsage } from './token-usage.ts'

// Loaded on the first answer, not at start: the client library is a large part of start-up time
// (bench/footprint.ts, D42).
let openaiModule: Promise<typeof import('openai')> | undefined
export const loadOpenAI = () => {
  openaiModule ??= import('openai')
  return openaiModule
}

export type CallOptions = {
  /** Aborting it stops the call: LlmAbortedError. */
  signal?: AbortSignal
  /** The most tokens this call may write; the configured LLM_MAX_TOKENS when absent. */
  maxTokens?: number
  /** An assistant's settings (issue 36); the server's (0.2, LLM_MODEL) when absent. */
  temperature?: number
  model?: string
}

/** How freely the model writes when nobody set it: low, since answers quote documents. */
export const DEFAULT_TEMPERATURE = 0.2

/**
 * A whole answer; `cut` when the model stopped because it reached its token limit; `usage` what
 * the provider reported it spent, when it reports usage.
 */
export type Completion = { text: string; cut: boolean; usage?: TokenUsage }

export type Llm = {
  model: string
  /** The most tokens an answer may take (LLM_MAX_TOKENS). */
  maxTokens: number
  complete(messages: ChatPromptMessage[], options?: CallOptions): Promise<Completion>
  /**
   * The answer's text as the model produces it, then whether it was cut at its token limit.
   * Aborting `options.signal`, or ending the iteration early, stops the model call.
   */
  stream(messages: ChatPromptMessage[], options?: CallOptions): AsyncGenerator<string, { cut: boolean }>
}

export const EMPTY_ANSWER = 'The language model returned an empty answer. Please try again.'
export const TIMED_OUT = 'The language model did not answer in time. Please try again.'

export class LlmUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'LlmUnavailableError'
  }
}

/** The caller stopped the answer (the person pressed Stop or went away). */
export class LlmAbortedError extends Error {
  constructor() {
    super('The answer was stopped.')
    this.name = 'LlmAbortedError'
  }
}

/** How the token limit is named to the endpoint: see withTokenLimit. */
type TokenLimit = { max_tokens: number } | { max_completion_tokens: number }

/** `observe` (metrics) hears each call's duration, outcome and the tokens the provider reported. */
export function createLlm(config: LlmConfig, observe?: (usage: ModelUsage) => void): Llm {
  return new OpenAiCompatibleLlm(config, observe)
}

/** A model behind an OpenAI-compatible endpoint (OpenAI, Ollama, llama.cpp, vLLM). */
class OpenAiCompatibleLlm implements Llm {
  readonly model: string
  readonly maxTokens: number
  readonly #config: LlmConfig
  readonly #observe: ((usage: ModelUsage) => void) | undefined
  #client: OpenAI | undefined
  /**
   * `max_tokens` is what every OpenAI-compatible server understands; OpenAI's reasoning models
   * refuse it (400, param `max_tokens`) and want `max_completion_tokens`. Refused once, the call
   * is made again with that name, which this client then keeps using.
   */
  #limitName: 'max_tokens' | 'max_completion_tokens' = 'max_tokens'

  constructor(config: LlmConfig, observe?: (usage: ModelUsage) => void) {
    this.model = config.model
    this.maxTokens = config.maxTokens ?? DEFAULT_LLM_MAX_TOKENS
    this.#config = config
    this.#observe = observe
  }

  async #openClient(): Promise<OpenAI> {
    const { default: OpenAIClient } = await loadOpenAI()
    this.#client ??= new OpenAIClient({
      baseURL: this.#config.baseUrl,
      // Local servers (Ollama, llama.cpp) take any key; the client library insists on one.
      apiKey: this.#config.apiKey || 'not-needed',
      timeout: this.#config.timeoutMs,
      maxRetries: 0,
    })
    return this.#client
  }

  async #withTokenLimit<T>(tokens: number, call: (limit: TokenLimit) => Promise<T>): Promise<T> {
    const limit = (): TokenLimit =>
      this.#limitName === 'max_tokens' ? { max_tokens: tokens } : { max_completion_tokens: tokens }
    try {
      return await call(limit())
    } catch (error) {
      if (this.#limitName !== 'max_tokens' || !(await refusesMaxTokens(error))) throw error
      this.#limitName = 'max_completion_tokens'
      return call(limit())
    }
  }

  async complete(
    messages: ChatPromptMessage[],
    { signal, maxTokens: tokens = this.maxTokens, temperature, model }: CallOptions = {},
  ): Promise<Completion> {
    const openai = await this.#openClient()
    const started = performance.now()
    let completion: OpenAI.Chat.Completions.ChatCompletion
    try {
      completion = await this.#withTokenLimit(tokens, (limit) =>
        openai.chat.completions.create(
          {
            model: model ?? this.model,
            messages,
            temperature: temperature ?? DEFAULT_TEMPERATURE,
            ...limit,
          },
          signal ? { signal } : {},
        ),
      )
    } catch (cause) {
      this.#observe?.({ seconds: (performance.now() - started) / 1000, ok: false })
      if (signal?.aborted) throw new LlmAbortedError()
      throw new LlmUnavailableError(explain(cause, (await loadOpenAI()).default), { cause })
    }
    this.#observe?.({
      seconds: (performance.now() - started) / 1000,
      ok: true,
      ...(completion.usage
        ? {
            promptTokens: completion.usage.prompt_tokens,
            completionTokens: completion.usage.completion_tokens,
          }
        : {}),
    })
    const choice = completion.choices[0]
    const text = withoutControlCharacters(choice?.message?.content ?? '').trim()
    if (!text) throw new LlmUnavailableError(EMPTY_ANSWER)
    const usage = completion.usage
    return {
      text,
      cut: choice?.finish_reason === 'length',
      ...(usage
        ? { usage: { promptTokens: usage.prompt_tokens, completionTokens: usage.completion_tokens } }
        : {}),
    }
  }

  async *stream(
    messages: ChatPromptMessage[],
    { signal, maxTokens: tokens = this.maxTokens, temperature, model }: CallOptions = {},
  ): AsyncGenerator<string, { cut: boolean }> {
    const { timeoutMs } = this.#config
    const openai = await this.#openClient()
    const started = performance.now()
    const idle = new AbortController()
    let timer = setTimeout(() => idle.abort(), timeoutMs)
    const stop = signal ? AbortSignal.any([signal, idle.signal]) : idle.signal
    let any = false
    let cut = false
    let observed = false
    const report = (ok: boolean) => {
      if (observed) return
      observed = true
      this.#observe?.({ seconds: (performance.now() - started) / 1000, ok })
    }
    try {
      const chunks = await this.#withTokenLimit(tokens, (limit) =>
        openai.chat.completions.create(
          {
            model: model ?? this.model,
            messages,
            temperature: temperature ?? DEFAULT_TEMPERATURE,
            stream: true,
            ...limit,
          },
          { signal: stop },
        ),
      )
      for await (const chunk of chunks) {
        const choice = chunk.choices[0]
        if (choice?.finish_reason === 'length') cut = true
        const text = withoutControlCharacters(choice?.delta?.content ?? '')
        if (!text) continue
        clearTimeout(timer)
        timer = setTimeout(() => idle.abort(), timeoutMs)
        // Leading blank deltas are dropped, as `complete` trims them.
        const shown = any ? text : text.trimStart()
        if (shown.length === 0) continue
        any = true
        yield shown
      }
      report(any && !idle.signal.aborted)
    } catch (cause) {
      report(false)
      if (signal?.aborted) throw new LlmAbortedError()
      if (idle.signal.aborted) throw new LlmUnavailableError(TIMED_OUT, { cause })
      throw new LlmUnavailableError(explain(cause, (await loadOpenAI()).default), { cause })
    } finally {
      clearTimeout(timer)
      // Left early (the caller had enough: the answer's character cap): the call did its part.
      report(any)
    }
    // The client library ends a stream quietly when its signal aborts: tell the two causes apart.
    if (signal?.aborted) throw new LlmAbortedError()
    if (idle.signal.aborted) throw new LlmUnavailableError(TIMED_OUT)
    if (!any) throw new LlmUnavailableError(EMPTY_ANSWER)
    return { cut }
  }
}

/** The endpoint refused the name `max_tokens` (OpenAI's reasoning models do). */
async function refusesMaxTokens(error: unknown): Promise<boolean> {
  const { default: OpenAI } = await loadOpenAI()
  if (!(error instanceof OpenAI.BadRequestError)) return false
  return error.param === 'max_tokens' || /max_completion_tokens/.test(error.message)
}

function explain(error: unknown, OpenAI: typeof import('openai').default): string {
  if (error instanceof OpenAI.APIConnectionTimeoutError) return TIMED_OUT
  if (error instanceof OpenAI.APIConnectionError)
    return 'The language model could not be reached. Please try again later.'
  if (error instanceof OpenAI.RateLimitError)
    return 'The language model is busy (rate limited). Please try again in a moment.'
  if (error instanceof OpenAI.APIError)
    return `The language model answered with an error (${error.status ?? 'unknown'}). Please try again later.`
  return 'The language model failed. Please try again later.'
}
