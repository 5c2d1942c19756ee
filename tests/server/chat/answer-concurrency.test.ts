/**
 * One person's answers being written at once are bounded (LLM_CONCURRENCY_PER_USER, D84): one
 * more, in any other conversation, on send, stream or regenerate, is refused with 429, a sentence
 * and Retry-After, before any model call; the place frees as soon as an answer ends; other
 * people are not counted. On PostgreSQL the ceiling holds across two app instances.
 */
import { afterAll, beforeAll, expect, test, vi } from 'vitest'
import { chatEndpoints } from '#contracts/chat.ts'
import { parseEventStream } from '#contracts/event-stream.ts'
import type { App } from '#server/app.ts'
import { ANSWER_RETRY_AFTER_SECONDS, tooManyAnswers } from '#server/chat/chat-errors.ts'
import { type FakeLlm, startFakeLlm } from '#tests/fakes/openai-compatible.ts'
import {
  call,
  countMessages,
  createConversation,
  errorOf,
  modelEnv,
  send,
  sendOk,
} from '../support/chat-helpers.ts'
import { buildTestApp, register, signIn, signUpAndSignIn, uniqueEmail } from '../support/helper.ts'
import { POSTGRES_SKIP_NOTE, TEST_DATABASE_URL } from '../support/postgres-test-db.ts'

let llm: FakeLlm
let app: App

const body = (content: string) => ({ content, isUser: true, messageType: 'text' })
const until = (check: () => boolean) => vi.waitUntil(check, { timeout: 5000, interval: 10 })

function stream(target: App, cookie: string, conversationId: string, content: string) {
  return call(target, chatEndpoints.streamMessage, {
    cookie,
    params: { id: conversationId },
    body: body(content),
  })
}

beforeAll(async () => {
  llm = await startFakeLlm()
  app = await buildTestApp({
    env: modelEnv(llm, { LLM_TIMEOUT_MS: '1500', LLM_CONCURRENCY_PER_USER: '2' }),
  })
})
afterAll(async () => {
  await app?.close()
  await llm?.close()
})

test('a third answer at once is refused with 429, a sentence and Retry-After, and never reaches the model', async () => {
  const cookie = await signUpAndSignIn(app)
  const [a, b, c] = await Promise.all(
    ['One', 'Two', 'Three'].map((title) => createConversation(app, cookie, title)),
  )
  const asked = llm.requests.length
  llm.reply({ kind: 'hang' })
  const first = stream(app, cookie, a?._id ?? '', 'Which class do employees fly in?')
  const second = send(app, cookie, b?._id ?? '', 'What is the meal allowance abroad?')
  await until(() => llm.requests.length === asked + 2)

  const third = await stream(app, cookie, c?._id ?? '', 'Where is the travel policy?')
  const fourth = await send(app, cookie, c?._id ?? '', 'Where is the travel policy?')

  for (const refused of [third, fourth]) {
    expect(refused.statusCode).toBe(429)
    expect(refused.headers['retry-after']).toBe(String(ANSWER_RETRY_AFTER_SECONDS))
    expect(refused.headers['content-type']).toMatch(/^application\/json/)
    expect(errorOf(refused)).toBe(tooManyAnswers(2))
  }
  expect(tooManyAnswers(2)).toBe(
    'You already have 2 answers being written. Wait for one to finish (or stop it), then send again.',
  )
  expect(llm.requests.length).toBe(asked + 2)
  expect(await countMessages(app, c?._id)).toBe(0)

  // The two answers end (the hung model times out): their places are free at once.
  expect(parseEventStream((await first).body).at(-1)?.event).toBe('error')
  expect((await second).statusCode).toBe(502)
  llm.reply({ kind: 'text', text: 'Economy class.' })
  const { aiMessage } = await sendOk(app, cookie, c?._id ?? '', 'Where is the travel policy?')
  expect(aiMessage.content).toBe('Economy class.')
})

test('regenerate counts too, and another person is never refused for my answers', async () => {
  const cookie = await signUpAndSignIn(app)
  const [a, b, c] = await Promise.all(
    ['One', 'Two', 'Three'].map((title) => createConversation(app, cookie, title)),
  )
  llm.reply({ kind: 'text', text: 'First answer.' })
  const answered = await sendOk(app, cookie, c?._id ?? '', 'Which class do employees fly in?')
  const asked = llm.requests.length
  llm.reply({ kind: 'hang' })
  const busy = [
    stream(app, cookie, a?._id ?? '', 'Which class do employees fly in?'),
    stream(app, cookie, b?._id ?? '', 'Which class do employees fly in?'),
  ]
  await until(() => llm.requests.length === asked + 2)

  const regenerated = await call(app, chatEndpoints.regenerateMessage, {
    cookie,
    params: { id: c?._id ?? '', messageId: answered.aiMessage._id },
  })
  expect(regenerated.statusCode).toBe(429)
  expect(errorOf(regenerated)).toBe(tooManyAnswers(2))

  const stranger = await signUpAndSignIn(app)
  const theirs = await createConversation(app, stranger, 'Mine')
  const strangers = send(app, stranger, theirs._id, 'Which class do employees fly in?')
  await until(() => llm.requests.length === asked + 3)
  expect((await strangers).statusCode).toBe(502)
  await Promise.all(busy)
})

test('one place: the sentence says "an answer"', () => {
  expect(tooManyAnswers(1)).toBe(
    'You already have an answer being written. Wait for one to finish (or stop it), then send again.',
  )
})

test.skipIf(!TEST_DATABASE_URL)(
  `on PostgreSQL: two app instances on one database share one person's ceiling${POSTGRES_SKIP_NOTE}`,
  async () => {
    const model = await startFakeLlm()
    const env = modelEnv(model, {
      DATABASE_URL: TEST_DATABASE_URL ?? '',
      LLM_TIMEOUT_MS: '1500',
      LLM_CONCURRENCY_PER_USER: '1',
    })
    const one = await buildTestApp({ env })
    const two = await buildTestApp({ env })
    try {
      const email = uniqueEmail('pg-ceiling')
      await register(one, email)
      const { cookie } = await signIn(one, email)
      const a = await createConversation(one, cookie, 'On one')
      const b = await createConversation(one, cookie, 'On two')
      model.reply({ kind: 'hang' })
      const first = send(one, cookie, a._id, 'Which class do employees fly in?')
      await until(() => model.requests.length === 1)

      // The other instance never saw the first send: only the database knows of it.
      const second = await send(two, cookie, b._id, 'Which class do employees fly in?')
      expect(second.statusCode).toBe(429)
      expect(errorOf(second)).toBe(tooManyAnswers(1))
      expect(model.requests.length).toBe(1)
      expect((await first).statusCode).toBe(502)

      // Many at once on both instances: exactly one gets the place.
      const conversations = await Promise.all(
        Array.from({ length: 6 }, (_, i) => createConversation(one, cookie, `Race ${i}`)),
      )
      const raced = await Promise.all(
        conversations.map((c, i) => send(i % 2 === 0 ? one : two, cookie, c._id, 'Which class do I fly in?')),
      )
      expect(raced.filter((r) => r.statusCode === 429)).toHaveLength(5)
    } finally {
      await one.close()
      await two.close()
      await model.close()
    }
  },
)
