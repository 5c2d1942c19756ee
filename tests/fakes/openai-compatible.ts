/**
 * A stand-in for an OpenAI-compatible chat-completions endpoint on 127.0.0.1 (we cannot reach a
 * paid model from tests). It records every request and answers what the test scripts.
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

export type FakeLlm = {
  baseUrl: string
  requests: RecordedCompletion[]
  reply: (next: Reply) => void
  close: () => Promise<void>
}

export async function startFakeLlm(): Promise<FakeLlm> {
  const requests: RecordedCompletion[] = []
  let next: Reply = { kind: 'text', text: 'A reply from the fake model.' }
  const hanging: ServerResponse[] = []

  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = []
    for await (const c of req) chunks.push(c as Buffer)
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
