/**
 * Generation through any OpenAI-compatible chat-completions endpoint (OpenAI, Ollama, vLLM,
 * llama.cpp …) with the official client library. Provider failures become LlmUnavailableError,
 * which the API answers with 502 and nothing stored; a caller's abort becomes LlmAbortedError.
 *
 * LLM_TIMEOUT_MS bounds one attempt: the client library does not retry (a retried timeout used to
 * make a hung model fail after twice the limit). Streaming, it bounds the wait for each token, so
 * a long answer that keeps coming is never cut, and a model that stops sending fails in time.
 */
import type OpenAI from 'openai'
import type { LlmConfig } from '../config.ts'
import type { ModelUsage } from '../operations/metrics.ts'
import type { ChatPromptMessage } from './prompt.ts'

// Loaded on the first answer, not at start: the client library is a large part of start-up time
// (bench/footprint.ts, D42).
let openaiModule: Promise<typeof import('openai')> | undefined
export const loadOpenAI = () => {
  openaiModule ??= import('openai')
  return openaiModule
}

export type Llm = {
  model: string
  complete(messages: ChatPromptMessage[]): Promise<string>
  /** The answer's text as the model produces it; aborting `signal` stops the model call. */
  stream(messages: ChatPromptMessage[], signal?: AbortSignal): AsyncIterable<string>
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

/** `observe` (metrics) hears each call's duration, outcome and the tokens the provider reported. */
export function createLlm(config: LlmConfig, observe?: (usage: ModelUsage) => void): Llm {
  let client: OpenAI | undefined
  async function openClient(): Promise<OpenAI> {
    const { default: OpenAIClient } = await loadOpenAI()
    client ??= new OpenAIClient({
      baseURL: config.baseUrl,
      // Local servers (Ollama, llama.cpp) take any key; the client library insists on one.
      apiKey: config.apiKey || 'not-needed',
      timeout: config.timeoutMs,
      maxRetries: 0,
    })
    return client
  }
  return {
    model: config.model,
    async complete(messages) {
      const openai = await openClient()
      const started = performance.now()
      let completion: OpenAI.Chat.Completions.ChatCompletion
      try {
        completion = await openai.chat.completions.create({ model: config.model, messages, temperature: 0.2 })
      } catch (cause) {
        observe?.({ seconds: (performance.now() - started) / 1000, ok: false })
        throw new LlmUnavailableError(explain(cause, (await loadOpenAI()).default), { cause })
      }
      observe?.({
        seconds: (performance.now() - started) / 1000,
        ok: true,
        ...(completion.usage
          ? {
              promptTokens: completion.usage.prompt_tokens,
              completionTokens: completion.usage.completion_tokens,
            }
          : {}),
      })
      const text = completion.choices[0]?.message?.content?.trim()
      if (!text) throw new LlmUnavailableError(EMPTY_ANSWER)
      return text
    },

    async *stream(messages, signal) {
      const openai = await openClient()
      const started = performance.now()
      const idle = new AbortController()
      let timer = setTimeout(() => idle.abort(), config.timeoutMs)
      const stop = signal ? AbortSignal.any([signal, idle.signal]) : idle.signal
      let any = false
      try {
        const chunks = await openai.chat.completions.create(
          { model: config.model, messages, temperature: 0.2, stream: true },
          { signal: stop },
        )
        for await (const chunk of chunks) {
          const text = chunk.choices[0]?.delta?.content
          if (!text) continue
          clearTimeout(timer)
          timer = setTimeout(() => idle.abort(), config.timeoutMs)
          // Leading blank deltas are dropped, as `complete` trims them.
          const shown = any ? text : text.trimStart()
          if (shown.length === 0) continue
          any = true
          yield shown
        }
      } catch (cause) {
        observe?.({ seconds: (performance.now() - started) / 1000, ok: false })
        if (signal?.aborted) throw new LlmAbortedError()
        if (idle.signal.aborted) throw new LlmUnavailableError(TIMED_OUT, { cause })
        throw new LlmUnavailableError(explain(cause, (await loadOpenAI()).default), { cause })
      } finally {
        clearTimeout(timer)
      }
      observe?.({ seconds: (performance.now() - started) / 1000, ok: any && !idle.signal.aborted })
      // The client library ends a stream quietly when its signal aborts: tell the two causes apart.
      if (signal?.aborted) throw new LlmAbortedError()
      if (idle.signal.aborted) throw new LlmUnavailableError(TIMED_OUT)
      if (!any) throw new LlmUnavailableError(EMPTY_ANSWER)
    },
  }
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
