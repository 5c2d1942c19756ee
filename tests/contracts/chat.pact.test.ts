import { MatchersV3 } from '@pact-foundation/pact'
import { expect, test } from 'vitest'
import { createChatApi } from '#src/api/chat.ts'
import { type ApiError, createHttp } from '#src/api/client.ts'
import { createPact } from './pact.ts'

const { like, uuid, iso8601DateTimeWithMillis, string, integer, eachLike, fromProviderState, boolean } =
  MatchersV3

const CONVERSATION_ID = '6d1c7b1e-5b7a-4f0e-9d55-0b7c2f1a9e01'
const MESSAGE_ID = '0b9a6a51-77f4-4a37-8c1e-3cc1d7a2f9b2'
const time = () => iso8601DateTimeWithMillis('2026-11-22T10:00:00.000Z')

const conversationMatcher = (title: string) => ({
  _id: uuid(CONVERSATION_ID),
  title: string(title),
  createdAt: time(),
  updatedAt: time(),
  messageCount: integer(0),
  lastMessage: string(''),
})

// A message with no sources: the signed-in user in these states has no documents.
const messageMatcher = (isUser: boolean, content: string) => ({
  _id: uuid(MESSAGE_ID),
  isUser: boolean(isUser),
  content: string(content),
  createdAt: time(),
  messageType: 'text',
  feedback: null,
  sources: [],
})

// Ids the provider creates in its state handler are injected into the replayed request.
const conversationPath = (suffix: string) =>
  fromProviderState(
    `/api/v1/chat/sessions/\${sessionId}/${suffix}`,
    `/api/v1/chat/sessions/${CONVERSATION_ID}/${suffix}`,
  )

const sessionPath = () =>
  fromProviderState(`/api/v1/chat/sessions/\${sessionId}`, `/api/v1/chat/sessions/${CONVERSATION_ID}`)

function api(url: string) {
  return createChatApi(createHttp({ baseUrl: url }))
}

test('creating a session answers it with its id', async () => {
  await createPact()
    .addInteraction()
    .given('alice@example.com is signed in')
    .uponReceiving('a request to create a chat session')
    .withRequest('POST', '/api/v1/chat/sessions/create', (b) => b.jsonBody({ title: 'What is in my notes?' }))
    .willRespondWith(201, (b) =>
      b.jsonBody({ success: true, data: conversationMatcher('What is in my notes?') }),
    )
    .executeTest(async (server) => {
      const conversation = await api(server.url).createConversation('What is in my notes?')
      expect(conversation._id).toBe(CONVERSATION_ID)
    })
})

test('listing sessions answers the user sessions with counts and previews', async () => {
  await createPact()
    .addInteraction()
    .given('alice@example.com is signed in with one answered chat session')
    .uponReceiving('a request for all chat sessions')
    .withRequest('GET', '/api/v1/chat/sessions/all')
    .willRespondWith(200, (b) =>
      b.jsonBody({
        success: true,
        data: eachLike({
          ...conversationMatcher('Hello'),
          messageCount: integer(2),
          lastMessage: string('Hi!'),
        }),
      }),
    )
    .executeTest(async (server) => {
      const conversations = await api(server.url).listConversations()
      expect(conversations[0]?.messageCount).toBe(2)
    })
})

test('listing messages answers them oldest first', async () => {
  await createPact()
    .addInteraction()
    .given('alice@example.com is signed in with one answered chat session')
    .uponReceiving('a request for the messages of a session')
    .withRequest('GET', conversationPath('messages'))
    .willRespondWith(200, (b) =>
      b.jsonBody({
        success: true,
        data: [messageMatcher(true, 'Hello'), { ...messageMatcher(false, 'Hi!'), feedback: like(null) }],
      }),
    )
    .executeTest(async (server) => {
      const messages = await api(server.url).listMessages(CONVERSATION_ID)
      expect(messages.map((m) => m.isUser)).toEqual([true, false])
    })
})

test('sending a message answers the stored message and the reply', async () => {
  await createPact()
    .addInteraction()
    .given('alice@example.com is signed in with an empty chat session')
    .uponReceiving('a message sent to a session')
    .withRequest('POST', conversationPath('messages/send'), (b) =>
      b.jsonBody({ content: 'Hello there', isUser: true, messageType: 'text' }),
    )
    .willRespondWith(200, (b) =>
      b.jsonBody({
        success: true,
        data: {
          userMessage: messageMatcher(true, 'Hello there'),
          aiMessage: messageMatcher(false, 'A reply'),
        },
      }),
    )
    .executeTest(async (server) => {
      const { userMessage, aiMessage } = await api(server.url).sendMessage(CONVERSATION_ID, 'Hello there')
      expect(userMessage.isUser).toBe(true)
      expect(aiMessage.isUser).toBe(false)
    })
})

test('a blank message is refused with 400 and a reason', async () => {
  await createPact()
    .addInteraction()
    .given('alice@example.com is signed in with an empty chat session')
    .uponReceiving('a blank message sent to a session')
    .withRequest('POST', conversationPath('messages/send'), (b) =>
      b.jsonBody({ content: '   ', isUser: true, messageType: 'text' }),
    )
    .willRespondWith(400, (b) => b.jsonBody({ success: false, message: 'Message cannot be empty' }))
    .executeTest(async (server) => {
      const error = (await api(server.url)
        .sendMessage(CONVERSATION_ID, '   ')
        .catch((e: unknown) => e)) as ApiError
      expect(error.status).toBe(400)
    })
})

test('another user session answers 404 as if it did not exist', async () => {
  await createPact()
    .addInteraction()
    .given('alice@example.com is signed in and bob@example.com has a chat session')
    .uponReceiving('a request for the messages of somebody else session')
    .withRequest('GET', conversationPath('messages'))
    .willRespondWith(404, (b) => b.jsonBody({ success: false, message: like('Conversation not found') }))
    .executeTest(async (server) => {
      const error = (await api(server.url)
        .listMessages(CONVERSATION_ID)
        .catch((e: unknown) => e)) as ApiError
      expect(error.status).toBe(404)
    })
})

test('deleting a session answers success', async () => {
  await createPact()
    .addInteraction()
    .given('alice@example.com is signed in with one answered chat session')
    .uponReceiving('a request to delete a session')
    .withRequest('DELETE', conversationPath('delete'))
    .willRespondWith(200, (b) => b.jsonBody({ success: true, data: null }))
    .executeTest(async (server) => {
      await expect(api(server.url).deleteConversation(CONVERSATION_ID)).resolves.toBeUndefined()
    })
})

test('feedback on an answer is stored and answered back', async () => {
  await createPact()
    .addInteraction()
    .given('alice@example.com is signed in with one answered chat session')
    .uponReceiving('a like on an answer')
    .withRequest(
      'PATCH',
      fromProviderState(
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a Pact provider-state expression, not JS
        '/api/v1/chat/messages/${answerId}/feedback',
        `/api/v1/chat/messages/${MESSAGE_ID}/feedback`,
      ),
      (b) => b.jsonBody({ feedback: 'like' }),
    )
    .willRespondWith(200, (b) =>
      b.jsonBody({ success: true, data: { ...messageMatcher(false, 'Hi!'), feedback: 'like' } }),
    )
    .executeTest(async (server) => {
      const message = await api(server.url).setFeedback(MESSAGE_ID, 'like')
      expect(message.feedback).toBe('like')
    })
})

test('showing an earlier version of an answer answers it as it now reads', async () => {
  await createPact()
    .addInteraction()
    .given('alice@example.com is signed in with an answer written twice')
    .uponReceiving('a request to show version 1 of an answer')
    .withRequest(
      'PATCH',
      fromProviderState(
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a Pact provider-state expression, not JS
        '/api/v1/chat/messages/${answerId}/version',
        `/api/v1/chat/messages/${MESSAGE_ID}/version`,
      ),
      (b) => b.jsonBody({ version: 1 }),
    )
    .willRespondWith(200, (b) =>
      b.jsonBody({
        success: true,
        data: { ...messageMatcher(false, 'Hi!'), feedback: like(null), version: 1, versionCount: 2 },
      }),
    )
    .executeTest(async (server) => {
      const message = await api(server.url).showVersion(MESSAGE_ID, 1)
      expect([message.version, message.versionCount]).toEqual([1, 2])
    })
})

test('a reason for a dislike is stored and answered back', async () => {
  await createPact()
    .addInteraction()
    .given('alice@example.com is signed in with a disliked answer')
    .uponReceiving('a reason for a dislike')
    .withRequest(
      'PATCH',
      fromProviderState(
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a Pact provider-state expression, not JS
        '/api/v1/chat/messages/${answerId}/feedback/reason',
        `/api/v1/chat/messages/${MESSAGE_ID}/feedback/reason`,
      ),
      (b) => b.jsonBody({ reason: 'incorrect', note: 'It names the wrong page.' }),
    )
    .willRespondWith(200, (b) =>
      b.jsonBody({
        success: true,
        data: {
          ...messageMatcher(false, 'Hi!'),
          feedback: 'dislike',
          feedbackReason: 'incorrect',
          feedbackNote: 'It names the wrong page.',
        },
      }),
    )
    .executeTest(async (server) => {
      const message = await api(server.url).explainDislike(MESSAGE_ID, {
        reason: 'incorrect',
        note: 'It names the wrong page.',
      })
      expect(message.feedbackReason).toBe('incorrect')
    })
})

test('renaming a session answers it with its new title', async () => {
  await createPact()
    .addInteraction()
    .given('alice@example.com is signed in with an empty chat session')
    .uponReceiving('a request to rename a chat session')
    .withRequest('PATCH', sessionPath(), (b) => b.jsonBody({ title: 'Trip to Lisbon' }))
    .willRespondWith(200, (b) => b.jsonBody({ success: true, data: conversationMatcher('Trip to Lisbon') }))
    .executeTest(async (server) => {
      const conversation = await api(server.url).renameConversation(CONVERSATION_ID, 'Trip to Lisbon')
      expect(conversation.title).toBe('Trip to Lisbon')
    })
})

test('searching conversations answers the matching sessions with a snippet', async () => {
  await createPact()
    .addInteraction()
    .given('alice@example.com is signed in with one answered chat session')
    .uponReceiving('a search of the chat sessions')
    .withRequest('GET', '/api/v1/chat/search', (b) => b.query({ q: 'hello' }))
    .willRespondWith(200, (b) =>
      b.jsonBody({
        success: true,
        data: eachLike({
          session: { ...conversationMatcher('Hello'), messageCount: integer(2), lastMessage: string('Hi!') },
          snippet: string('Hello'),
        }),
      }),
    )
    .executeTest(async (server) => {
      const hits = await api(server.url).searchConversations('hello')
      expect(hits[0]?.session._id).toBe(CONVERSATION_ID)
    })
})

// Conversations limited to chosen documents (D70). The provider's library holds one document read
// from alice's Drive; its id is handed to the replayed request.
const DOCUMENT_ID = '6f1c2b7e-3d4a-4b8e-9a0f-1c2d3e4f5a6b'
const MISSING_ID = '0b5c7a52-6c2f-4f4e-9a51-5d1c43e0a111'
// biome-ignore lint/suspicious/noTemplateCurlyInString: a Pact provider-state expression, not JS
const documentIdFromState = () => fromProviderState('${documentId}', DOCUMENT_ID)
const scopeMatcher = {
  documentIds: eachLike(uuid(DOCUMENT_ID)),
  documents: eachLike({ id: uuid(DOCUMENT_ID), name: string('bob-notes.txt') }),
}

test('creating a session limited to a document answers it with its scope', async () => {
  await createPact()
    .addInteraction()
    .given('alice@example.com is signed in with a synced Drive library')
    .uponReceiving('a request to create a chat session limited to a document')
    .withRequest('POST', '/api/v1/chat/sessions/create', (b) =>
      b.jsonBody({ title: 'About my notes', scope: { documentIds: [documentIdFromState()] } }),
    )
    .willRespondWith(201, (b) =>
      b.jsonBody({ success: true, data: { ...conversationMatcher('About my notes'), scope: scopeMatcher } }),
    )
    .executeTest(async (server) => {
      const conversation = await api(server.url).createConversation('About my notes', [DOCUMENT_ID])
      expect(conversation.scope?.documentIds).toEqual([DOCUMENT_ID])
    })
})

test('listing sessions answers what each one searches', async () => {
  await createPact()
    .addInteraction()
    .given('alice@example.com is signed in with one chat session limited to a document')
    .uponReceiving('a request for all chat sessions, one limited to a document')
    .withRequest('GET', '/api/v1/chat/sessions/all')
    .willRespondWith(200, (b) =>
      b.jsonBody({
        success: true,
        data: eachLike({ ...conversationMatcher('About my notes'), scope: scopeMatcher }),
      }),
    )
    .executeTest(async (server) => {
      const [conversation] = await api(server.url).listConversations()
      expect(conversation?.scope?.documents[0]?.name).toBe('bob-notes.txt')
    })
})

test('limiting a session to a document answers it with its new scope', async () => {
  await createPact()
    .addInteraction()
    .given('alice@example.com is signed in with an empty chat session and a synced Drive library')
    .uponReceiving('a request to limit a chat session to a document')
    .withRequest('PATCH', sessionPath(), (b) =>
      b.jsonBody({ scope: { documentIds: [documentIdFromState()] } }),
    )
    .willRespondWith(200, (b) =>
      b.jsonBody({ success: true, data: { ...conversationMatcher('Empty'), scope: scopeMatcher } }),
    )
    .executeTest(async (server) => {
      const conversation = await api(server.url).setScope(CONVERSATION_ID, [DOCUMENT_ID])
      expect(conversation.scope?.documentIds).toEqual([DOCUMENT_ID])
    })
})

test('lifting the limit answers the session with scope null: it searches the whole library', async () => {
  await createPact()
    .addInteraction()
    .given('alice@example.com is signed in with one chat session limited to a document')
    .uponReceiving('a request to let a chat session search the whole library')
    .withRequest('PATCH', sessionPath(), (b) => b.jsonBody({ scope: null }))
    .willRespondWith(200, (b) =>
      b.jsonBody({ success: true, data: { ...conversationMatcher('About my notes'), scope: null } }),
    )
    .executeTest(async (server) => {
      const conversation = await api(server.url).setScope(CONVERSATION_ID, null)
      expect(conversation.scope).toBeNull()
    })
})

test('a scope naming a document that is not hers answers 400 naming it', async () => {
  await createPact()
    .addInteraction()
    .given('alice@example.com is signed in with an empty chat session')
    .uponReceiving('a request to limit a chat session to a document she does not have')
    .withRequest('PATCH', sessionPath(), (b) => b.jsonBody({ scope: { documentIds: [MISSING_ID] } }))
    .willRespondWith(400, (b) =>
      b.jsonBody({ success: false, message: `Document ${MISSING_ID} is not in your library.` }),
    )
    .executeTest(async (server) => {
      const error = (await api(server.url)
        .setScope(CONVERSATION_ID, [MISSING_ID])
        .catch((e: unknown) => e)) as ApiError
      expect(error.status).toBe(400)
      expect(error.message).toBe(`Document ${MISSING_ID} is not in your library.`)
    })
})
