import { MatchersV3 } from '@pact-foundation/pact'
import { expect, test } from 'vitest'
import { type ApiError, createHttp } from '#src/api/client.ts'
import { createSharingApi } from '#src/api/sharing.ts'
import { createPact } from './pact.ts'

const {
  uuid,
  iso8601DateTimeWithMillis,
  string,
  integer,
  boolean,
  eachLike,
  atLeastLike,
  fromProviderState,
  regex,
} = MatchersV3

const CONVERSATION_ID = '6d1c7b1e-5b7a-4f0e-9d55-0b7c2f1a9e01'
const TOKEN = 'kq3Jx8WbX0s2o1bU9mQn5f0Yp7cV4tZr6hLdE2gA1iK'
const time = () => iso8601DateTimeWithMillis('2026-11-22T10:00:00.000Z')

// The link is the server's public address, /s/ and a 43-character base64url token.
const shareMatcher = (title: string) => ({
  conversationId: uuid(CONVERSATION_ID),
  title: string(title),
  url: regex(/^https?:\/\/[^/]+\/s\/[A-Za-z0-9_-]{43}$/, `http://127.0.0.1:3000/s/${TOKEN}`),
  sharedAt: time(),
})

const sharePath = fromProviderState(
  `/api/v1/chat/sessions/\${sessionId}/share`,
  `/api/v1/chat/sessions/${CONVERSATION_ID}/share`,
)

const api = (url: string) => createSharingApi(createHttp({ baseUrl: url }))

test('sharing a conversation answers its read-only link', async () => {
  await createPact()
    .addInteraction()
    .given('alice@example.com is signed in with one answered chat session')
    .uponReceiving('a request to share a chat session')
    .withRequest('POST', sharePath)
    .willRespondWith(200, (b) => b.jsonBody({ success: true, data: shareMatcher('Hello') }))
    .executeTest(async (server) => {
      const share = await api(server.url).shareConversation(CONVERSATION_ID)
      expect(share.url).toMatch(/\/s\//)
    })
})

test('revoking a share answers null', async () => {
  await createPact()
    .addInteraction()
    .given('alice@example.com is signed in with a shared chat session')
    .uponReceiving('a request to stop sharing a chat session')
    .withRequest('DELETE', sharePath)
    .willRespondWith(200, (b) => b.jsonBody({ success: true, data: null }))
    .executeTest(async (server) => {
      await expect(api(server.url).unshareConversation(CONVERSATION_ID)).resolves.toBeUndefined()
    })
})

test("the owner's shared conversations are listed with their links", async () => {
  await createPact()
    .addInteraction()
    .given('alice@example.com is signed in with a shared chat session')
    .uponReceiving('a request for her shared chat sessions')
    .withRequest('GET', '/api/v1/chat/shares')
    .willRespondWith(200, (b) => b.jsonBody({ success: true, data: eachLike(shareMatcher('Hello')) }))
    .executeTest(async (server) => {
      const shares = await api(server.url).listShares()
      expect(shares[0]?.conversationId).toBe(CONVERSATION_ID)
    })
})

test('anyone with the link reads the snapshot: messages and the quotes they cite, no sign-in', async () => {
  await createPact()
    .addInteraction()
    .given('a chat session that cites a document is shared by its link')
    .uponReceiving('a request for a shared chat session')
    .withRequest('GET', fromProviderState(`/api/v1/shared/\${token}`, `/api/v1/shared/${TOKEN}`))
    .willRespondWith(200, (b) =>
      b.jsonBody({
        success: true,
        data: {
          title: string('Meals abroad'),
          sharedAt: time(),
          messages: eachLike({
            isUser: boolean(false),
            content: string('No language model is configured on this server…'),
            createdAt: time(),
            stopped: boolean(false),
            // Questions cite nothing (an empty list), answers at least one passage.
            sources: atLeastLike(
              {
                // The extractive answer cites no [n]; a model's answer would carry its number.
                citation: null,
                documentName: string('Travel policy.pdf'),
                page: integer(2),
                heading: null,
                quote: string('The daily meal allowance abroad is 45 euros per person.'),
              },
              0,
              1,
            ),
          }),
        },
      }),
    )
    .executeTest(async (server) => {
      const shared = await api(server.url).getSharedConversation(TOKEN)
      expect(shared.messages[0]?.sources[0]?.documentName).toBe('Travel policy.pdf')
    })
})

test('an unknown or revoked link answers 404 with a sentence', async () => {
  await createPact()
    .addInteraction()
    .given('nobody is signed in')
    .uponReceiving('a request for a shared chat session that is not shared')
    .withRequest('GET', `/api/v1/shared/${'A'.repeat(43)}`)
    .willRespondWith(404, (b) =>
      b.jsonBody({
        success: false,
        message: 'This shared conversation does not exist or is no longer shared.',
      }),
    )
    .executeTest(async (server) => {
      const error = (await api(server.url)
        .getSharedConversation('A'.repeat(43))
        .catch((e: unknown) => e)) as ApiError
      expect(error.status).toBe(404)
    })
})
