/**
 * The one way the browser reads a streamed call (the chat's answers, a visitor's answers): POST,
 * then read `text/event-stream` as it comes, handing each event, checked against the stream's
 * schema, to `onEvent`. A refused call, an unreachable server or a cut stream rejects with an
 * ApiError; aborting `signal` stops the answer (the server keeps what was written so far).
 */
import type { z } from 'zod'
import { type CallInput, type Endpoint, fillPath } from '#contracts/endpoint.ts'
import { createEventStreamParser } from '#contracts/event-stream.ts'
import { ApiError, apiErrorOf, type HttpOptions } from './client.ts'

/** The calls that answer `text/event-stream`. */
export type StreamEndpoint = Endpoint & { kind: 'stream' }

export async function readEventStream<E extends StreamEndpoint, T>(
  endpoint: E,
  typedInput: CallInput<E>,
  schema: z.ZodType<T>,
  onEvent: (event: T) => void,
  {
    baseUrl = '',
    fetch: doFetch = globalThis.fetch.bind(globalThis),
    signal,
  }: HttpOptions & {
    signal?: AbortSignal
  } = {},
): Promise<void> {
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
  const parser = createEventStreamParser(onEvent, schema)
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
}
