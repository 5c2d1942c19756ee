/**
 * Settings → API keys' calls (issue 38, D124): a key is made with a name, scopes, an expiry and
 * optionally one assistant and lower limits; it is shown once (`key`), listed by prefix, stored
 * only as a keyed hash (the table is read), at most 20 live a person, revoked by its owner only
 * (another's is 404), and the calls take the session only. With TEST_DATABASE_URL set the same
 * file runs on PostgreSQL.
 */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { API_KEYS_PER_PERSON, apiKeyEndpoints } from '#contracts/api-keys.ts'
import {
  API_KEY_NOT_FOUND,
  assistantNotYours,
  limitAboveServer,
  TOO_MANY_API_KEYS,
} from '#server/api-keys/api-key-errors.ts'
import type { App } from '#server/app.ts'
import { queryRows } from '#server/db/query-rows.ts'
import { API_KEY_NOT_ACCEPTED } from '#server/http/errors.ts'
import { createApiKey, createApiKeyOk, withKey } from '../support/api-key-helpers.ts'
import { createAssistantOk } from '../support/assistant-helpers.ts'
import { call, errorOf } from '../support/chat-helpers.ts'
import { newPerson } from '../support/drive-helpers.ts'
import { buildTestApp } from '../support/helper.ts'

let app: App

beforeAll(async () => {
  app = await buildTestApp({ env: { API_KEY_REQUESTS_PER_MINUTE: '30', API_KEY_TOKENS_PER_DAY: '5000' } })
}, 60_000)
afterAll(async () => {
  await app?.close()
})

const list = (cookie: string) => call(app, apiKeyEndpoints.listApiKeys, { cookie })
const revoke = (cookie: string, id: string) =>
  call(app, apiKeyEndpoints.deleteApiKey, { cookie, params: { id } })

test('a new key is shown once in full and then listed by its prefix only', async () => {
  const ada = await newPerson(app, 'keys')

  const created = await createApiKeyOk(app, ada.cookie, { name: 'Slack bot', scopes: ['library'] })

  expect(created.key).toMatch(/^dc_[A-Za-z0-9_-]{43}$/)
  expect(created.prefix).toBe(created.key.slice(0, 11))
  expect(created).toMatchObject({ name: 'Slack bot', scopes: ['library'], expiresAt: null, lastUsedAt: null })
  const listed = apiKeyEndpoints.listApiKeys.response.parse((await list(ada.cookie)).json()).data
  expect(listed).toEqual([{ ...created, key: undefined }].map(({ key: _, ...rest }) => rest))
  expect(JSON.stringify(listed)).not.toContain(created.key)
})

test('the table holds a keyed hash of the key, never its text', async () => {
  const ada = await newPerson(app, 'keys')
  const { key, _id } = await createApiKeyOk(app, ada.cookie)

  const rows = await queryRows<Record<string, unknown>>(app.db, sql`select * from api_keys where id = ${_id}`)

  expect(rows).toHaveLength(1)
  const stored = JSON.stringify(rows[0])
  expect(stored).not.toContain(key)
  expect(stored).not.toContain(key.slice(3))
  const { createHash } = await import('node:crypto')
  // Not a plain hash either: without APP_SECRET a copy of the table confirms no guess.
  expect(stored).not.toContain(createHash('sha256').update(key).digest('base64url'))
  expect(rows[0]?.key_hash).toMatch(/^[A-Za-z0-9_-]{43}$/)
})

test('an expiry of 30, 90 or 365 days is counted from now; anything else is refused', async () => {
  const ada = await newPerson(app, 'keys')
  const before = Date.now()
  const key = await createApiKeyOk(app, ada.cookie, { expiresInDays: 90 })
  const expires = new Date(key.expiresAt ?? 0).getTime() - new Date(key.createdAt).getTime()
  expect(expires).toBe(90 * 24 * 3600_000)
  expect(new Date(key.createdAt).getTime()).toBeGreaterThanOrEqual(before - 1000)

  const refused = await createApiKey(app, ada.cookie, { name: 'x', scopes: ['chat'], expiresInDays: 7 })
  expect(refused.statusCode).toBe(400)
  expect(errorOf(refused)).toContain('expiresInDays must be 30, 90, 365 or null')
})

test('a key limited to one assistant records it; another person’s assistant is refused naming it', async () => {
  const ada = await newPerson(app, 'keys')
  const bob = await newPerson(app, 'keys')
  const adas = await createAssistantOk(app, ada.cookie, { name: 'Helpdesk' })
  const bobs = await createAssistantOk(app, bob.cookie, { name: 'Bob’s' })

  const only = await createApiKeyOk(app, ada.cookie, { scopes: ['chat'], assistantId: adas._id })
  const refused = await createApiKey(app, ada.cookie, {
    name: 'x',
    scopes: ['chat'],
    expiresInDays: null,
    assistantId: bobs._id,
  })

  expect(only.assistantId).toBe(adas._id)
  const [row] = await queryRows<{ assistant_id: string }>(
    app.db,
    sql`select assistant_id from api_keys where id = ${only._id}`,
  )
  expect(row?.assistant_id).toBe(adas._id)
  expect(refused.statusCode).toBe(400)
  expect(errorOf(refused)).toBe(assistantNotYours(bobs._id))
})

test('limits lower than the server’s are kept; higher ones are refused with the server’s', async () => {
  const ada = await newPerson(app, 'keys')

  const lower = await createApiKeyOk(app, ada.cookie, { requestsPerMinute: 10, tokensPerDay: 1000 })
  const higher = await createApiKey(app, ada.cookie, {
    name: 'x',
    scopes: ['chat'],
    expiresInDays: null,
    requestsPerMinute: 31,
  })

  expect(lower).toMatchObject({ requestsPerMinute: 10, tokensPerDay: 1000 })
  expect(higher.statusCode).toBe(400)
  expect(errorOf(higher)).toBe(limitAboveServer('requestsPerMinute', 30))
})

test(`a person may have ${API_KEYS_PER_PERSON} live keys; one more is refused until one is revoked`, async () => {
  const ada = await newPerson(app, 'keys')
  const made = await Promise.all(
    Array.from({ length: API_KEYS_PER_PERSON + 3 }, (_, i) =>
      createApiKey(app, ada.cookie, { name: `k${i}`, scopes: ['chat'], expiresInDays: null }),
    ),
  )
  expect(made.filter((r) => r.statusCode === 201)).toHaveLength(API_KEYS_PER_PERSON)
  const refused = made.find((r) => r.statusCode !== 201)
  expect(refused?.statusCode).toBe(400)
  expect(refused && errorOf(refused)).toBe(TOO_MANY_API_KEYS)

  const first = apiKeyEndpoints.createApiKey.response.parse(made.find((r) => r.statusCode === 201)?.json())
  expect((await revoke(ada.cookie, first.data._id)).statusCode).toBe(200)
  expect(
    (await createApiKey(app, ada.cookie, { name: 'again', scopes: ['chat'], expiresInDays: null }))
      .statusCode,
  ).toBe(201)
})

test('another person’s key is not found, and cannot be revoked', async () => {
  const ada = await newPerson(app, 'keys')
  const bob = await newPerson(app, 'keys')
  const adas = await createApiKeyOk(app, ada.cookie)

  const response = await revoke(bob.cookie, adas._id)

  expect(response.statusCode).toBe(404)
  expect(errorOf(response)).toBe(API_KEY_NOT_FOUND)
  const listed = apiKeyEndpoints.listApiKeys.response.parse((await list(ada.cookie)).json()).data
  expect(listed.map((k) => k._id)).toEqual([adas._id])
})

test('the key calls take the browser session only: a key cannot list, make or revoke keys', async () => {
  const ada = await newPerson(app, 'keys')
  const { key, _id } = await createApiKeyOk(app, ada.cookie)

  const listed = await withKey(app, apiKeyEndpoints.listApiKeys, key)
  const made = await withKey(app, apiKeyEndpoints.createApiKey, key, {
    payload: { name: 'x', scopes: ['chat'], expiresInDays: null },
  })
  const revoked = await withKey(app, apiKeyEndpoints.deleteApiKey, key, { params: { id: _id } })

  for (const response of [listed, made, revoked]) {
    expect(response.statusCode).toBe(401)
    expect(errorOf(response)).toBe(API_KEY_NOT_ACCEPTED)
  }
})
