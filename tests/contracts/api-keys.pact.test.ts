/**
 * Settings → API keys' calls (issue 38) as the app's client makes them (src/api/api-keys.ts). The
 * provider's state makes one key for alice and hands its id to the replayed request (`${keyId}`);
 * the key's text is matched by its shape only, as every key differs.
 */
import { MatchersV3 } from '@pact-foundation/pact'
import { expect, test } from 'vitest'
import { createApiKeysApi } from '#src/api/api-keys.ts'
import { createHttp } from '#src/api/client.ts'
import { createPact } from './pact.ts'

const { uuid, iso8601DateTimeWithMillis, string, regex, eachLike, fromProviderState } = MatchersV3

const KEY_ID = '7d1e2f3a-4b5c-4d6e-8f90-a1b2c3d4e5f6'
const time = () => iso8601DateTimeWithMillis('2026-11-22T10:00:00.000Z')
const WITH_ONE = 'alice@example.com is signed in with one API key'

const keyMatcher = (name: string) => ({
  _id: uuid(KEY_ID),
  name: string(name),
  prefix: regex(/^dc_[A-Za-z0-9_-]{8}$/, 'dc_Ab3dE_9z'),
  scopes: ['library'],
  assistantId: null,
  requestsPerMinute: null,
  tokensPerDay: null,
  createdAt: time(),
  lastUsedAt: null,
  expiresAt: time(),
})

const api = (url: string) => createApiKeysApi(createHttp({ baseUrl: url }))

test('making a key answers its fields and, this once, the key', async () => {
  await createPact()
    .addInteraction()
    .given('alice@example.com is signed in')
    .uponReceiving('a request to make an API key')
    .withRequest('POST', '/api/v1/api-keys', (b) =>
      b.jsonBody({ name: 'Sync script', scopes: ['library'], expiresInDays: 90 }),
    )
    .willRespondWith(201, (b) =>
      b.jsonBody({
        success: true,
        data: {
          ...keyMatcher('Sync script'),
          key: regex(/^dc_[A-Za-z0-9_-]{43}$/, `dc_${'Ab3dE_9zQ'.repeat(4)}Ab3dE_9`),
        },
      }),
    )
    .executeTest(async (server) => {
      const created = await api(server.url).create({
        name: 'Sync script',
        scopes: ['library'],
        expiresInDays: 90,
      })
      expect(created.key.startsWith(created.prefix)).toBe(true)
    })
})

test('listing keys answers each by its prefix, never the key', async () => {
  await createPact()
    .addInteraction()
    .given(WITH_ONE)
    .uponReceiving('a request to list API keys')
    .withRequest('GET', '/api/v1/api-keys')
    .willRespondWith(200, (b) => b.jsonBody({ success: true, data: eachLike(keyMatcher('Sync script')) }))
    .executeTest(async (server) => {
      expect(await api(server.url).list()).toHaveLength(1)
    })
})

test('revoking a key answers null', async () => {
  await createPact()
    .addInteraction()
    .given(WITH_ONE)
    .uponReceiving('a request to revoke an API key')
    .withRequest('DELETE', fromProviderState(`/api/v1/api-keys/\${keyId}`, `/api/v1/api-keys/${KEY_ID}`))
    .willRespondWith(200, (b) => b.jsonBody({ success: true, data: null }))
    .executeTest(async (server) => {
      await expect(api(server.url).revoke(KEY_ID)).resolves.toBeUndefined()
    })
})
