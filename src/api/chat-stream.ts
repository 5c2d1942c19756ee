/**
 * The streamed chat calls (send and regenerate): POST, then read `text/event-stream` as it comes,
 * handing each token to `onToken`; resolves with `done`'s data (what `send` returns) and rejects
 * with an ApiError for a refused call or an `error` event. Aborting `signal` stops the answer
 * (the server keeps what was written so far).
 */
import type { SendMessageResponse, Source, StreamEvent } from '#contracts/chat.ts'
import { type CallInput, type Endpoint, fillPath } from '#contracts/endpoint.ts'
import { createEventStreamParser } from '#contracts/event-stream.ts'
import { ApiError, apiErrorOf, type HttpOptions } from './client.ts'

export type StreamHandlers = {
  onToken: (text: string) => void
  onSources?: (sources: Source[]) => void
  signal?: AbortSignal
}

/** The calls that answer `text/event-stream`. */
export type StreamEndpoint = Endpoint & { kind: 'stream' }

export type StreamCall = <E extends StreamEndpoint>(
  endpoint: E,
  input: CallInput<E>,
  handlers: StreamHandlers,
) => Promise<SendMessageResponse>

export function createStreamCall({
  baseUrl = '',
  fetch: doFetch = globalThis.fetch.bind(globalThis),
}: HttpOptions = {}): StreamCall {
  return async (endpoint, typedInput, { onToken, onSources, signal }) => {
    const input = typedInput as { params?: Record<string, string>; body?: unknown }
    const hasBody = input.body !== undefined
    let response: Response
    try {
      response = await doFetch(`${baseUrl}${fillPath(endpoint.path, input.params)}`, {
        method: endpoint.method,
        credentials: 'include',
        headers: hasBody
          ? { 'content-type': 'application/json', accept: 'text/event-stream' }
          : { accept: 'text/event-stream' },
        body: hasBody ? JSON.stringify(input.body) : undefined,
        signal,
      })
    } catch (cause) {
      throw new ApiError(0, cause instanceof Error ? cause.message : 'Network error')
    }
    if (!response.ok || !response.body) {
      throw apiErrorOf(response, await response.json().catch(() => undefined))
    }
    let outcome: StreamEvent | null = null
    const parser = createEventStreamParser((event) => {
      if (event.event === 'token') onToken(event.data.text)
      else if (event.event === 'sources') onSources?.(event.data.sources)
      else outcome = event
    })
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader()
    try {
      for (;;) {
        const { done, value } = await reader.read()
        if (done) break
        parser.push(value)
      }
    } catch (cause) {
      throw new ApiError(0, cause instanceof Error ? cause.message : 'The answer was interrupted')
    }
    const end = outcome as StreamEvent | null
    if (end?.event === 'done') return end.data
    throw new ApiError(502, end?.event === 'error' ? end.data.message : 'The answer ended unexpectedly')
  }
}
