import { afterAll, beforeAll, expect, test } from 'vitest'
import { chatEndpoints } from '#contracts/chat.ts'
import type { App } from '#server/app.ts'
import {
  call,
  countMessages,
  createConversation,
  errorOf,
  listConversations,
  listMessages,
  sendOk,
} from '../support/chat-helpers.ts'
import { buildTestApp, signUpAndSignIn } from '../support/helper.ts'

let app: App
let alice: string
let bob: string
let aliceConversationId: string
let aliceQuestionId: string
let aliceAnswerId: string

beforeAll(async () => {
  app = await buildTestApp()
  alice = await signUpAndSignIn(app)
  bob = await signUpAndSignIn(app)
  const conversation = await createConversation(app, alice, 'Alice private')
  aliceConversationId = conversation._id
  const { userMessage, aiMessage } = await sendOk(app, alice, conversation._id, 'Alice secret question')
  aliceQuestionId = userMessage._id
  aliceAnswerId = aiMessage._id
})
afterAll(async () => {
  await app.close()
})

/** Bob's answer for Alice's id must be the very answer he gets for an id nobody has. */
async function expectSameAsMissing(
  endpoint: (typeof chatEndpoints)[keyof typeof chatEndpoints],
  id: string,
  body: unknown,
  message: string,
) {
  const theirs = await call(app, endpoint, { cookie: bob, params: { id }, body })
  const missing = await call(app, endpoint, { cookie: bob, params: { id: crypto.randomUUID() }, body })
  expect(theirs.statusCode, endpoint.path).toBe(404)
  expect(errorOf(theirs)).toBe(message)
  expect(theirs.body).toBe(missing.body)
  expect(theirs.statusCode).toBe(missing.statusCode)
}

test("another user's conversation answers 404 exactly like a missing one, for every call", async () => {
  const send = { content: 'Let me in', isUser: true, messageType: 'text' }
  await expectSameAsMissing(
    chatEndpoints.listMessages,
    aliceConversationId,
    undefined,
    'Conversation not found',
  )
  await expectSameAsMissing(chatEndpoints.sendMessage, aliceConversationId, send, 'Conversation not found')
  await expectSameAsMissing(
    chatEndpoints.deleteConversation,
    aliceConversationId,
    undefined,
    'Conversation not found',
  )
})

test("another user's message answers 404 exactly like a missing one, answer or question", async () => {
  for (const id of [aliceAnswerId, aliceQuestionId]) {
    await expectSameAsMissing(chatEndpoints.setFeedback, id, { feedback: 'dislike' }, 'Message not found')
  }
})

test("a message id is not a conversation id: Bob cannot reach Alice's messages by any id of hers", async () => {
  for (const id of [aliceAnswerId, aliceQuestionId]) {
    const response = await call(app, chatEndpoints.listMessages, { cookie: bob, params: { id } })
    expect(response.statusCode).toBe(404)
  }
  const response = await call(app, chatEndpoints.setFeedback, {
    cookie: bob,
    params: { id: aliceConversationId },
    body: { feedback: 'like' },
  })
  expect(response.statusCode).toBe(404)
})

test("Bob's attempts leave Alice's conversation exactly as it was", async () => {
  const messages = await listMessages(app, alice, aliceConversationId)
  expect(messages.map((m) => m.feedback)).toEqual([null, null])
  expect(messages.map((m) => m.content)[0]).toBe('Alice secret question')
  expect(await countMessages(app, aliceConversationId)).toBe(2)
  expect((await listConversations(app, alice)).map((s) => s._id)).toContain(aliceConversationId)
})

test("Alice's conversations never appear in Bob's list, and Bob's never in Alice's", async () => {
  const bobConversation = await createConversation(app, bob, 'Bob own')
  await sendOk(app, bob, bobConversation._id, 'Bob question')
  expect((await listConversations(app, bob)).map((s) => s._id)).toEqual([bobConversation._id])
  expect((await listConversations(app, alice)).map((s) => s._id)).not.toContain(bobConversation._id)
})
