import { afterAll, beforeAll, expect, test } from 'vitest'
import { chatEndpoints, LAST_MESSAGE_PREVIEW_LENGTH, TITLE_MAX_LENGTH } from '#contracts/chat.ts'
import type { App } from '#server/app.ts'
import {
  call,
  conversationExists,
  countMessages,
  createConversation,
  errorOf,
  listConversations,
  listMessages,
  sendOk,
} from '../support/chat-helpers.ts'
import { buildTestApp, signUpAndSignIn } from '../support/helper.ts'

const { createConversation: create, deleteConversation } = chatEndpoints

// The app's clock moves one second per reading, so every write has its own instant and the
// "newest first" order is certain (real time can give two writes the same millisecond).
let clock = Date.now()
let app: App
let cookie: string

beforeAll(async () => {
  app = await buildTestApp({
    now: () => {
      clock += 1000
      return new Date(clock)
    },
  })
  cookie = await signUpAndSignIn(app)
})
afterAll(async () => {
  await app.close()
})

test('creating a conversation answers 201 with the new, empty conversation', async () => {
  const response = await call(app, create, { cookie, body: { title: 'What is in my notes?' } })
  expect(response.statusCode).toBe(201)
  const conversation = create.response.parse(response.json()).data
  expect(conversation).toMatchObject({ title: 'What is in my notes?', messageCount: 0, lastMessage: '' })
  expect(conversation._id).toMatch(/^[0-9a-f-]{36}$/)
  expect(conversation.updatedAt).toBe(conversation.createdAt)
  expect(new Date(conversation.createdAt).toISOString()).toBe(conversation.createdAt)
})

test('a title is trimmed, kept on one line, and shortened to the limit with an ellipsis', async () => {
  expect((await createConversation(app, cookie, '  Hello\n\n  there  ')).title).toBe('Hello there')
  const long = await createConversation(app, cookie, `${'word '.repeat(100)}end`)
  expect(Array.from(long.title)).toHaveLength(TITLE_MAX_LENGTH)
  expect(long.title.endsWith('…')).toBe(true)
  expect(long.title.startsWith('word word')).toBe(true)
  // An emoji straddling the cut is kept whole or dropped, never split into half a surrogate pair.
  const emoji = await createConversation(app, cookie, '😀'.repeat(TITLE_MAX_LENGTH + 5))
  expect(emoji.title).toBe(`${'😀'.repeat(TITLE_MAX_LENGTH - 1)}…`)
  const exact = 'x'.repeat(TITLE_MAX_LENGTH)
  expect((await createConversation(app, cookie, exact)).title).toBe(exact)
})

test.each([
  [{ title: '' }, 'Title is required'],
  [{ title: '   ' }, 'Title is required'],
  [{}, 'Title is required'],
  [{ title: 'x'.repeat(8001) }, 'Title must be at most 8000 characters'],
  [{ title: 'ok', extra: 1 }, 'Unknown field: extra'],
])('creating with %j answers 400: %s', async (body, message) => {
  const response = await call(app, create, { cookie, body })
  expect(response.statusCode).toBe(400)
  expect(errorOf(response)).toBe(message)
})

test('every chat call needs a signed-in user', async () => {
  const id = '6d1c7b1e-5b7a-4f0e-9d55-0b7c2f1a9e01'
  for (const [endpoint, body] of [
    [chatEndpoints.createConversation, { title: 'x' }],
    [chatEndpoints.listConversations, undefined],
    [chatEndpoints.deleteConversation, undefined],
    [chatEndpoints.listMessages, undefined],
    [chatEndpoints.sendMessage, { content: 'x', isUser: true, messageType: 'text' }],
    [chatEndpoints.setFeedback, { feedback: 'like' }],
  ] as const) {
    const response = await call(app, endpoint, { params: { id }, body })
    expect(response.statusCode, endpoint.path).toBe(401)
    expect(errorOf(response)).toBe('Not signed in')
  }
})

test('the list shows the newest conversation first, with its message count and last message', async () => {
  const me = await signUpAndSignIn(app)
  const older = await createConversation(app, me, 'Older')
  const newer = await createConversation(app, me, 'Newer')
  expect((await listConversations(app, me)).map((s) => s.title)).toEqual(['Newer', 'Older'])

  // Answering the older one moves it to the top and its updatedAt forward.
  const { aiMessage } = await sendOk(app, me, older._id, 'Hello there')
  const conversations = await listConversations(app, me)
  expect(conversations.map((s) => s.title)).toEqual(['Older', 'Newer'])
  const [top, second] = conversations
  expect(top?.messageCount).toBe(2)
  expect(top?.lastMessage).toBe(aiMessage.content.slice(0, LAST_MESSAGE_PREVIEW_LENGTH))
  expect(Date.parse(top?.updatedAt ?? '')).toBeGreaterThan(Date.parse(older.updatedAt))
  expect(top?.createdAt).toBe(older.createdAt)
  expect(second).toEqual(newer)
})

test('the last message preview is the start of the newest message', async () => {
  const me = await signUpAndSignIn(app)
  const conversation = await createConversation(app, me, 'Preview')
  await sendOk(app, me, conversation._id, 'First question')
  const [listed] = await listConversations(app, me)
  const messages = await listMessages(app, me, conversation._id)
  expect(listed?.lastMessage).toBe(messages.at(-1)?.content.slice(0, LAST_MESSAGE_PREVIEW_LENGTH))
  expect(listed?.lastMessage.length).toBeLessThanOrEqual(LAST_MESSAGE_PREVIEW_LENGTH)
})

test('a new user has no conversations', async () => {
  expect(await listConversations(app, await signUpAndSignIn(app))).toEqual([])
})

test('deleting a conversation answers success and removes it with all its messages', async () => {
  const me = await signUpAndSignIn(app)
  const doomed = await createConversation(app, me, 'Doomed')
  const kept = await createConversation(app, me, 'Kept')
  await sendOk(app, me, doomed._id, 'One')
  await sendOk(app, me, doomed._id, 'Two')
  await sendOk(app, me, kept._id, 'Three')
  expect(await countMessages(app, doomed._id)).toBe(4)

  const response = await call(app, deleteConversation, { cookie: me, params: { id: doomed._id } })
  expect(response.statusCode).toBe(200)
  expect(deleteConversation.response.parse(response.json())).toEqual({ success: true, data: null })

  expect(await conversationExists(app, doomed._id)).toBe(false)
  expect(await countMessages(app, doomed._id)).toBe(0)
  expect(await countMessages(app, kept._id)).toBe(2)
  expect((await listConversations(app, me)).map((s) => s.title)).toEqual(['Kept'])

  const again = await call(app, deleteConversation, { cookie: me, params: { id: doomed._id } })
  expect(again.statusCode).toBe(404)
  expect(errorOf(again)).toBe('Conversation not found')
})

test.each([['not-a-uuid'], ['123'], ['6d1c7b1e-5b7a-4f0e-9d55-0b7c2f1a9e0']])(
  'a malformed id (%s) answers 400 on every call that takes one',
  async (id) => {
    for (const [endpoint, body] of [
      [chatEndpoints.deleteConversation, undefined],
      [chatEndpoints.listMessages, undefined],
      [chatEndpoints.sendMessage, { content: 'x', isUser: true, messageType: 'text' }],
      [chatEndpoints.setFeedback, { feedback: 'like' }],
    ] as const) {
      const response = await call(app, endpoint, { cookie, params: { id }, body })
      expect(response.statusCode, endpoint.path).toBe(400)
      expect(errorOf(response)).toBe('Not a valid id')
    }
  },
)

test('a missing conversation id answers 404 on every call that takes one', async () => {
  const id = crypto.randomUUID()
  for (const endpoint of [chatEndpoints.deleteConversation, chatEndpoints.listMessages]) {
    const response = await call(app, endpoint, { cookie, params: { id } })
    expect(response.statusCode).toBe(404)
    expect(errorOf(response)).toBe('Conversation not found')
  }
})
