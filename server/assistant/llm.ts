/**
 * Generation through any OpenAI-compatible chat-completions endpoint (OpenAI, Ollama, vLLM,
 * llama.cpp …) with the official client library. Provider failures become LlmUnavailableError,
 * which the API answers with 502 and nothing stored.
 */
import OpenAI from 'openai'
import type { ChatPromptMessage } from './prompt.ts'

export type LlmConfig = { baseUrl: string; apiKey: string; model: string; timeoutMs: number }

export type Llm = { model: string; complete(messages: ChatPromptMessage[]): Promise<string> }

export class LlmUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'LlmUnavailableError'
  }
}

export function createLlm(config: LlmConfig): Llm {
  const client = new OpenAI({
    baseURL: config.baseUrl,
    // Local servers (Ollama, llama.cpp) take any key; the client library insists on one.
    apiKey: config.apiKey || 'not-needed',
    timeout: config.timeoutMs,
    maxRetries: 1,
  })
  return {
    model: config.model,
    async complete(messages) {
      let completion: OpenAI.Chat.Completions.ChatCompletion
      try {
        completion = await client.chat.completions.create({ model: config.model, messages, temperature: 0.2 })
      } catch (cause) {
        throw new LlmUnavailableError(explain(cause), { cause })
      }
      const text = completion.choices[0]?.message?.content?.trim()
      if (!text)
        throw new LlmUnavailableError('The language model returned an empty answer. Please try again.')
      return text
    },
  }
}

function explain(error: unknown): string {
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
