/**
 * The owner's publishing calls (issue 37) as the app's client makes them (src/api/publishing.ts):
 * the identity secret, and the inbox of what visitors asked. The provider's states make the
 * assistant (and, for the inbox, publish it and have one anonymous visitor ask it a question it
 * cannot answer from its empty knowledge: its fallback, so the conversation is "unanswered") and
 * hand their ids to the replayed request.
 */
import { MatchersV3 } from '@pact-foundation/pact'
import { expect, test } from 'vitest'
import { createHttp } from '#src/api/client.ts'
import { createPublishingApi } from '#src/api/publishing.ts'
import { createPact } from './pact.ts'

const { like, uuid, iso8601DateTimeWithMillis, string, integer, eachLike, fromProviderState, regex } =
  MatchersV3

const ASSISTANT_ID = '3f0c9a2e-1b7d-4c5e-8a90-6b1d2e3f4a5b'
const CONVERSATION_ID = '7c1e2d3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f'
const time = () => iso8601DateTimeWithMillis('2026-11-22T10:00:00.000Z')
const WITH_ONE = 'alice@example.com is signed in with one assistant'
const ASKED = 'alice@example.com is signed in with a published assistant that one visitor asked'

const assistantPath = (tail = '') =>
  fromProviderState(`/api/v1/assistants/\${assistantId}${tail}`, `/api/v1/assistants/${ASSISTANT_ID}${tail}`)

const api = (url: string) => createPublishingApi(createHttp({ baseUrl: url }))

/** An inbox row: an anonymous visitor is a short stable label (never their cookie), unsigned. */
const conversationMatcher = () => ({
  _id: uuid(CONVERSATION_ID),
  visitor: { id: regex(/^v-[0-9a-f]{8}$/, 'v-1a2b3c4d'), signed: false, name: null, email: null },
  firstQuestion: string('How many days of leave do I get?'),
  createdAt: time(),
  updatedAt: time(),
  messageCount: integer(2),
  unanswered: like(true),
  likes: integer(0),
  dislikes: integer(0),
})

test('making the identity secret answers it, the only time it is shown', async () => {
  await createPact()
    .addInteraction()
    .given(WITH_ONE)
    .uponReceiving('a request to make or rotate an assistant identity secret')
    .withRequest('POST', assistantPath('/identity-secret'))
    .willRespondWith(200, (b) =>
      b.jsonBody({ success: true, data: { secret: regex(/^[A-Za-z0-9_-]{43}$/, 'x'.repeat(43)) } }),
    )
    .executeTest(async (server) => {
      expect(await api(server.url).rotateIdentitySecret(ASSISTANT_ID)).toHaveLength(43)
    })
})

for (const filter of ['all', 'unanswered'] as const) {
  test(`the inbox (${filter}) lists visitor conversations with the most asked questions and a per-day count`, async () => {
    await createPact()
      .addInteraction()
      .given(ASKED)
      .uponReceiving(`a request for an assistant inbox, filter ${filter}`)
      .withRequest('GET', assistantPath('/conversations'), (b) => b.query({ filter }))
      .willRespondWith(200, (b) =>
        b.jsonBody({
          success: true,
          data: {
            conversations: eachLike(conversationMatcher()),
            // One conversation: no further page.
            next: null,
            topQuestions: {
              days7: eachLike({ question: string('how many days of leave do i get?'), count: integer(1) }),
              days30: eachLike({ question: string('how many days of leave do i get?'), count: integer(1) }),
            },
            perDay: eachLike({
              day: regex(/^\d{4}-\d{2}-\d{2}$/, '2026-11-22'),
              conversations: integer(0),
              tokens: integer(0),
            }),
          },
        }),
      )
      .executeTest(async (server) => {
        const inbox = await api(server.url).inbox(ASSISTANT_ID, filter, null)
        expect(inbox.conversations[0]?.unanswered).toBe(true)
      })
  })
}

test('one visitor conversation answers its row and its messages, with the snippets the visitor saw', async () => {
  await createPact()
    .addInteraction()
    .given(ASKED)
    .uponReceiving('a request for one visitor conversation of an assistant')
    .withRequest(
      'GET',
      fromProviderState(
        `/api/v1/assistants/\${assistantId}/conversations/\${conversationId}`,
        `/api/v1/assistants/${ASSISTANT_ID}/conversations/${CONVERSATION_ID}`,
      ),
    )
    .willRespondWith(200, (b) =>
      b.jsonBody({
        success: true,
        data: {
          conversation: conversationMatcher(),
          // The question and the fallback answer: it cited nothing, so no snippets.
          messages: eachLike({
            _id: uuid(CONVERSATION_ID),
            isUser: like(true),
            content: string('How many days of leave do I get?'),
            createdAt: time(),
            feedback: null,
            sources: [],
          }),
        },
      }),
    )
    .executeTest(async (server) => {
      const { messages } = await api(server.url).inboxConversation(ASSISTANT_ID, CONVERSATION_ID)
      expect(messages[0]?.content).toBe('How many days of leave do I get?')
    })
})
