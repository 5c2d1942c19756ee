import { afterAll, beforeAll, expect, test } from 'vitest'
import { chatEndpoints } from '#contracts/chat.ts'
import type { App } from '#server/app.ts'
import {
  call,
  countMessages,
  createSession,
  errorOf,
  listMessages,
  listSessions,
  sendOk,
} from './chat-helpers.ts'
import { buildTestApp, signUpAndSignIn } from './helper.ts'

let app: App
let alice: string
let bob: string
let aliceSessionId: string
let aliceQuestionId: string
let aliceAnswerId: string

beforeAll(async () => {
  app = await buildTestApp()
  alice = await signUpAndSignIn(app)
  bob = await signUpAndSignIn(app)
  const session = await createSession(app, alice, 'Alice private')
  aliceSessionId = session._id
  const { userMessage, aiMessage } = await sendOk(app, alice, session._id, 'Alice secret question')
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

test("another user's session answers 404 exactly like a missing one, for every call", async () => {
  const send = { content: 'Let me in', isUser: true, messageType: 'text' }
  await expectSameAsMissing(chatEndpoints.listMessages, aliceSessionId, undefined, 'Conversation not found')
  await expectSameAsMissing(chatEndpoints.sendMessage, aliceSessionId, send, 'Conversation not found')
  await expectSameAsMissing(
    chatEndpoints.deleteConversation,
    aliceSessionId,
    undefined,
    'Conversation not found',
  )
})

test("another user's message answers 404 exactly like a missing one, answer or question", async () => {
  for (const id of [aliceAnswerId, aliceQuestionId]) {
    await expectSameAsMissing(chatEndpoints.setFeedback, id, { feedback: 'dislike' }, 'Message not found')
  }
})

test("a message id is not a session id: Bob cannot reach Alice's messages by any id of hers", async () => {
  for (const id of [aliceAnswerId, aliceQuestionId]) {
    const response = await call(app, chatEndpoints.listMessages, { cookie: bob, params: { id } })
    expect(response.statusCode).toBe(404)
  }
  const response = await call(app, chatEndpoints.setFeedback, {
    cookie: bob,
    params: { id: aliceSessionId },
    body: { feedback: 'like' },
  })
  expect(response.statusCode).toBe(404)
})

test("Bob's attempts leave Alice's conversation exactly as it was", async () => {
  const messages = await listMessages(app, alice, aliceSessionId)
  expect(messages.map((m) => m.feedback)).toEqual([null, null])
  expect(messages.map((m) => m.content)[0]).toBe('Alice secret question')
  expect(await countMessages(app, aliceSessionId)).toBe(2)
  expect((await listSessions(app, alice)).map((s) => s._id)).toContain(aliceSessionId)
})

test("Alice's sessions never appear in Bob's list, and Bob's never in Alice's", async () => {
  const bobSession = await createSession(app, bob, 'Bob own')
  await sendOk(app, bob, bobSession._id, 'Bob question')
  expect((await listSessions(app, bob)).map((s) => s._id)).toEqual([bobSession._id])
  expect((await listSessions(app, alice)).map((s) => s._id)).not.toContain(bobSession._id)
})
