/**
 * A stand-in for an OpenAI-compatible chat-completions and embeddings endpoint on 127.0.0.1 (we
 * cannot reach a paid model from tests). It records every request and answers what the test
 * scripts; /embeddings answers deterministic vectors (fakeEmbedding).
 */
import { once } from 'node:events'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export type RecordedCompletion = {
  authorization: string | undefined
  body: { model: string; messages: { role: string; content: string }[] }
}

export type Reply =
  | { kind: 'text'; text: string }
  | { kind: 'status'; status: number; body?: unknown }
  | { kind: 'hang' }

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
  /** The next `n` /embeddings calls answer 503 (the client retries). */
  failEmbeddings: (n: number) => void
  reply: (next: Reply) => void
  close: () => Promise<void>
}

export async function startFakeLlm(): Promise<FakeLlm> {
  const requests: RecordedCompletion[] = []
  const embeddingRequests: RecordedEmbedding[] = []
  let embeddingFailures = 0
  let next: Reply = { kind: 'text', text: 'A reply from the fake model.' }
  const hanging: ServerResponse[] = []

  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = []
    for await (const c of req) chunks.push(c as Buffer)
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
    requests.push({
      authorization: req.headers.authorization,
      body: JSON.parse(Buffer.concat(chunks).toString()),
    })
    if (next.kind === 'hang') {
      hanging.push(res)
      return
    }
    if (next.kind === 'status') {
      res.writeHead(next.status, { 'content-type': 'application/json' })
      res.end(JSON.stringify(next.body ?? { error: { message: 'fake failure', type: 'server_error' } }))
      return
    }
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(
      JSON.stringify({
        id: 'chatcmpl-fake',
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: 'fake-model',
        choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: next.text } }],
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
      }),
    )
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    embeddingRequests,
    failEmbeddings: (n) => {
      embeddingFailures = n
    },
    reply: (r) => {
      next = r
    },
    close: async () => {
      for (const res of hanging) res.destroy()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
