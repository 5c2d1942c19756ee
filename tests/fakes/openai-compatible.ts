/**
 * A stand-in for an OpenAI-compatible chat-completions and embeddings endpoint on 127.0.0.1 (we
 * cannot reach a paid model from tests); /embeddings answers deterministic vectors (fakeEmbedding). It records every request and answers what the test scripts: whole, or
 * streamed (`stream: true`) word by word after a first-token delay, ending as finished or as cut
 * at its token limit; or it hangs, before any token or after some. A kind of request (known by
 * words in its messages) may be scripted apart from the rest. It counts the calls whose
 * client went away before the end (aborted calls). It can refuse `max_tokens` as OpenAI's
 * reasoning models do.
 */
import { once } from 'node:events'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export type RecordedCompletion = {
  authorization: string | undefined
  body: {
    model: string
    stream?: boolean
    messages: { role: string; content: string }[]
    max_tokens?: number
    max_completion_tokens?: number
    temperature?: number
  }
}

export type Reply =
  /**
   * Streamed: the first word after `firstTokenDelayMs`, then one word per `tokenDelayMs`.
   * `finish` 'length': the model stopped at its token limit (default 'stop').
   */
  | {
      kind: 'text'
      text: string
      firstTokenDelayMs?: number
      tokenDelayMs?: number
      finish?: 'stop' | 'length'
    }
  | { kind: 'status'; status: number; body?: unknown }
  | { kind: 'hang' }
  /** Streams `text`, then sends nothing more and never ends (a stream only). */
  | { kind: 'stall'; text: string }

/** Dimensions of the fake embeddings. */
export const FAKE_EMBEDDING_DIMENSIONS = 256
/** Words the fake model ignores, as a real one gives them little weight. */
const FAKE_STOPWORDS = new Set([
  'the',
  'and',
  'for',
  'from',
  'when',
  'what',
  'with',
  'until',
  'each',
  'every',
  'are',
  'his',
  'her',
])
/** Words the fake embedding model treats as one meaning, as a real model would place them close. */
const FAKE_SYNONYMS: Record<string, string> = {
  automobile: 'car',
  vehicle: 'car',
  cars: 'car',
  physician: 'doctor',
  doctors: 'doctor',
  salary: 'pay',
  wage: 'pay',
  wages: 'pay',
}

/**
 * A deterministic "embedding": each word (lowercased, synonyms folded, stopwords skipped) adds 1 to a dimension
 * picked by its hash; the vector is normalised. Texts sharing words or synonyms are close.
 */
export function fakeEmbedding(text: string): number[] {
  const v = new Array<number>(FAKE_EMBEDDING_DIMENSIONS).fill(0)
  for (const raw of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    if (raw.length < 3 || FAKE_STOPWORDS.has(raw)) continue
    const word = FAKE_SYNONYMS[raw] ?? raw
    let h = 2166136261
    for (const ch of word) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0
    v[h % FAKE_EMBEDDING_DIMENSIONS] = (v[h % FAKE_EMBEDDING_DIMENSIONS] ?? 0) + 1
  }
  const norm = Math.hypot(...v) || 1
  return v.map((x) => x / norm)
}

export type RecordedEmbedding = { model: string; input: string[] }

export type FakeLlm = {
  baseUrl: string
  requests: RecordedCompletion[]
  embeddingRequests: RecordedEmbedding[]
  /** The next `n` /embeddings calls answer 503 (busy). */
  failEmbeddings: (n: number) => void
  /** Calls whose client closed the connection before the answer ended. */
  aborted: () => number
  reply: (next: Reply) => void
  /**
   * Requests with a message containing `contains` get `reply` (every time, until set to null)
   * instead of the next reply: a second kind of call (the citation judge) scripted on its own.
   */
  replyTo: (contains: string, reply: Reply | null) => void
  /** While on, a call naming `max_tokens` is refused (400) as OpenAI's reasoning models do. */
  refuseMaxTokens: (on: boolean) => void
  close: () => Promise<void>
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

function chunk(content: string | null, finish: string | null = null): string {
  const delta = content === null ? {} : { content }
  const body = {
    id: 'chatcmpl-fake',
    object: 'chat.completion.chunk',
    created: Math.floor(Date.now() / 1000),
    model: 'fake-model',
    choices: [{ index: 0, delta, finish_reason: finish }],
  }
  return `data: ${JSON.stringify(body)}\n\n`
}

/** Words with their following spaces, so the pieces join back to the text exactly. */
export function words(text: string): string[] {
  return text.match(/\s*\S+\s*/g) ?? (text.length > 0 ? [text] : [])
}

async function stream(res: ServerResponse, reply: Extract<Reply, { kind: 'text' | 'stall' }>) {
  res.writeHead(200, { 'content-type': 'text/event-stream' })
  res.flushHeaders()
  const pieces = words(reply.text)
  const first = reply.kind === 'text' ? (reply.firstTokenDelayMs ?? 0) : 0
  const between = reply.kind === 'text' ? (reply.tokenDelayMs ?? 0) : 0
  if (first > 0) await sleep(first)
  for (const [i, piece] of pieces.entries()) {
    if (i > 0 && between > 0) await sleep(between)
    if (res.destroyed) return
    res.write(chunk(piece))
  }
  if (reply.kind === 'stall') return
  res.write(chunk(null, reply.finish ?? 'stop'))
  res.end('data: [DONE]\n\n')
}

export async function startFakeLlm(options: { port?: number; host?: string } = {}): Promise<FakeLlm> {
  const requests: RecordedCompletion[] = []
  const embeddingRequests: RecordedEmbedding[] = []
  let embeddingFailures = 0
  let nextReply: Reply = { kind: 'text', text: 'A reply from the fake model.' }
  const hanging: ServerResponse[] = []
  let aborted = 0
  let refusingMaxTokens = false
  const replies = new Map<string, Reply>()

  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = []
    for await (const c of req) chunks.push(c as Buffer)
    // e2e runs script the fake from the browser test: the next reply, as JSON.
    if (req.method === 'POST' && req.url === '/__fake/reply') {
      nextReply = JSON.parse(Buffer.concat(chunks).toString()) as Reply
      res.writeHead(204).end()
      return
    }
    if (req.method === 'GET' && req.url === '/__fake/health') {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}')
      return
    }
    if (req.method === 'POST' && req.url?.endsWith('/embeddings')) {
      const body = JSON.parse(Buffer.concat(chunks).toString()) as { model: string; input: string | string[] }
      const input = Array.isArray(body.input) ? body.input : [body.input]
      embeddingRequests.push({ model: body.model, input })
      if (embeddingFailures > 0) {
        embeddingFailures--
        res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":{"message":"busy"}}')
        return
      }
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(
        JSON.stringify({
          object: 'list',
          model: body.model,
          data: input.map((text, index) => ({ object: 'embedding', index, embedding: fakeEmbedding(text) })),
          usage: { prompt_tokens: 1, total_tokens: 1 },
        }),
      )
      return
    }
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}')
      return
    }
    const body = JSON.parse(Buffer.concat(chunks).toString()) as RecordedCompletion['body']
    requests.push({ authorization: req.headers.authorization, body })
    res.on('close', () => {
      if (!res.writableFinished) aborted += 1
    })
    if (refusingMaxTokens && body.max_tokens !== undefined) {
      res.writeHead(400, { 'content-type': 'application/json' })
      res.end(
        JSON.stringify({
          error: {
            message:
              "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
            type: 'invalid_request_error',
            param: 'max_tokens',
            code: 'unsupported_parameter',
          },
        }),
      )
      return
    }
    const scripted = [...replies].find(([contains]) =>
      body.messages.some((m) => m.content.includes(contains)),
    )
    const next = scripted?.[1] ?? nextReply
    if (next.kind === 'hang') {
      hanging.push(res)
      return
    }
    if (next.kind === 'status') {
      res.writeHead(next.status, { 'content-type': 'application/json' })
      res.end(JSON.stringify(next.body ?? { error: { message: 'fake failure', type: 'server_error' } }))
      return
    }
    if (body.stream && (next.kind === 'text' || next.kind === 'stall')) {
      const reply = next
      if (reply.kind === 'stall') hanging.push(res)
      await stream(res, reply)
      return
    }
    const text = next.text
    const finish = next.kind === 'text' ? (next.finish ?? 'stop') : 'stop'
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(
      JSON.stringify({
        id: 'chatcmpl-fake',
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: 'fake-model',
        choices: [{ index: 0, finish_reason: finish, message: { role: 'assistant', content: text } }],
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
      }),
    )
  })
  const host = options.host ?? '127.0.0.1'
  server.listen(options.port ?? 0, host)
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  return {
    baseUrl: `http://${host}:${port}/v1`,
    requests,
    embeddingRequests,
    failEmbeddings: (n) => {
      embeddingFailures = n
    },
    aborted: () => aborted,
    reply: (r) => {
      nextReply = r
    },
    replyTo: (contains, r) => {
      if (r) replies.set(contains, r)
      else replies.delete(contains)
    },
    refuseMaxTokens: (on) => {
      refusingMaxTokens = on
    },
    close: async () => {
      for (const res of hanging) res.destroy()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
