import { MatchersV3 } from '@pact-foundation/pact'
import { expect, test } from 'vitest'
import { type ApiError, createHttp } from '#src/api/client.ts'
import { createUsageApi } from '#src/api/usage.ts'
import { createPact } from './pact.ts'

const { like, integer, regex, eachLike } = MatchersV3

const KEY_ID = '0b6f2d1e-6c1a-4d7e-9a51-2f0c1d3e4b5a'
const ASSISTANT_ID = '5d1c8e2a-3b4f-4a6d-8e9f-0a1b2c3d4e5f'

const api = (url: string) => createUsageApi(createHttp({ baseUrl: url }))

// Any whole numbers: the figures depend on what alice asked before; the shape is the contract.
const figures = () => ({ tokens: integer(120), answers: integer(2) })
const sources = () => ({ app: figures(), api: figures(), published: figures() })

test("usage answers the signed-in person's days and this month, per source, per API key and per assistant", async () => {
  await createPact()
    .addInteraction()
    // Keys and assistants need one answer each this month for eachLike to hold on the provider.
    .given('alice@example.com is signed in and spent tokens through an API key and an assistant this month')
    .uponReceiving("a request for the last 30 days' usage")
    .withRequest('GET', '/api/v1/usage', (b) => b.query({ days: '30' }))
    .willRespondWith(200, (b) =>
      b.jsonBody({
        success: true,
        data: {
          days: eachLike({ day: regex(/^\d{4}-\d{2}-\d{2}$/, '2026-11-22'), sources: sources() }),
          month: {
            month: regex(/^\d{4}-\d{2}$/, '2026-11'),
            sources: sources(),
            // A gone key's or assistant's name is null (D134); the live ones this state makes have theirs.
            keys: eachLike({
              id: like(KEY_ID),
              name: like('Sync script'),
              prefix: like('dc_AbCd1234'),
              ...figures(),
            }),
            assistants: eachLike({ id: like(ASSISTANT_ID), name: like('HR bot'), ...figures() }),
          },
          tokensPerDay: integer(1_000_000),
        },
      }),
    )
    .executeTest(async (server) => {
      const report = await api(server.url).usage(30)
      expect(report.days[0]?.sources.app.tokens).toBe(120)
      expect(report.month.month).toBe('2026-11')
      expect(report.month.keys[0]).toEqual({
        id: KEY_ID,
        name: 'Sync script',
        prefix: 'dc_AbCd1234',
        tokens: 120,
        answers: 2,
      })
      expect(report.month.assistants[0]?.name).toBe('HR bot')
    })
})

test('usage over 90 days is a 400 with a sentence', async () => {
  await createPact()
    .addInteraction()
    .given('alice@example.com is signed in')
    .uponReceiving('a request for 91 days of usage')
    .withRequest('GET', '/api/v1/usage', (b) => b.query({ days: '91' }))
    .willRespondWith(400, (b) =>
      b.jsonBody({ success: false, message: like('days must be a whole number from 1 to 90.') }),
    )
    .executeTest(async (server) => {
      const error = await api(server.url)
        .usage(91)
        .catch((e: unknown) => e)
      expect((error as ApiError).status).toBe(400)
    })
})
