/**
 * Generation through any OpenAI-compatible chat-completions endpoint (OpenAI, Ollama, vLLM,
 * llama.cpp …) with the official client library. Provider failures become LlmUnavailableError,
 * which the API answers with 502 and nothing stored.
 */
import type OpenAI from 'openai'
import type { ModelUsage } from '../metrics.ts'
import type { ChatPromptMessage } from './prompt.ts'

// Loaded on the first answer, not at start: the client library is a large part of start-up time
// (bench/footprint.ts, README D42).
let openaiModule: Promise<typeof import('openai')> | undefined
const loadOpenAI = () => {
  openaiModule ??= import('openai')
  return openaiModule
}

export type LlmConfig = { baseUrl: string; apiKey: string; model: string; timeoutMs: number }

export type Llm = { model: string; complete(messages: ChatPromptMessage[]): Promise<string> }

export class LlmUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'LlmUnavailableError'
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
      maxRetries: 1,
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
      if (!text)
        throw new LlmUnavailableError('The language model returned an empty answer. Please try again.')
      return text
    },
  }
}

function explain(error: unknown, OpenAI: typeof import('openai').default): string {
  if (error instanceof OpenAI.APIConnectionTimeoutError)
    return 'The language model did not answer in time. Please try again.'
  if (error instanceof OpenAI.APIConnectionError)
    return 'The language model could not be reached. Please try again later.'
  if (error instanceof OpenAI.RateLimitError)
    return 'The language model is busy (rate limited). Please try again in a moment.'
  if (error instanceof OpenAI.APIError)
    return `The language model answered with an error (${error.status ?? 'unknown'}). Please try again later.`
  return 'The language model failed. Please try again later.'
}
