/**
 * Answer versions and the reason for a dislike (D93): Regenerate keeps the earlier answer, the
 * version shown is stored (every reader sees it: the messages, the list, follow-ups), an answer
 * keeps at most MAX_ANSWER_VERSIONS, and a dislike may say why, beside the spec's feedback call.
 */
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { AccountExportSchema, accountEndpoints } from '#contracts/account.ts'
import {
  chatEndpoints,
  DISLIKE_NOTE_MAX_LENGTH,
  MAX_ANSWER_VERSIONS,
  type Message,
  type StreamEvent,
} from '#contracts/chat.ts'
import { fillPath } from '#contracts/endpoint.ts'
import { parseEventStream } from '#contracts/event-stream.ts'
import { sharingEndpoints } from '#contracts/sharing.ts'
import type { App } from '#server/app.ts'
import {
  ANSWER_IN_PROGRESS,
  noSuchVersion,
  ONLY_ANSWERS_HAVE_VERSIONS,
  ONLY_ANSWERS_RATED,
  ONLY_DISLIKES_EXPLAINED,
  TOO_MANY_VERSIONS,
} from '#server/chat/chat-errors.ts'
import { chatAnswerVersions, chatConversations } from '#server/db/schema.ts'
import { type FakeLlm, startFakeLlm } from '#tests/fakes/openai-compatible.ts'
import {
  call,
  createConversation,
  errorOf,
  indexTravelPolicy,
  listConversations,
  listMessages,
  modelEnv,
  sendOk,
} from '../support/chat-helpers.ts'
import { buildTestApp, register, signIn, signUpAndSignIn, uniqueEmail } from '../support/helper.ts'

let llm: FakeLlm
let app: App
let cookie: string
/** The same person signed in a second time: another device. */
let otherDevice: string

beforeAll(async () => {
  llm = await startFakeLlm()
  app = await buildTestApp({ env: modelEnv(llm, { LLM_TIMEOUT_MS: '5000' }) })
  const email = uniqueEmail()
  const userId = (await register(app, email))._id
  cookie = (await signIn(app, email)).cookie
  otherDevice = (await signIn(app, email)).cookie
  await indexTravelPolicy(app, userId)
}, 60_000)
afterAll(async () => {
  await app?.close()
  await llm?.close()
})

async function regenerate(conversationId: string, messageId: string, text: string): Promise<Message> {
  llm.reply({ kind: 'text', text })
  const response = await call(app, chatEndpoints.regenerateMessage, {
    cookie,
    params: { id: conversationId, messageId },
  })
  const done = parseEventStream(response.body).at(-1) as StreamEvent
  if (done.event !== 'done') throw new Error(`regenerate failed: ${response.statusCode} ${response.body}`)
  return done.data.aiMessage
}

function showVersion(messageId: string, body: unknown, who = cookie) {
  return call(app, chatEndpoints.showAnswerVersion, { cookie: who, params: { id: messageId }, body })
}

function explain(messageId: string, body: unknown, who = cookie) {
  return call(app, chatEndpoints.explainDislike, { cookie: who, params: { id: messageId }, body })
}

function rate(messageId: string, feedback: 'like' | 'dislike') {
  return call(app, chatEndpoints.setFeedback, { cookie, params: { id: messageId }, body: { feedback } })
}

const messageOf = (response: { json: () => unknown }) =>
  chatEndpoints.showAnswerVersion.response.parse(response.json()).data

/** One question answered once, in a conversation of its own. */
async function answered(first = 'Economy class on short flights [1].', asked = 'Which class do I fly in?') {
  const conversation = await createConversation(app, cookie, 'Versions')
  llm.reply({ kind: 'text', text: first })
  const { userMessage, aiMessage } = await sendOk(app, cookie, conversation._id, asked)
  return { conversationId: conversation._id, question: userMessage, answer: aiMessage }
}

test('regenerate keeps the earlier answer: version 2 of 2 is shown, and version 1 comes back with its sources and feedback', async () => {
  // Asked both, the model is given the meal allowance's page as [1] and economy class's as [2].
  const { conversationId, question, answer } = await answered(
    'Economy class on short flights [2].',
    'Which class do I fly in, and what is the meal allowance abroad?',
  )
  expect(answer).toMatchObject({ version: 1, versionCount: 1, feedbackReason: null, feedbackNote: null })
  expect(answer.sources).toEqual([expect.objectContaining({ citation: 2 })])
  await rate(answer._id, 'dislike')
  expect(
    (await explain(answer._id, { reason: 'incomplete', note: 'Says nothing about long flights.' }))
      .statusCode,
  ).toBe(200)

  // Each cites the passage that holds its words: the citation check (D129, D141) leaves its marker.
  const second = await regenerate(conversationId, answer._id, 'Meals abroad are paid by the day [1].')
  expect(second).toMatchObject({
    _id: answer._id,
    content: 'Meals abroad are paid by the day [1].',
    version: 2,
    versionCount: 2,
    feedback: null,
    feedbackReason: null,
  })
  expect(second.sources).toEqual([expect.objectContaining({ citation: 1 })])
  expect(second.sources[0]?.chunkId).not.toBe(answer.sources[0]?.chunkId)

  const back = await showVersion(answer._id, { version: 1 })
  expect(back.statusCode).toBe(200)
  expect(messageOf(back)).toEqual({
    ...answer,
    feedback: 'dislike',
    feedbackReason: 'incomplete',
    feedbackNote: 'Says nothing about long flights.',
    versionCount: 2,
  })

  // Stored: another device, a reload and the conversation list read the version shown.
  expect(await listMessages(app, otherDevice, conversationId)).toEqual([question, messageOf(back)])
  const listed = (await listConversations(app, otherDevice)).find((c) => c._id === conversationId)
  expect(listed?.lastMessage).toBe('Economy class on short flights [2].')

  // The conversation's export (issue 21) reads what is shown too.
  const exported = await app.inject({
    method: 'GET',
    url: `${fillPath(sharingEndpoints.exportConversation.path, { id: conversationId })}?format=md`,
    headers: { cookie },
  })
  expect(exported.statusCode).toBe(200)
  expect(exported.body).toContain('Economy class on short flights')
  expect(exported.body).not.toContain('Meals abroad are paid')

  // Forward again: version 2 as it was, without version 1's feedback.
  const forward = messageOf(await showVersion(answer._id, { version: 2 }))
  expect(forward).toEqual(second)
  // The same version again changes nothing.
  expect(messageOf(await showVersion(answer._id, { version: 2 }))).toEqual(second)
})

test('a follow-up is asked with the version shown, and regenerating from version 1 adds version 3', async () => {
  const { conversationId, answer } = await answered('Economy, as a rule [1].')
  await regenerate(conversationId, answer._id, 'Business class on long flights.')
  await showVersion(answer._id, { version: 1 })

  llm.reply({ kind: 'text', text: 'Yes, on every flight.' })
  await sendOk(app, cookie, conversationId, 'Is that the same for trains?')
  const history = llm.requests.at(-1)?.body.messages.filter((m) => m.role === 'assistant')
  expect(history?.map((m) => m.content)).toEqual(['Economy, as a rule [1].'])

  // Older answers keep their versions and can still be shown; only the last is written again.
  expect(messageOf(await showVersion(answer._id, { version: 2 })).content).toBe(
    'Business class on long flights.',
  )

  const { conversationId: again, answer: other } = await answered('One.')
  await regenerate(again, other._id, 'Two.')
  await showVersion(other._id, { version: 1 })
  const third = await regenerate(again, other._id, 'Three.')
  expect(third).toMatchObject({ content: 'Three.', version: 3, versionCount: 3 })
  const versions = await app.db
    .select({ position: chatAnswerVersions.position, content: chatAnswerVersions.content })
    .from(chatAnswerVersions)
    .where(eq(chatAnswerVersions.messageId, other._id))
    .orderBy(chatAnswerVersions.position)
  expect(versions).toEqual([
    { position: 1, content: 'One.' },
    { position: 2, content: 'Two.' },
    { position: 3, content: 'Three.' },
  ])
})

test(`an answer keeps at most ${MAX_ANSWER_VERSIONS} versions: one more is refused with 409 and nothing is dropped`, async () => {
  const { conversationId, answer } = await answered('Version 1.')
  for (let n = 2; n <= MAX_ANSWER_VERSIONS; n++) await regenerate(conversationId, answer._id, `Version ${n}.`)
  const asked = llm.requests.length

  const refused = await call(app, chatEndpoints.regenerateMessage, {
    cookie,
    params: { id: conversationId, messageId: answer._id },
  })
  expect(refused.statusCode).toBe(409)
  expect(errorOf(refused)).toBe(TOO_MANY_VERSIONS)
  expect(llm.requests.length).toBe(asked)
  const [, last] = await listMessages(app, cookie, conversationId)
  expect(last).toMatchObject({ content: `Version ${MAX_ANSWER_VERSIONS}.`, version: 10, versionCount: 10 })
  expect(messageOf(await showVersion(answer._id, { version: 1 })).content).toBe('Version 1.')
  // The claim was released: the conversation takes a new question at once.
  llm.reply({ kind: 'text', text: 'Fine.' })
  await sendOk(app, cookie, conversationId, 'Thanks')
})

test('showing a version: bad input is a 400 with a sentence, someone else’s answer a 404, and not while answering', async () => {
  const { conversationId, question, answer } = await answered()
  await regenerate(conversationId, answer._id, 'Another try.')

  for (const body of [
    { version: 0 },
    { version: 11 },
    { version: 1.5 },
    { version: '1' },
    {},
    { version: 1, x: 1 },
  ]) {
    const response = await showVersion(answer._id, body)
    expect(response.statusCode, JSON.stringify(body)).toBe(400)
    expect(errorOf(response)).not.toBe('')
  }
  const beyond = await showVersion(answer._id, { version: 3 })
  expect(beyond.statusCode).toBe(400)
  expect(errorOf(beyond)).toBe(noSuchVersion(2))

  const ofQuestion = await showVersion(question._id, { version: 1 })
  expect(ofQuestion.statusCode).toBe(400)
  expect(errorOf(ofQuestion)).toBe(ONLY_ANSWERS_HAVE_VERSIONS)

  const stranger = await signUpAndSignIn(app)
  expect((await showVersion(answer._id, { version: 1 }, stranger)).statusCode).toBe(404)
  expect((await showVersion('6d1c7b1e-5b7a-4f0e-9d55-0b7c2f1a9e01', { version: 1 })).statusCode).toBe(404)
  expect((await showVersion('not-an-id', { version: 1 })).statusCode).toBe(400)

  // While an answer is being written in the conversation, the version shown stays.
  await app.db
    .update(chatConversations)
    .set({ answeringUntil: new Date(Date.now() + 60_000) })
    .where(eq(chatConversations.id, conversationId))
  const busy = await showVersion(answer._id, { version: 1 })
  expect(busy.statusCode).toBe(409)
  expect(errorOf(busy)).toBe(ANSWER_IN_PROGRESS)
  await app.db
    .update(chatConversations)
    .set({ answeringUntil: null })
    .where(eq(chatConversations.id, conversationId))
  expect((await listMessages(app, cookie, conversationId))[1]).toMatchObject({
    content: 'Another try.',
    version: 2,
  })
})

test('a dislike may say why; the spec’s feedback call is unchanged, and a like takes the reason away', async () => {
  const { question, answer } = await answered()
  const early = await explain(answer._id, { reason: 'incorrect' })
  expect(early.statusCode).toBe(400)
  expect(errorOf(early)).toBe(ONLY_DISLIKES_EXPLAINED)

  const disliked = await rate(answer._id, 'dislike')
  expect(disliked.statusCode).toBe(200)
  expect(chatEndpoints.setFeedback.response.parse(disliked.json()).data.feedback).toBe('dislike')

  const badBodies = [
    {},
    { reason: null, note: '   ' },
    { reason: 'rude' },
    { note: 'x'.repeat(DISLIKE_NOTE_MAX_LENGTH + 1) },
    { note: 'a\u0000b' },
    { reason: 'other', extra: true },
    { note: 42 },
  ]
  for (const body of badBodies) {
    const response = await explain(answer._id, body)
    expect(response.statusCode, JSON.stringify(body)).toBe(400)
    expect(errorOf(response)).not.toBe('')
  }

  const onlyNote = await explain(answer._id, { note: `  ${'y'.repeat(DISLIKE_NOTE_MAX_LENGTH)}  ` })
  expect(onlyNote.statusCode).toBe(200)
  expect(messageOf(onlyNote)).toMatchObject({
    feedbackReason: null,
    feedbackNote: 'y'.repeat(DISLIKE_NOTE_MAX_LENGTH),
  })
  const both = messageOf(
    await explain(answer._id, { reason: 'unsupported', note: 'Cites page 1 for page 2.' }),
  )
  expect(both).toMatchObject({
    feedback: 'dislike',
    feedbackReason: 'unsupported',
    feedbackNote: 'Cites page 1 for page 2.',
  })
  const onlyReason = messageOf(await explain(answer._id, { reason: 'other' }))
  expect(onlyReason).toMatchObject({ feedbackReason: 'other', feedbackNote: null })

  const ofQuestion = await explain(question._id, { reason: 'other' })
  expect(ofQuestion.statusCode).toBe(400)
  expect(errorOf(ofQuestion)).toBe(ONLY_ANSWERS_RATED)
  const stranger = await signUpAndSignIn(app)
  expect((await explain(answer._id, { reason: 'other' }, stranger)).statusCode).toBe(404)

  const liked = chatEndpoints.setFeedback.response.parse((await rate(answer._id, 'like')).json()).data
  expect(liked).toMatchObject({ feedback: 'like', feedbackReason: null, feedbackNote: null })
})

test('the account export holds every version of an answer, each with its own feedback and reason', async () => {
  const email = uniqueEmail()
  await register(app, email)
  const own = (await signIn(app, email)).cookie
  const conversation = await createConversation(app, own, 'Export')
  llm.reply({ kind: 'text', text: 'First.' })
  const { aiMessage } = await sendOk(app, own, conversation._id, 'Hello?')
  await call(app, chatEndpoints.setFeedback, {
    cookie: own,
    params: { id: aiMessage._id },
    body: { feedback: 'dislike' },
  })
  await explain(aiMessage._id, { reason: 'incorrect', note: 'Wrong.' }, own)
  llm.reply({ kind: 'text', text: 'Second.' })
  await call(app, chatEndpoints.regenerateMessage, {
    cookie: own,
    params: { id: conversation._id, messageId: aiMessage._id },
  })
  await call(app, chatEndpoints.setFeedback, {
    cookie: own,
    params: { id: aiMessage._id },
    body: { feedback: 'like' },
  })

  const data = AccountExportSchema.parse(
    (await call(app, accountEndpoints.exportAccount, { cookie: own })).json(),
  )
  const answer = data.conversations[0]?.messages[1]
  expect(answer).toMatchObject({ content: 'Second.', feedback: 'like', feedbackReason: null, version: 2 })
  expect(
    answer?.versions?.map((v) => [v.version, v.content, v.feedback, v.feedbackReason, v.feedbackNote]),
  ).toEqual([
    [1, 'First.', 'dislike', 'incorrect', 'Wrong.'],
    [2, 'Second.', 'like', null, null],
  ])
  expect(data.conversations[0]?.messages[0]?.versions).toBeUndefined()
})
