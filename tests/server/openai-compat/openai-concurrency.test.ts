/**
 * API answers are held to LLM_CONCURRENCY_PER_USER with the app's (D134): the person's answers
 * being written at once, in the app and through /openai/v1 together, are bounded; one more
 * through the API is 429 `rate_limit_exceeded` in OpenAI's shape (the official SDK's
 * RateLimitError) with a sentence and Retry-After, one more in the app the app's 429; the place
 * frees as soon as an answer ends.
 */
import OpenAI from 'openai'
import { afterAll, beforeAll, expect, test, vi } from 'vitest'
import type { App } from '#server/app.ts'
import { tooManyAnswers } from '#server/chat/chat-errors.ts'
import { ANSWERS_AT_ONCE_RETRY_AFTER_SECONDS } from '#server/openai-compat/api-quotas.ts'
import { answersAtOnceMessage } from '#server/openai-compat/openai-service.ts'
import { type FakeLlm, startFakeLlm } from '#tests/fakes/openai-compatible.ts'
import { createConversation, errorOf, modelEnv, send } from '../support/chat-helpers.ts'
import { buildTestApp } from '../support/helper.ts'
import { addLibraryDocument } from '../support/library-helpers.ts'
import { listen, newKey, newPerson, openaiClient } from '../support/openai-helpers.ts'

let llm: FakeLlm
let app: App
let baseURL: string

const until = (check: () => boolean) => vi.waitUntil(check, { timeout: 10_000, interval: 10 })
const question = [{ role: 'user' as const, content: 'When does the office open?' }]

beforeAll(async () => {
  llm = await startFakeLlm()
  app = await buildTestApp({
    env: modelEnv(llm, { LLM_TIMEOUT_MS: '1500', LLM_CONCURRENCY_PER_USER: '2' }),
  })
  baseURL = await listen(app)
}, 120_000)
afterAll(async () => {
  await app?.close()
  await llm?.close()
})

test('an app answer and an API answer fill the person’s two places: a third, through either, is refused', async () => {
  const { userId, cookie } = await newPerson(app)
  await addLibraryDocument(app, userId, { name: 'Note.txt', text: 'The office opens at nine.' })
  const client = openaiClient(baseURL, await newKey(app, cookie))
  const [one, two] = await Promise.all(['One', 'Two'].map((t) => createConversation(app, cookie, t)))
  const asked = llm.requests.length
  llm.reply({ kind: 'hang' })
  const inApp = send(app, cookie, one?._id ?? '', 'When does the office open?')
  const viaApi = client.chat.completions
    .create({ model: 'library', messages: question })
    .catch((error: unknown) => error)
  await until(() => llm.requests.length === asked + 2)

  const refused = await client.chat.completions
    .create({ model: 'library', messages: question })
    .catch((error: unknown) => error)
  expect(refused).toBeInstanceOf(OpenAI.RateLimitError)
  const error = refused as InstanceType<typeof OpenAI.RateLimitError>
  expect(error.code).toBe('rate_limit_exceeded')
  expect(error.message).toContain(answersAtOnceMessage(2))
  expect(error.headers?.get('retry-after')).toBe(String(ANSWERS_AT_ONCE_RETRY_AFTER_SECONDS))
  const refusedInApp = await send(app, cookie, two?._id ?? '', 'When does the office open?')
  expect(refusedInApp.statusCode).toBe(429)
  expect(errorOf(refusedInApp)).toBe(tooManyAnswers(2))
  expect(llm.requests.length).toBe(asked + 2)

  // Both end (the hung model times out): the places are free at once.
  expect((await inApp).statusCode).toBe(502)
  await viaApi
  llm.reply({ kind: 'text', text: 'At nine.' })
  const answered = await client.chat.completions.create({ model: 'library', messages: question })
  expect(answered.choices[0]?.message.content).toBe('At nine.')
}, 60_000)

test('two API answers at once fill the places; the app is refused until one ends', async () => {
  const { userId, cookie } = await newPerson(app)
  await addLibraryDocument(app, userId, { name: 'Note.txt', text: 'The office opens at nine.' })
  const client = openaiClient(baseURL, await newKey(app, cookie))
  const conversation = await createConversation(app, cookie, 'Three')
  const asked = llm.requests.length
  llm.reply({ kind: 'hang' })
  const running = [1, 2].map(() =>
    client.chat.completions
      .create({ model: 'library', messages: question, stream: true })
      .then(async (chunks) => {
        for await (const _ of chunks) {
          // read to the end
        }
      })
      .catch((error: unknown) => error),
  )
  await until(() => llm.requests.length === asked + 2)
  const refused = await send(app, cookie, conversation._id, 'When does the office open?')
  expect(refused.statusCode).toBe(429)
  expect(errorOf(refused)).toBe(tooManyAnswers(2))
  await Promise.all(running)
  llm.reply({ kind: 'text', text: 'At nine.' })
  expect((await send(app, cookie, conversation._id, 'When does the office open?')).statusCode).toBe(200)
}, 60_000)
