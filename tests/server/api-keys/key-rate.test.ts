/**
 * Every call made with a key counts against the key's requests a minute (issue 38, D134): the
 * library's calls as well as the OpenAI-compatible endpoint's, on the app's clock. A library call
 * past the limit is 429 in the app's shape, with Retry-After and a sentence; an OpenAI call in
 * OpenAI's. Exact under parallel calls, and, on PostgreSQL, over two instances of one database.
 */
import { afterAll, beforeAll, expect, test } from 'vitest'
import { documentEndpoints } from '#contracts/documents.ts'
import { OPENAI_PATHS } from '#contracts/openai.ts'
import { KEY_REQUESTS_SPENT } from '#server/api-keys/api-key-errors.ts'
import type { App } from '#server/app.ts'
import { bearer, createApiKeyOk, testClock, withKey } from '../support/api-key-helpers.ts'
import { errorOf } from '../support/chat-helpers.ts'
import { newPerson } from '../support/drive-helpers.ts'
import { buildTestApp } from '../support/helper.ts'
import { createTestDatabase, POSTGRES_SKIP_NOTE, TEST_DATABASE_URL } from '../support/postgres-test-db.ts'

/** Ten seconds into a UTC minute, days away from the machine's clock. */
const START = Math.floor((Date.now() - 3 * 24 * 3600_000) / 60_000) * 60_000 + 10_000
const clock = testClock(START)
let app: App

beforeAll(async () => {
  app = await buildTestApp({ now: clock.now })
}, 60_000)
afterAll(async () => {
  await app?.close()
})

async function libraryKey(target: App, requestsPerMinute: number, scopes = ['library']) {
  const { cookie } = await newPerson(target, 'rate')
  return (await createApiKeyOk(target, cookie, { scopes, requestsPerMinute })).key
}

const list = (target: App, key: string) => withKey(target, documentEndpoints.listDocuments, key)

test('a library key with 3 requests a minute is refused its 4th library call, with Retry-After, until the minute ends', async () => {
  const key = await libraryKey(app, 3)
  for (let i = 0; i < 3; i++) expect((await list(app, key)).statusCode).toBe(200)
  const refused = await list(app, key)
  expect(refused.statusCode).toBe(429)
  expect(errorOf(refused)).toBe(KEY_REQUESTS_SPENT)
  expect(refused.headers['retry-after']).toBe('50')
  clock.advance(50_000)
  expect((await list(app, key)).statusCode).toBe(200)
})

test('30 parallel library calls at 5 requests a minute admit exactly 5', async () => {
  const key = await libraryKey(app, 5)
  const statuses = (await Promise.all(Array.from({ length: 30 }, () => list(app, key)))).map(
    (r) => r.statusCode,
  )
  expect(statuses.filter((s) => s === 200)).toHaveLength(5)
  expect(statuses.filter((s) => s === 429)).toHaveLength(25)
})

test('a key’s library calls and its OpenAI-compatible calls count against the same minute', async () => {
  const key = await libraryKey(app, 2, ['chat', 'library'])
  expect((await list(app, key)).statusCode).toBe(200)
  const models = () => app.inject({ method: 'GET', url: OPENAI_PATHS.models, headers: bearer(key) })
  expect((await models()).statusCode).toBe(200)
  expect((await list(app, key)).statusCode).toBe(429)
  const refused = await models()
  expect(refused.statusCode).toBe(429)
  expect(refused.json()).toMatchObject({
    error: { code: 'rate_limit_exceeded', type: 'requests', message: KEY_REQUESTS_SPENT },
  })
  expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1)
})

test.skipIf(!TEST_DATABASE_URL)(
  `on PostgreSQL: 30 parallel library calls over two instances admit exactly the key's minute${POSTGRES_SKIP_NOTE}`,
  async () => {
    const database = await createTestDatabase()
    const options = { env: { DATABASE_URL: database.url }, now: clock.now }
    const [a, b] = await Promise.all([buildTestApp(options), buildTestApp(options)])
    try {
      const key = await libraryKey(a, 4)
      const responses = await Promise.all(Array.from({ length: 30 }, (_, i) => list(i % 2 ? a : b, key)))
      expect(responses.filter((r) => r.statusCode === 200)).toHaveLength(4)
    } finally {
      await Promise.all([a.close(), b.close()])
      await database.drop()
    }
  },
)
