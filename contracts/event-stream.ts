/**
 * Reads a `text/event-stream` body as it arrives (the chat's streamed answers, and a visitor's,
 * issue 37): blocks separated by a blank line, each with an `event:` name and `data:` lines,
 * parsed against the stream's event schema (the chat's StreamEventSchema unless another is given).
 * Shared by the browser client and the tests, so both read the stream one way.
 */
import type { z } from 'zod'
import { type StreamEvent, StreamEventSchema } from './chat.ts'

export type EventStreamParser = {
  /** Feeds the next piece of the body; calls `onEvent` for every event it completes. */
  push(text: string): void
}

export function createEventStreamParser<T = StreamEvent>(
  onEvent: (event: T) => void,
  schema: z.ZodType<T> = StreamEventSchema as unknown as z.ZodType<T>,
): EventStreamParser {
  let buffer = ''
  return {
    push(text) {
      buffer += text.replace(/\r\n?/g, '\n')
      let end = buffer.indexOf('\n\n')
      while (end !== -1) {
        const block = buffer.slice(0, end)
        buffer = buffer.slice(end + 2)
        const event = parseBlock(block, schema)
        if (event) onEvent(event)
        end = buffer.indexOf('\n\n')
      }
    },
  }
}

/** Every event of a whole body, in order. */
export function parseEventStream(body: string): StreamEvent[] {
  const events: StreamEvent[] = []
  createEventStreamParser((e) => events.push(e)).push(body.endsWith('\n\n') ? body : `${body}\n\n`)
  return events
}

function parseBlock<T>(block: string, schema: z.ZodType<T>): T | null {
  let name = 'message'
  const data: string[] = []
  for (const line of block.split('\n')) {
    if (line.startsWith('event:')) name = line.slice(6).trim()
    else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''))
  }
  if (data.length === 0) return null
  const parsed = schema.safeParse({ event: name, data: JSON.parse(data.join('\n')) })
  return parsed.success ? parsed.data : null
}
