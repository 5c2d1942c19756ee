import { afterAll, beforeAll, expect, test } from 'vitest'
import { chatEndpoints, MESSAGE_MAX_LENGTH } from '#contracts/chat.ts'
import { NO_MODEL_NOTE, NOTHING_FOUND_NO_DRIVE_REPLY } from '#server/answering/extractive.ts'
import type { App } from '#server/app.ts'
import { indexDocument } from '#server/documents/index/index-document.ts'
import {
  call,
  countMessages,
  createConversation,
  errorOf,
  listConversations,
  listMessages,
  send,
  sendOk,
} from '../support/chat-helpers.ts'
import { buildTestApp, register, signIn, uniqueEmail } from '../support/helper.ts'

const { sendMessage, setFeedback } = chatEndpoints

let app: App
let cookie: string
let userId: string

beforeAll(async () => {
  app = await buildTestApp()
  const email = uniqueEmail()
  userId = (await register(app, email))._id
  cookie = (await signIn(app, email)).cookie
})
afterAll(async () => {
  await app.close()
})

test('sending stores the message and answers it with the reply; with no model, no documents and no Google Drive on this server the reply says to upload', async () => {
  const conversation = await createConversation(app, cookie)
  const response = await send(app, cookie, conversation._id, 'Hello there')
  expect(response.statusCode).toBe(200)
  const { userMessage, aiMessage } = sendMessage.response.parse(response.json()).data
  expect(userMessage).toMatchObject({
    isUser: true,
    content: 'Hello there',
    messageType: 'text',
    feedback: null,
    sources: [],
  })
  expect(aiMessage).toMatchObject({
    isUser: false,
    content: NOTHING_FOUND_NO_DRIVE_REPLY,
    messageType: 'text',
    feedback: null,
    sources: [],
  })
  expect(Date.parse(aiMessage.createdAt)).toBeGreaterThan(Date.parse(userMessage.createdAt))

  expect(await listMessages(app, cookie, conversation._id)).toEqual([userMessage, aiMessage])
})

test('messages come back oldest first, question before answer', async () => {
  const conversation = await createConversation(app, cookie)
  await sendOk(app, cookie, conversation._id, 'one')
  await sendOk(app, cookie, conversation._id, 'two')
  await sendOk(app, cookie, conversation._id, 'three')
  const messages = await listMessages(app, cookie, conversation._id)
  expect(messages.map((m) => (m.isUser ? m.content : 'answer'))).toEqual([
    'one',
    'answer',
    'two',
    'answer',
    'three',
    'answer',
  ])
  const times = messages.map((m) => Date.parse(m.createdAt))
  expect(times).toEqual([...times].sort((a, b) => a - b))
})

test('a new conversation has no messages', async () => {
  const conversation = await createConversation(app, cookie)
  expect(await listMessages(app, cookie, conversation._id)).toEqual([])
})

test('content is stored as sent, up to the maximum length', async () => {
  const conversation = await createConversation(app, cookie)
  const longest = `  ${'a'.repeat(MESSAGE_MAX_LENGTH - 4)}\n `
  const { userMessage } = await sendOk(app, cookie, conversation._id, longest)
  expect(userMessage.content).toBe(longest)
})

test.each([
  [{ content: '', isUser: true, messageType: 'text' }, 'Message cannot be empty'],
  [{ content: '   \n\t ', isUser: true, messageType: 'text' }, 'Message cannot be empty'],
  [
    { content: 'x'.repeat(MESSAGE_MAX_LENGTH + 1), isUser: true, messageType: 'text' },
    `Message must be at most ${MESSAGE_MAX_LENGTH} characters`,
  ],
  [{ isUser: true, messageType: 'text' }, 'Message content is required'],
  [{ content: 42, isUser: true, messageType: 'text' }, 'Message content is required'],
  [{ content: 'hi', isUser: false, messageType: 'text' }, 'isUser must be true: only people send messages'],
  [{ content: 'hi', messageType: 'text' }, 'isUser must be true: only people send messages'],
  [{ content: 'hi', isUser: true, messageType: 'image' }, 'messageType must be "text"'],
  [{ content: 'hi', isUser: true }, 'messageType must be "text"'],
  [{ content: 'hi', isUser: true, messageType: 'text', sessionId: 'x' }, 'Unknown field: sessionId'],
])('sending %j answers 400 and stores nothing', async (body, message) => {
  const conversation = await createConversation(app, cookie)
  const response = await call(app, sendMessage, { cookie, params: { id: conversation._id }, body })
  expect(response.statusCode).toBe(400)
  expect(errorOf(response)).toBe(message)
  expect(await countMessages(app, conversation._id)).toBe(0)
})

test('a body that is not a JSON object answers 400', async () => {
  const conversation = await createConversation(app, cookie)
  const response = await call(app, sendMessage, { cookie, params: { id: conversation._id }, body: ['hi'] })
  expect(response.statusCode).toBe(400)
  expect(errorOf(response)).toBe('The request body must be a JSON object')
})

test('sending to a missing conversation answers 404 and stores nothing', async () => {
  const before = await countMessages(app)
  const response = await send(app, cookie, crypto.randomUUID(), 'Hello?')
  expect(response.statusCode).toBe(404)
  expect(errorOf(response)).toBe('Conversation not found')
  expect(await countMessages(app)).toBe(before)
})

test('with an indexed document and no model, the reply quotes it and its sources name it', async () => {
  const { documentId } = await indexDocument(app.db, {
    userId,
    source: 'test',
    externalId: 'travel-policy',
    name: 'Travel policy.pdf',
    mimeType: 'application/pdf',
    link: 'https://drive.example.com/travel-policy',
    sections: [
      { page: 1, text: 'Employees travel in economy class. Trains are preferred under four hours.' },
      { page: 2, text: 'The daily meal allowance abroad is 45 euros. Receipts are kept for a year.' },
    ],
  })
  const conversation = await createConversation(app, cookie)
  const { aiMessage } = await sendOk(app, cookie, conversation._id, 'What is the meal allowance abroad?')
  expect(aiMessage.content.startsWith(NO_MODEL_NOTE)).toBe(true)
  expect(aiMessage.content).toContain('The daily meal allowance abroad is 45 euros.')
  expect(aiMessage.content).toContain('Travel policy.pdf, p. 2')
  expect(aiMessage.sources).toEqual([
    {
      documentId,
      documentName: 'Travel policy.pdf',
      chunkId: expect.any(String),
      page: 2,
      link: 'https://drive.example.com/travel-policy',
      // Quoted, not cited: an extractive answer has no [n] markers.
      citation: null,
      heading: null,
      quote: expect.stringContaining('The daily meal allowance abroad is 45 euros.'),
      // Ranked for the question: the conversation searches the whole library.
      mode: 'ranked',
    },
  ])
  // Stored with the answer: listing the messages gives the same sources.
  expect((await listMessages(app, cookie, conversation._id)).at(-1)?.sources).toEqual(aiMessage.sources)
})

test('an answer keeps its sources after the document is re-ingested', async () => {
  const doc = {
    userId,
    source: 'test',
    externalId: 'handbook',
    name: 'Handbook.txt',
    mimeType: 'text/plain',
    sections: [{ page: null, text: 'The office opens at eight in the morning on weekdays.' }],
  }
  await indexDocument(app.db, doc)
  const conversation = await createConversation(app, cookie)
  const { aiMessage } = await sendOk(app, cookie, conversation._id, 'When does the office open?')
  expect(aiMessage.sources.map((s) => s.documentName)).toEqual(['Handbook.txt'])

  await indexDocument(app.db, {
    ...doc,
    name: 'Handbook v2.txt',
    sections: [{ page: null, text: 'Closed.' }],
  })
  const [, stored] = await listMessages(app, cookie, conversation._id)
  expect(stored?.sources).toEqual(aiMessage.sources)
})

test('liking and then disliking an answer stores the latest rating', async () => {
  const conversation = await createConversation(app, cookie)
  const { aiMessage } = await sendOk(app, cookie, conversation._id, 'Rate me')
  const liked = await call(app, setFeedback, {
    cookie,
    params: { id: aiMessage._id },
    body: { feedback: 'like' },
  })
  expect(liked.statusCode).toBe(200)
  expect(setFeedback.response.parse(liked.json()).data).toEqual({ ...aiMessage, feedback: 'like' })

  const disliked = await call(app, setFeedback, {
    cookie,
    params: { id: aiMessage._id },
    body: { feedback: 'dislike' },
  })
  expect(setFeedback.response.parse(disliked.json()).data.feedback).toBe('dislike')
  expect((await listMessages(app, cookie, conversation._id)).map((m) => m.feedback)).toEqual([
    null,
    'dislike',
  ])
})

test('feedback on one of your own messages answers 400 and changes nothing', async () => {
  const conversation = await createConversation(app, cookie)
  const { userMessage } = await sendOk(app, cookie, conversation._id, 'My own words')
  const response = await call(app, setFeedback, {
    cookie,
    params: { id: userMessage._id },
    body: { feedback: 'like' },
  })
  expect(response.statusCode).toBe(400)
  expect(errorOf(response)).toBe("Only the assistant's answers can be rated, not your own messages.")
  expect((await listMessages(app, cookie, conversation._id))[0]?.feedback).toBeNull()
})

test.each([
  [{ feedback: 'love' }, 'Feedback must be "like" or "dislike"'],
  [{ feedback: null }, 'Feedback must be "like" or "dislike"'],
  [{}, 'Feedback must be "like" or "dislike"'],
  [{ feedback: 'like', note: 'x' }, 'Unknown field: note'],
])('feedback %j answers 400', async (body, message) => {
  const conversation = await createConversation(app, cookie)
  const { aiMessage } = await sendOk(app, cookie, conversation._id, 'Rate me')
  const response = await call(app, setFeedback, { cookie, params: { id: aiMessage._id }, body })
  expect(response.statusCode).toBe(400)
  expect(errorOf(response)).toBe(message)
})

test('feedback on a missing message answers 404', async () => {
  const response = await call(app, setFeedback, {
    cookie,
    params: { id: crypto.randomUUID() },
    body: { feedback: 'like' },
  })
  expect(response.statusCode).toBe(404)
  expect(errorOf(response)).toBe('Message not found')
})

test('a feedback does not move the conversation in the list', async () => {
  const conversation = await createConversation(app, cookie, 'Rated later')
  const { aiMessage } = await sendOk(app, cookie, conversation._id, 'Rate me')
  const before = (await listConversations(app, cookie)).find((s) => s._id === conversation._id)
  await call(app, setFeedback, { cookie, params: { id: aiMessage._id }, body: { feedback: 'like' } })
  const after = (await listConversations(app, cookie)).find((s) => s._id === conversation._id)
  expect(after?.updatedAt).toBe(before?.updatedAt)
})
