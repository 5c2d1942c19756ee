/**
 * The assistants' calls (issue 36) as the app's client makes them (src/api/assistants.ts). Alice
 * has no documents and no Drive here, so knowledge is empty; the provider's state makes one
 * assistant and hands its id to the replayed request (`${assistantId}`).
 */
import { MatchersV3 } from '@pact-foundation/pact'
import { expect, test } from 'vitest'
import { DEFAULT_BUDGETS, DEFAULT_BUSY_MESSAGE, DEFAULT_RETENTION_DAYS } from '#contracts/publishing.ts'
import { createAssistantsApi } from '#src/api/assistants.ts'
import { createHttp } from '#src/api/client.ts'
import { createPact } from './pact.ts'

const { like, uuid, iso8601DateTimeWithMillis, string, integer, eachLike, fromProviderState, regex } =
  MatchersV3

const ASSISTANT_ID = '3f0c9a2e-1b7d-4c5e-8a90-6b1d2e3f4a5b'
const time = () => iso8601DateTimeWithMillis('2026-11-22T10:00:00.000Z')
const WITH_ONE = 'alice@example.com is signed in with one assistant'

const assistantMatcher = (name: string, publishing: Record<string, unknown> = {}) => ({
  _id: uuid(ASSISTANT_ID),
  name: string(name),
  description: string(''),
  instructions: string(''),
  knowledge: { documentIds: [], folderIds: [], documents: [], folders: [] },
  starterQuestions: [],
  answerPolicy: 'documents-only',
  fallbackAnswer: string('Not in my documents.'),
  temperature: null,
  maxAnswerTokens: null,
  model: null,
  createdAt: time(),
  updatedAt: time(),
  // Publishing (issue 37): off until its owner turns it on.
  published: like(false),
  allowedOrigins: [],
  publicPage: like(true),
  allowIndexing: like(false),
  showSourceNames: like(true),
  hideUnverified: like(false),
  busyMessage: string(DEFAULT_BUSY_MESSAGE),
  privacyNotice: string(''),
  budgets: like(DEFAULT_BUDGETS),
  requireChallenge: like(false),
  retentionDays: integer(DEFAULT_RETENTION_DAYS),
  publicId: null,
  hasIdentitySecret: like(false),
  ...publishing,
})

const assistantPath = () =>
  fromProviderState(`/api/v1/assistants/\${assistantId}`, `/api/v1/assistants/${ASSISTANT_ID}`)

const api = (url: string) => createAssistantsApi(createHttp({ baseUrl: url }))

test('creating an assistant answers it with its defaults filled', async () => {
  await createPact()
    .addInteraction()
    .given('alice@example.com is signed in')
    .uponReceiving('a request to create an assistant')
    .withRequest('POST', '/api/v1/assistants', (b) => b.jsonBody({ name: 'HR bot' }))
    .willRespondWith(201, (b) => b.jsonBody({ success: true, data: assistantMatcher('HR bot') }))
    .executeTest(async (server) => {
      expect((await api(server.url).create({ name: 'HR bot' })).name).toBe('HR bot')
    })
})

test('listing assistants answers a summary of each', async () => {
  await createPact()
    .addInteraction()
    .given(WITH_ONE)
    .uponReceiving('a request to list assistants')
    .withRequest('GET', '/api/v1/assistants')
    .willRespondWith(200, (b) =>
      b.jsonBody({
        success: true,
        data: eachLike({
          _id: uuid(ASSISTANT_ID),
          name: string('HR bot'),
          description: string(''),
          answerPolicy: 'documents-only',
          updatedAt: time(),
          documentCount: integer(0),
          folderCount: integer(0),
        }),
      }),
    )
    .executeTest(async (server) => {
      expect(await api(server.url).list()).toHaveLength(1)
    })
})

test('the options say which models an assistant may use', async () => {
  await createPact()
    .addInteraction()
    .given('alice@example.com is signed in')
    .uponReceiving('a request for the assistant options')
    .withRequest('GET', '/api/v1/assistants/options')
    .willRespondWith(200, (b) => b.jsonBody({ success: true, data: { models: like([]) } }))
    .executeTest(async (server) => {
      expect((await api(server.url).options()).models).toEqual([])
    })
})

test('reading an assistant by its id', async () => {
  await createPact()
    .addInteraction()
    .given(WITH_ONE)
    .uponReceiving('a request for one assistant')
    .withRequest('GET', assistantPath())
    .willRespondWith(200, (b) => b.jsonBody({ success: true, data: assistantMatcher('HR bot') }))
    .executeTest(async (server) => {
      expect((await api(server.url).get(ASSISTANT_ID))._id).toBe(ASSISTANT_ID)
    })
})

test('renaming an assistant answers it as saved', async () => {
  await createPact()
    .addInteraction()
    .given(WITH_ONE)
    .uponReceiving('a request to rename an assistant')
    .withRequest('PATCH', assistantPath(), (b) => b.jsonBody({ name: 'Policies bot' }))
    .willRespondWith(200, (b) => b.jsonBody({ success: true, data: assistantMatcher('Policies bot') }))
    .executeTest(async (server) => {
      const renamed = await api(server.url).update(ASSISTANT_ID, { name: 'Policies bot' })
      expect(renamed.name).toBe('Policies bot')
    })
})

test('deleting an assistant answers null', async () => {
  await createPact()
    .addInteraction()
    .given(WITH_ONE)
    .uponReceiving('a request to delete an assistant')
    .withRequest('DELETE', assistantPath())
    .willRespondWith(200, (b) => b.jsonBody({ success: true, data: null }))
    .executeTest(async (server) => {
      await expect(api(server.url).remove(ASSISTANT_ID)).resolves.toBeUndefined()
    })
})

test('publishing an assistant answers it with its settings and the public id it is reached by', async () => {
  const publish = {
    published: true,
    allowedOrigins: ['https://intranet.example.com', 'https://*.example.org'],
    showSourceNames: false,
    hideUnverified: true,
    busyMessage: 'Too many questions today, sorry!',
    privacyNotice: 'Questions are kept 90 days.',
    budgets: {
      answersPerDay: 100,
      tokensPerDay: 200_000,
      visitorAnswersPerHour: 5,
      visitorAnswersPerDay: 20,
    },
  }
  await createPact()
    .addInteraction()
    .given(WITH_ONE)
    .uponReceiving('a request to publish an assistant with its publishing settings')
    .withRequest('PATCH', assistantPath(), (b) => b.jsonBody(publish))
    .willRespondWith(200, (b) =>
      b.jsonBody({
        success: true,
        data: assistantMatcher('HR bot', {
          ...publish,
          // The settings come back as saved; the public id is made on the first publish (128 bits).
          allowedOrigins: publish.allowedOrigins,
          published: true,
          showSourceNames: false,
          hideUnverified: true,
          budgets: publish.budgets,
          busyMessage: string(publish.busyMessage),
          privacyNotice: string(publish.privacyNotice),
          publicId: regex(/^[A-Za-z0-9_-]{22}$/, 'q8Xv2mB0c1RkTn5yWz3aHg'),
        }),
      }),
    )
    .executeTest(async (server) => {
      const saved = await api(server.url).update(ASSISTANT_ID, publish)
      expect(saved.published).toBe(true)
      expect(saved.publicId).toMatch(/^[\w-]{22}$/)
    })
})
