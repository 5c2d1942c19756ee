/**
 * The app's own answers and usage (issue 38, D126): every answer the chat makes (send, stream,
 * regenerate) records its tokens under 'app', model-reported when the model reports usage, else
 * estimated, with a follow-up's rewrite (D134); GET /usage reads them back per day and for the month; and a person whose answers
 * spent USAGE_TOKENS_PER_DAY today (every source together) is refused until the next UTC day.
 */
import { afterAll, beforeAll, expect, test } from 'vitest'
import { chatEndpoints, type StreamEvent } from '#contracts/chat.ts'
import { parseEventStream } from '#contracts/event-stream.ts'
import { type UsageReport, usageEndpoints } from '#contracts/usage.ts'
import { estimatedUsage } from '#server/answering/token-usage.ts'
import type { App } from '#server/app.ts'
import { DAILY_TOKENS_SPENT } from '#server/usage/usage-errors.ts'
import { type FakeLlm, startFakeLlm } from '#tests/fakes/openai-compatible.ts'
import {
  call,
  createConversation,
  errorOf,
  indexTravelPolicy,
  send,
  sendOk,
} from '../support/chat-helpers.ts'
import { buildTestApp, register, signIn, uniqueEmail } from '../support/helper.ts'

const DAY_MS = 24 * 60 * 60_000

let llm: FakeLlm
let app: App
/** The app's clock: the machine's time moved by the tests (it ticks, so messages keep their order). */
let offsetMs = 0
const appNow = () => new Date(Date.now() + offsetMs)
const setClock = (at: Date) => {
  offsetMs = at.getTime() - Date.now()
}
const TOKENS_PER_DAY = 5000

beforeAll(async () => {
  llm = await startFakeLlm()
  app = await buildTestApp({
    now: appNow,
    env: {
      LLM_BASE_URL: llm.baseUrl,
      LLM_MODEL: 'test-model',
      LLM_TIMEOUT_MS: '1500',
      USAGE_TOKENS_PER_DAY: String(TOKENS_PER_DAY),
    },
  })
}, 60_000)
afterAll(async () => {
  await app?.close()
  await llm?.close()
})

async function person() {
  const email = uniqueEmail('usage')
  const id = (await register(app, email))._id
  const { cookie } = await signIn(app, email)
  await indexTravelPolicy(app, id)
  return { id, email, cookie }
}

function usage(cookie: string | undefined, query = '') {
  return app.inject({
    method: 'GET',
    url: `${usageEndpoints.usage.path}${query}`,
    headers: cookie ? { cookie } : {},
  })
}

async function report(cookie: string, query = ''): Promise<UsageReport> {
  const response = await usage(cookie, query)
  expect(response.statusCode).toBe(200)
  return usageEndpoints.usage.response.parse(response.json()).data
}

function streamDone(body: string) {
  const last = parseEventStream(body).at(-1) as StreamEvent
  if (last?.event !== 'done') throw new Error(`the stream did not finish: ${body}`)
  return last.data
}

test('send, stream and regenerate each record one app answer with its tokens, and the usage call shows them today', async () => {
  offsetMs = 0
  const me = await person()
  const conversation = await createConversation(app, me.cookie, 'Usage')
  const params = { id: conversation._id }

  // The whole answer: the fake model reports 1 prompt and 1 completion token.
  llm.reply({ kind: 'text', text: 'Economy class [1].' })
  await sendOk(app, me.cookie, conversation._id, 'Which class do I fly in?')

  // Streamed: no usage reported, so estimated from what the model was sent and wrote.
  llm.reply({ kind: 'text', text: 'It is 45 euros a day [1].' })
  const streamed = await call(app, chatEndpoints.streamMessage, {
    cookie: me.cookie,
    params,
    body: { content: 'What is the meal allowance abroad?', isUser: true, messageType: 'text' },
  })
  const first = streamDone(streamed.body).aiMessage
  const streamedPrompt = llm.requests.at(-1)?.body.messages ?? []

  llm.reply({ kind: 'text', text: 'Forty-five euros a day abroad [1].' })
  const again = await call(app, chatEndpoints.regenerateMessage, {
    cookie: me.cookie,
    params: { id: conversation._id, messageId: first._id },
  })
  const second = streamDone(again.body).aiMessage
  const regeneratedPrompt = llm.requests.at(-1)?.body.messages ?? []

  const spent = (u: { promptTokens: number; completionTokens: number }) => u.promptTokens + u.completionTokens
  const expected =
    2 +
    spent(estimatedUsage(streamedPrompt, first.content)) +
    spent(estimatedUsage(regeneratedPrompt, second.content))
  const today = (await report(me.cookie)).days.at(-1)
  expect(today?.sources.app).toEqual({ answers: 3, tokens: expected })
  expect(today?.sources.api).toEqual({ answers: 0, tokens: 0 })
  expect(today?.sources.published).toEqual({ answers: 0, tokens: 0 })
})

test('a follow-up’s rewrite is counted in its answer’s tokens: model-reported when the model reports usage', async () => {
  offsetMs = 0
  const me = await person()
  const conversation = await createConversation(app, me.cookie, 'Follow-up')
  llm.reply({ kind: 'text', text: 'Economy class [1].' })
  await sendOk(app, me.cookie, conversation._id, 'Which class do I fly in?')
  const asked = llm.requests.length

  // "and abroad?" refers back: one short whole call rewrites it (the fake reports 1 + 1 tokens),
  // then the answer is streamed (estimated).
  const streamed = await call(app, chatEndpoints.streamMessage, {
    cookie: me.cookie,
    params: { id: conversation._id },
    body: { content: 'and abroad?', isUser: true, messageType: 'text' },
  })
  const answer = streamDone(streamed.body).aiMessage
  expect(llm.requests.length).toBe(asked + 2)
  expect(llm.requests.at(-2)?.body.stream).toBeFalsy()
  const prompt = llm.requests.at(-1)?.body.messages ?? []
  const estimate = estimatedUsage(prompt, answer.content)

  const today = (await report(me.cookie)).days.at(-1)
  expect(today?.sources.app).toEqual({
    answers: 2,
    tokens: 2 + 2 + estimate.promptTokens + estimate.completionTokens,
  })
})

test("past USAGE_TOKENS_PER_DAY, every source together, the app's answers are refused with 429 until the next UTC day", async () => {
  offsetMs = 0
  const me = await person()
  const conversation = await createConversation(app, me.cookie, 'Held')
  // What the person's published assistants spent today counts too.
  await app.usage.recordAnswer({
    ownerId: me.id,
    source: 'published',
    promptTokens: TOKENS_PER_DAY - 1,
    completionTokens: 1,
  })
  const asked = llm.requests.length

  const before = appNow().getTime()
  const refused = await send(app, me.cookie, conversation._id, 'Which class do I fly in?')
  const after = appNow().getTime()
  const midnight = Math.floor(before / DAY_MS) * DAY_MS + DAY_MS
  expect(refused.statusCode).toBe(429)
  expect(errorOf(refused)).toBe(DAILY_TOKENS_SPENT)
  const retryAfter = Number(refused.headers['retry-after'])
  expect(retryAfter).toBeLessThanOrEqual(Math.ceil((midnight - before) / 1000))
  expect(retryAfter).toBeGreaterThanOrEqual(Math.ceil((midnight - after) / 1000))
  const streamed = await call(app, chatEndpoints.streamMessage, {
    cookie: me.cookie,
    params: { id: conversation._id },
    body: { content: 'And the meals?', isUser: true, messageType: 'text' },
  })
  expect(streamed.statusCode).toBe(429)
  expect(errorOf(streamed)).toBe(DAILY_TOKENS_SPENT)
  expect(llm.requests.length).toBe(asked)

  setClock(new Date(midnight + 1000))
  const { cookie } = await signIn(app, me.email)
  llm.reply({ kind: 'text', text: 'Economy class [1].' })
  await sendOk(app, cookie, conversation._id, 'Which class do I fly in?')
})

test('the usage call: every day of the window with zeros, this month so far, and a sentence for a bad number of days', async () => {
  // The second day of the current month, so yesterday is this month and three days ago is not.
  const now = new Date()
  const day = (daysAgo: number) =>
    new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 2 - daysAgo, 12))
  setClock(day(0))
  const me = await person()
  const record = (daysAgo: number, source: 'app' | 'api', tokens: number) => {
    setClock(day(daysAgo))
    return app.usage.recordAnswer({ ownerId: me.id, source, promptTokens: tokens, completionTokens: 0 })
  }
  await record(3, 'app', 700)
  await record(1, 'api', 40)
  await record(0, 'app', 5)
  await record(0, 'app', 6)
  const today = day(0).toISOString()

  const { days, month } = await report(me.cookie)
  expect(days).toHaveLength(30)
  expect(days.at(-1)?.day).toBe(today.slice(0, 10))
  expect(days.at(-1)?.sources.app).toEqual({ answers: 2, tokens: 11 })
  expect(days.at(-2)?.sources.api).toEqual({ answers: 1, tokens: 40 })
  expect(days.at(-3)?.sources.app).toEqual({ answers: 0, tokens: 0 })
  expect(days.at(-4)?.sources.app).toEqual({ answers: 1, tokens: 700 })
  expect(month).toEqual({
    month: today.slice(0, 7),
    sources: {
      app: { answers: 2, tokens: 11 },
      api: { answers: 1, tokens: 40 },
      published: { answers: 0, tokens: 0 },
    },
    keys: [],
    assistants: [],
  })
  expect((await report(me.cookie, '?days=1')).days).toHaveLength(1)
  expect((await report(me.cookie, '?days=90')).days).toHaveLength(90)

  for (const bad of ['0', '91', '2.5', 'many']) {
    const response = await usage(me.cookie, `?days=${bad}`)
    expect(response.statusCode).toBe(400)
    expect(errorOf(response)).toBe('days must be a whole number from 1 to 90.')
  }
  expect((await usage(undefined)).statusCode).toBe(401)
})
