/**
 * A published assistant's visitor calls (issue 37) as the public chat's client makes them
 * (src/api/public-assistant.ts): what the assistant shows of itself, the visitor's conversation by
 * their cookie (or none yet: 404) and a signed visitor's by their token, a streamed answer, and
 * feedback. The provider's states publish alice's assistant, whose knowledge is empty, so every
 * answer is its fallback sentence (no snippets, nothing to check); the visitor's cookie and the
 * ids and token they make are handed to the replayed request.
 */
import { MatchersV3 } from '@pact-foundation/pact'
import { expect, test } from 'vitest'
import { createPublicAssistantApi } from '#src/api/public-assistant.ts'
import { createPact } from './pact.ts'

const { like, uuid, iso8601DateTimeWithMillis, string, boolean, fromProviderState, regex } = MatchersV3

/** A public id as the server makes them: 128 bits in base64url. */
const PUBLIC_ID = 'q7Zk3Xv9TfWm2Lp8Rb4NcA'
const MESSAGE_ID = '5e2d7c1b-8a9f-4b3c-9d0e-1f2a3b4c5d6e'
const QUESTION = 'How many days of leave do I get?'
const FALLBACK = 'Not in my documents.'
const PUBLISHED = 'an assistant of alice@example.com is published'
const ASKED = 'a visitor asked a published assistant of alice@example.com one question'
const SIGNED_ASKED =
  'a signed-in user of a host site asked a published assistant of alice@example.com one question'
const time = () => iso8601DateTimeWithMillis('2026-11-22T10:00:00.000Z')

const publicPath = (tail = '') =>
  fromProviderState(
    `/api/v1/public/assistants/\${publicId}${tail}`,
    `/api/v1/public/assistants/${PUBLIC_ID}${tail}`,
  )

const api = (url: string) => createPublicAssistantApi(PUBLIC_ID, { baseUrl: url })

/** The visitor's question, then the fallback answer: it cited nothing, so no snippets and no checks. */
const exchange = () => [
  {
    _id: uuid(MESSAGE_ID),
    isUser: true,
    content: string(QUESTION),
    createdAt: time(),
    feedback: null,
    sources: [],
  },
  {
    _id: uuid(MESSAGE_ID),
    isUser: false,
    content: string(FALLBACK),
    createdAt: time(),
    feedback: null,
    sources: [],
    checks: [],
  },
]

test('a published assistant shows its name, description, starter questions and privacy line', async () => {
  await createPact()
    .addInteraction()
    .given(PUBLISHED)
    .uponReceiving('a visitor request for a published assistant')
    .withRequest('GET', publicPath())
    .willRespondWith(200, (b) =>
      b.jsonBody({
        success: true,
        data: {
          publicId: regex(/^[A-Za-z0-9_-]{22}$/, PUBLIC_ID),
          name: string('HR bot'),
          description: string(''),
          starterQuestions: [],
          privacyNotice: string(''),
          requireChallenge: boolean(false),
        },
      }),
    )
    .executeTest(async (server) => {
      expect((await api(server.url).getAssistant()).name).toBe('HR bot')
    })
})

test("a visitor's conversation comes back by their cookie", async () => {
  await createPact()
    .addInteraction()
    .given(ASKED)
    .uponReceiving('a visitor request for their conversation')
    .withRequest('GET', publicPath('/conversation'))
    .willRespondWith(200, (b) =>
      b.jsonBody({ success: true, data: { conversationId: uuid(MESSAGE_ID), messages: exchange() } }),
    )
    .executeTest(async (server) => {
      const conversation = await api(server.url).getConversation()
      expect(conversation?.messages.map((m) => m.content)).toEqual([QUESTION, FALLBACK])
    })
})

test('a visitor who has not asked yet has no conversation (404, read as none)', async () => {
  await createPact()
    .addInteraction()
    .given(PUBLISHED)
    .uponReceiving('a request for the conversation of a visitor who has not asked')
    .withRequest('GET', publicPath('/conversation'))
    .willRespondWith(404, (b) => b.jsonBody({ success: false, message: like('No conversation yet') }))
    .executeTest(async (server) => {
      expect(await api(server.url).getConversation()).toBeNull()
    })
})

test("a signed visitor's conversation comes back by their token, on any device", async () => {
  await createPact()
    .addInteraction()
    .given(SIGNED_ASKED)
    .uponReceiving('a signed visitor request for their conversation')
    .withRequest('POST', publicPath('/signed-conversation'), (b) =>
      // The host site's token is signed by the provider's state with the assistant's secret.
      b.jsonBody({ userToken: fromProviderState(`\${userToken}`, 'eyJhbGciOiJIUzI1NiJ9.e30.signature') }),
    )
    .willRespondWith(200, (b) =>
      b.jsonBody({ success: true, data: { conversationId: uuid(MESSAGE_ID), messages: exchange() } }),
    )
    .executeTest(async (server) => {
      const conversation = await api(server.url).getConversation('eyJhbGciOiJIUzI1NiJ9.e30.signature')
      expect(conversation?.messages).toHaveLength(2)
    })
})

/**
 * The stream as the server writes it: a `token` event (the fallback, in one piece), then `done`
 * with the stored question and answer. A regular expression holds it, since its ids and times are
 * the provider's; the example is what the consumer reads.
 */
const STREAM_EXAMPLE = [
  `event: token\ndata: ${JSON.stringify({ text: FALLBACK })}\n\n`,
  `event: done\ndata: ${JSON.stringify({
    conversationId: MESSAGE_ID,
    userMessage: {
      _id: MESSAGE_ID,
      isUser: true,
      content: QUESTION,
      createdAt: '2026-11-22T10:00:00.000Z',
      feedback: null,
      sources: [],
    },
    aiMessage: {
      _id: MESSAGE_ID,
      isUser: false,
      content: FALLBACK,
      createdAt: '2026-11-22T10:00:00.000Z',
      feedback: null,
      sources: [],
      checks: [],
    },
  })}\n\n`,
].join('')
const STREAM_SHAPE =
  '^(?:: keep-alive\\n\\n)*event: token\\ndata: \\{"text":"[^\\n]*"\\}\\n\\n(?:(?:event: token\\ndata: [^\\n]*|: keep-alive)\\n\\n)*' +
  'event: done\\ndata: \\{"conversationId":"[0-9a-f-]{36}","userMessage":\\{[^\\n]*"isUser":true[^\\n]*\\},' +
  '"aiMessage":\\{[^\\n]*"isUser":false[^\\n]*"checks":\\[[^\\n]*\\]\\}\\}\\n\\n$'

/**
 * Where a response builder writes its body. pact-js's builder writes any body but JSON or XML as
 * binary, with a content-type matcher that makes the verifier ignore every other rule on it; set
 * as text (the FFI call its `jsonBody` makes), the body keeps its regular expression.
 */
function bodyOf(builder: object): { withResponseBody(body: string, contentType: string): unknown } {
  return (builder as { interaction: { withResponseBody(body: string, contentType: string): unknown } })
    .interaction
}

test('a question is answered as a stream of tokens ending in the stored exchange', async () => {
  await createPact()
    .addInteraction()
    .given(PUBLISHED)
    .uponReceiving('a visitor question to a published assistant')
    .withRequest('POST', publicPath('/messages/stream'), (b) => b.jsonBody({ content: QUESTION }))
    .willRespondWith(200, (b) => {
      bodyOf(b).withResponseBody(STREAM_EXAMPLE, 'text/event-stream; charset=utf-8')
      b.matchingRules({ body: { path: '$', rules: [regex(new RegExp(STREAM_SHAPE), STREAM_EXAMPLE)] } })
    })
    .executeTest(async (server) => {
      const tokens: string[] = []
      const answer = await api(server.url).ask(
        { content: QUESTION },
        { onToken: (text) => tokens.push(text) },
      )
      expect(tokens.join('')).toBe(FALLBACK)
      expect(answer.aiMessage).toMatchObject({ content: FALLBACK, checks: [] })
    })
})

test("a visitor's feedback on their answer is taken", async () => {
  await createPact()
    .addInteraction()
    .given(ASKED)
    .uponReceiving("a visitor's feedback on their answer")
    .withRequest(
      'POST',
      fromProviderState(
        `/api/v1/public/assistants/\${publicId}/messages/\${messageId}/feedback`,
        `/api/v1/public/assistants/${PUBLIC_ID}/messages/${MESSAGE_ID}/feedback`,
      ),
      (b) => b.jsonBody({ feedback: 'like' }),
    )
    .willRespondWith(200, (b) => b.jsonBody({ success: true, data: null }))
    .executeTest(async (server) => {
      await expect(api(server.url).feedback(MESSAGE_ID, 'like', null)).resolves.toBeUndefined()
    })
})
