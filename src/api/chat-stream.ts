/**
 * The streamed chat calls (send and regenerate): each token goes to `onToken` as it comes;
 * resolves with `done`'s data (what `send` returns) and rejects with an ApiError for a refused
 * call or an `error` event. Aborting `signal` stops the answer (the server keeps what was written
 * so far). The reading itself is event-stream.ts's.
 */
import {
  type SendMessageResponse,
  type Source,
  type StreamEvent,
  StreamEventSchema,
} from '#contracts/chat.ts'
import type { CallInput } from '#contracts/endpoint.ts'
import { ApiError, type HttpOptions } from './client.ts'
import { readEventStream, type StreamEndpoint } from './event-stream.ts'

export type StreamHandlers = {
  onToken: (text: string) => void
  onSources?: (sources: Source[]) => void
  signal?: AbortSignal
}

export type StreamCall = <E extends StreamEndpoint>(
  endpoint: E,
  input: CallInput<E>,
  handlers: StreamHandlers,
) => Promise<SendMessageResponse>

export function createStreamCall(options: HttpOptions = {}): StreamCall {
  return async (endpoint, input, { onToken, onSources, signal }) => {
    let outcome: StreamEvent | null = null
    await readEventStream(
      endpoint,
      input,
      StreamEventSchema,
      (event) => {
        if (event.event === 'token') onToken(event.data.text)
        else if (event.event === 'sources') onSources?.(event.data.sources)
        else outcome = event
      },
      { ...options, signal },
    )
    const end = outcome as StreamEvent | null
    if (end?.event === 'done') return end.data
    throw new ApiError(502, end?.event === 'error' ? end.data.message : 'The answer ended unexpectedly')
  }
}
