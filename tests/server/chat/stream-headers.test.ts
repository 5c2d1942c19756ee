/**
 * A streamed answer's headers leave as soon as the stream opens, before the model has written
 * anything (D143): the browser sets up its reader while the model thinks, not after the first
 * token, and the Server-Timing stages are there to read.
 */
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, expect, test, vi } from 'vitest'
import { chatEndpoints } from '#contracts/chat.ts'
import { fillPath } from '#contracts/endpoint.ts'
import type { App } from '#server/app.ts'
import { type FakeLlm, startFakeLlm } from '#tests/fakes/openai-compatible.ts'
import { createConversation, modelEnv } from '../support/chat-helpers.ts'
import { buildTestApp, signUpAndSignIn } from '../support/helper.ts'

let llm: FakeLlm
let app: App
let base: string

beforeAll(async () => {
  llm = await startFakeLlm()
  // The default heartbeat (15 s): no keep-alive comment sends the headers within the test.
  app = await buildTestApp({ env: modelEnv(llm, { LLM_TIMEOUT_MS: '20000' }) })
  await app.listen({ port: 0, host: '127.0.0.1' })
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
})
afterAll(async () => {
  await app?.close()
  await llm?.close()
})

test('the headers of a streamed answer arrive while the model has not written a word', async () => {
  const cookie = await signUpAndSignIn(app)
  const conversation = await createConversation(app, cookie, 'Thinking')
  llm.reply({ kind: 'hang' })
  const aborted = llm.aborted()
  const stop = new AbortController()
  const path = fillPath(chatEndpoints.streamMessage.path, { id: conversation._id })

  const response = await Promise.race([
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ content: 'What is the meal allowance?', isUser: true, messageType: 'text' }),
      signal: stop.signal,
    }),
    new Promise<null>((resolve) => setTimeout(() => resolve(null), 5000)),
  ])

  expect(response?.status).toBe(200)
  expect(response?.headers.get('content-type')).toContain('text/event-stream')
  expect(response?.headers.get('server-timing')).toMatch(/\bopen;dur=/)
  stop.abort()
  // Stopped before the first word: the model's call ends too.
  await vi.waitUntil(() => llm.aborted() === aborted + 1, { timeout: 5000, interval: 20 })
})
