/**
 * A streamed answer that is quiet for a while (a model thinking before its first token) sends
 * SSE comments, so proxies and our own idle-socket limit do not close it; parsers skip them.
 */
import { afterAll, beforeAll, expect, test } from 'vitest'
import { chatEndpoints } from '#contracts/chat.ts'
import { parseEventStream } from '#contracts/event-stream.ts'
import type { App } from '#server/app.ts'
import { type FakeLlm, startFakeLlm } from '#tests/fakes/openai-compatible.ts'
import { call, createConversation } from '../support/chat-helpers.ts'
import { buildTestApp, signUpAndSignIn } from '../support/helper.ts'

let llm: FakeLlm
let app: App

beforeAll(async () => {
  llm = await startFakeLlm()
  app = await buildTestApp({
    env: { LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'test-model', LLM_TIMEOUT_MS: '5000' },
    streamHeartbeatMs: 40,
  })
})
afterAll(async () => {
  await app?.close()
  await llm?.close()
})

test('a quiet stream sends keep-alive comments before the first token, and the events are unchanged', async () => {
  const cookie = await signUpAndSignIn(app)
  const conversation = await createConversation(app, cookie, 'Slow thinker')
  llm.reply({ kind: 'text', text: 'Here it is.', firstTokenDelayMs: 400 })

  const response = await call(app, chatEndpoints.streamMessage, {
    cookie,
    params: { id: conversation._id },
    body: { content: 'Think hard', isUser: true, messageType: 'text' },
  })

  expect(response.statusCode).toBe(200)
  const beforeFirstToken = response.body.slice(0, response.body.indexOf('event: token'))
  expect(beforeFirstToken).toContain(': keep-alive\n\n')
  const events = parseEventStream(response.body)
  expect(events.map((e) => e.event).at(-1)).toBe('done')
  expect(
    events
      .filter((e) => e.event === 'token')
      .map((e) => (e.data as { text: string }).text)
      .join(''),
  ).toBe('Here it is.')
})
