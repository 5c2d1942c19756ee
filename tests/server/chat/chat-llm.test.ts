/**
 * Sending with a language model configured (LLM_BASE_URL pointing at a fake OpenAI-compatible
 * endpoint on 127.0.0.1): what the model is told, and that a failing, slow or overtaken model
 * call stores nothing.
 */
import { once } from 'node:events'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { chatEndpoints } from '#contracts/chat.ts'
import { SYSTEM_PROMPT } from '#server/answering/prompt.ts'
import type { App } from '#server/app.ts'
import { type FakeLlm, startFakeLlm } from '#tests/fakes/openai-compatible.ts'
import {
  call,
  conversationExists,
  countMessages,
  createConversation,
  errorOf,
  indexTravelPolicy,
  listConversations,
  listMessages,
  send,
  sendOk,
} from '../support/chat-helpers.ts'
import { buildTestApp, register, signIn, signUpAndSignIn, uniqueEmail } from '../support/helper.ts'

const LLM_TIMEOUT_MS = 300

let llm: FakeLlm
let app: App
let cookie: string
let userId: string

beforeAll(async () => {
  llm = await startFakeLlm()
  app = await buildTestApp({
    env: {
      LLM_BASE_URL: llm.baseUrl,
      LLM_API_KEY: 'sk-test',
      LLM_MODEL: 'test-model',
      LLM_TIMEOUT_MS: String(LLM_TIMEOUT_MS),
    },
  })
  const email = uniqueEmail()
  userId = (await register(app, email))._id
  cookie = (await signIn(app, email)).cookie
  await indexTravelPolicy(app, userId)
})
afterAll(async () => {
  await app?.close()
  await llm?.close()
})

test("the model is asked with the numbered passages and this conversation's previous turns only", async () => {
  const mine = await createConversation(app, cookie, 'Mine')
  const other = await createConversation(app, cookie, 'Other')
  llm.reply({ kind: 'text', text: 'First reply.' })
  await sendOk(app, cookie, mine._id, 'Hi, I have travel questions.')
  llm.reply({ kind: 'text', text: 'Unrelated reply.' })
  await sendOk(app, cookie, other._id, 'Something about another conversation entirely')
  llm.reply({ kind: 'text', text: 'Economy class [1].' })
  await sendOk(app, cookie, mine._id, 'Which class do I fly in?')

  llm.reply({ kind: 'text', text: 'It is 45 euros a day [1].' })
  const { aiMessage } = await sendOk(app, cookie, mine._id, 'What is the meal allowance abroad?')

  const sent = llm.requests.at(-1)
  expect(sent?.authorization).toBe('Bearer sk-test')
  expect(sent?.body.model).toBe('test-model')
  const [system, ...turns] = sent?.body.messages ?? []
  expect(system?.role).toBe('system')
  expect(system?.content.startsWith(SYSTEM_PROMPT)).toBe(true)
  expect(system?.content).toContain(
    '[1] Travel policy.pdf, p. 2\nThe daily meal allowance abroad is 45 euros per person.',
  )
  expect(turns).toEqual([
    { role: 'user', content: 'Hi, I have travel questions.' },
    { role: 'assistant', content: 'First reply.' },
    { role: 'user', content: 'Which class do I fly in?' },
    { role: 'assistant', content: 'Economy class [1].' },
    { role: 'user', content: 'What is the meal allowance abroad?' },
  ])
  expect(JSON.stringify(sent?.body)).not.toContain('another conversation')

  expect(aiMessage.content).toBe('It is 45 euros a day [1].')
  expect(aiMessage.sources).toEqual([
    {
      documentId: expect.any(String),
      documentName: 'Travel policy.pdf',
      chunkId: expect.any(String),
      page: 2,
      link: 'https://drive.example.com/travel',
      citation: 1,
      heading: null,
      quote: 'The daily meal allowance abroad is 45 euros per person.',
      mode: 'ranked',
    },
  ])
})

test("the model never sees another user's documents", async () => {
  const stranger = await signUpAndSignIn(app)
  const conversation = await createConversation(app, stranger)
  llm.reply({ kind: 'text', text: 'I do not know.' })
  const { aiMessage } = await sendOk(app, stranger, conversation._id, 'What is the meal allowance abroad?')
  const system = llm.requests.at(-1)?.body.messages[0]?.content ?? ''
  expect(system).not.toContain('45 euros')
  expect(system).toContain('No passages of the user’s documents matched this question.')
  expect(aiMessage.sources).toEqual([])
})

test.each([
  [
    'answers 500',
    { kind: 'status', status: 500 } as const,
    'The language model answered with an error (500)',
  ],
  ['answers 429', { kind: 'status', status: 429 } as const, 'The language model is busy (rate limited)'],
  ['hangs past LLM_TIMEOUT_MS', { kind: 'hang' } as const, 'The language model did not answer in time'],
  ['answers nothing', { kind: 'text', text: '   ' } as const, 'The language model returned an empty answer'],
])('when the model %s the send answers 502 with a sentence and stores nothing', async (_, reply, message) => {
  const conversation = await createConversation(app, cookie, 'Unlucky')
  const listed = (await listConversations(app, cookie)).find((s) => s._id === conversation._id)
  const before = await countMessages(app)
  llm.reply(reply)
  const response = await send(app, cookie, conversation._id, 'Will this be answered?')
  llm.reply({ kind: 'text', text: 'ok' })
  expect(response.statusCode).toBe(502)
  expect(errorOf(response)).toContain(message)
  expect(await countMessages(app)).toBe(before)
  expect(await listMessages(app, cookie, conversation._id)).toEqual([])
  expect((await listConversations(app, cookie)).find((s) => s._id === conversation._id)).toEqual(listed)
})

/** An OpenAI-compatible endpoint that holds its answer until the test releases it. */
async function startGatedLlm() {
  let release = () => {}
  const gate = new Promise<void>((resolve) => {
    release = resolve
  })
  let arrived = () => {}
  const received = new Promise<void>((resolve) => {
    arrived = resolve
  })
  const server = createServer(async (req, res) => {
    for await (const _ of req) {
      // drain the body
    }
    arrived()
    await gate
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(
      JSON.stringify({
        id: 'chatcmpl-gated',
        object: 'chat.completion',
        created: 0,
        model: 'test-model',
        choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'Too late.' } }],
      }),
    )
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    received,
    release,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

test('a conversation deleted while the model is thinking answers 404 and nothing is stored', async () => {
  const gated = await startGatedLlm()
  const slow = await buildTestApp({ env: { LLM_BASE_URL: gated.baseUrl, LLM_MODEL: 'test-model' } })
  try {
    const me = await signUpAndSignIn(slow)
    const conversation = await createConversation(slow, me, 'Short-lived')
    const sending = send(slow, me, conversation._id, 'Are you there?')
    await gated.received
    const deleted = await call(slow, chatEndpoints.deleteConversation, {
      cookie: me,
      params: { id: conversation._id },
    })
    expect(deleted.statusCode).toBe(200)
    gated.release()

    const response = await sending
    expect(response.statusCode).toBe(404)
    expect(errorOf(response)).toBe('Conversation not found')
    expect(await conversationExists(slow, conversation._id)).toBe(false)
    expect(await countMessages(slow)).toBe(0)
  } finally {
    gated.release()
    await slow.close()
    await gated.close()
  }
})
