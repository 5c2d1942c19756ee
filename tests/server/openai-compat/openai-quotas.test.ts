/**
 * The API's quotas at their edge (D130): a key's requests a minute under 50 parallel requests
 * answer exactly that many (the rest 429 with Retry-After), on one instance and, on PostgreSQL,
 * on two instances sharing the database; a key's tokens a day and the person's
 * USAGE_TOKENS_PER_DAY refuse once spent; answers at once (D134) are counted exactly between two counters.
 */
import { afterAll, beforeAll, expect, test } from 'vitest'
import { OPENAI_PATHS } from '#contracts/openai.ts'
import type { App } from '#server/app.ts'
import { createApiQuotas } from '#server/openai-compat/api-quotas.ts'
import { type FakeLlm, startFakeLlm } from '#tests/fakes/openai-compatible.ts'
import { createApiKeyOk } from '../support/api-key-helpers.ts'
import { modelEnv } from '../support/chat-helpers.ts'
import { buildTestApp } from '../support/helper.ts'
import { addLibraryDocument } from '../support/library-helpers.ts'
import { type KeyOptions, newKey, newPerson } from '../support/openai-helpers.ts'
import { createTestDatabase, POSTGRES_SKIP_NOTE, TEST_DATABASE_URL } from '../support/postgres-test-db.ts'

/** Ten seconds into a UTC minute of today's clock, so 50 requests never cross a minute. */
const START = Math.floor(Date.now() / 60_000) * 60_000 + 10_000
const clock = () => new Date(START)

let llm: FakeLlm
let app: App

beforeAll(async () => {
  llm = await startFakeLlm()
  app = await buildTestApp({
    // Many answers at once, so only the quota a test names refuses.
    env: modelEnv(llm, { USAGE_TOKENS_PER_DAY: '400', LLM_CONCURRENCY_PER_USER: '100' }),
    now: clock,
  })
}, 120_000)
afterAll(async () => {
  await app?.close()
  await llm?.close()
})

async function personWithKey(target: App, options: KeyOptions) {
  const { userId, cookie } = await newPerson(target)
  await addLibraryDocument(target, userId, { name: 'Note.txt', text: 'The office opens at nine.' })
  return { userId, cookie, key: await newKey(target, cookie, options) }
}

function ask(target: App, key: string, content = 'When does the office open?') {
  return target.inject({
    method: 'POST',
    url: OPENAI_PATHS.chatCompletions,
    headers: { authorization: `Bearer ${key}` },
    payload: { model: 'library', messages: [{ role: 'user', content }] },
  })
}

test('50 parallel requests at a key’s requests a minute answer exactly that many; the rest 429 until the minute ends', async () => {
  const { key } = await personWithKey(app, { requestsPerMinute: 7 })
  const responses = await Promise.all(Array.from({ length: 50 }, () => ask(app, key)))
  const statuses = responses.map((r) => r.statusCode)
  expect(statuses.filter((s) => s === 200)).toHaveLength(7)
  expect(statuses.filter((s) => s === 429)).toHaveLength(43)
  const refused = responses.find((r) => r.statusCode === 429)
  expect(refused?.json()).toMatchObject({ error: { code: 'rate_limit_exceeded', type: 'requests' } })
  expect(refused?.headers['retry-after']).toBe('50')
})

test('a key’s tokens a day refuse once spent, until UTC midnight', async () => {
  const { key } = await personWithKey(app, { tokensPerDay: 10 })
  llm.reply({ kind: 'text', text: 'It opens at nine in the morning, every working day.' })
  expect((await ask(app, key)).statusCode).toBe(200)
  const refused = await ask(app, key)
  expect(refused.statusCode).toBe(429)
  expect(refused.json()).toMatchObject({ error: { code: 'rate_limit_exceeded', type: 'tokens' } })
  const midnight = Math.floor(START / 86_400_000) * 86_400_000 + 86_400_000
  expect(Number(refused.headers['retry-after'])).toBe(Math.ceil((midnight - START) / 1000))
})

test('the person’s USAGE_TOKENS_PER_DAY refuses every key of theirs once spent', async () => {
  const { cookie, key } = await personWithKey(app, {})
  llm.reply({ kind: 'text', text: 'x'.repeat(2000) })
  expect((await ask(app, key)).statusCode).toBe(200)
  const other = await newKey(app, cookie)
  const refused = await ask(app, other)
  expect(refused.statusCode).toBe(429)
  expect(refused.json().error.message).toContain('Your answers have used all the tokens')
})

test('two quota counters on one database admit exactly the answers at once between them', async () => {
  const { userId, cookie } = await newPerson(app)
  const keyId = (await createApiKeyOk(app, cookie, { scopes: ['chat'] }))._id
  const one = createApiQuotas({ db: app.db, now: clock })
  const two = createApiQuotas({ db: app.db, now: clock })
  const limits = { tokensPerDay: 1000, usageTokensPerDay: 0, answersAtOnce: 12 }
  const results = await Promise.all(
    Array.from({ length: 50 }, (_, i) =>
      (i % 2 === 0 ? one : two).admit({ keyId, userId, assistantId: null, limits }),
    ),
  )
  expect(results.filter((r) => r.kind === 'admitted')).toHaveLength(12)
})

test.skipIf(!TEST_DATABASE_URL)(
  `on PostgreSQL: 50 parallel requests over two instances answer exactly the key's quota${POSTGRES_SKIP_NOTE}`,
  async () => {
    const database = await createTestDatabase()
    const options = { env: { DATABASE_URL: database.url, LLM_CONCURRENCY_PER_USER: '100' }, now: clock }
    const [a, b] = await Promise.all([buildTestApp(options), buildTestApp(options)])
    try {
      const { key } = await personWithKey(a, { requestsPerMinute: 9 })
      const responses = await Promise.all(Array.from({ length: 50 }, (_, i) => ask(i % 2 === 0 ? a : b, key)))
      expect(responses.filter((r) => r.statusCode === 200)).toHaveLength(9)
    } finally {
      await Promise.all([a.close(), b.close()])
      await database.drop()
    }
  },
)
