/**
 * The streamed send (POST /chat/sessions/:id/messages/stream) and what comes with it: Stop,
 * regenerate, one answer at a time per conversation, and a hung model failing once, in time.
 */
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, expect, test, vi } from 'vitest'
import { chatEndpoints, type StreamEvent } from '#contracts/chat.ts'
import { fillPath } from '#contracts/endpoint.ts'
import { createEventStreamParser, parseEventStream } from '#contracts/event-stream.ts'
import { NO_MODEL_NOTE } from '#server/answering/extractive.ts'
import type { App } from '#server/app.ts'
import { ANSWER_IN_PROGRESS, ONLY_LAST_ANSWER } from '#server/chat/chat-errors.ts'
import { indexDocument } from '#server/documents/index/index-document.ts'
import { type FakeLlm, startFakeLlm } from '#tests/fakes/openai-compatible.ts'
import {
  call,
  countMessages,
  createConversation,
  errorOf,
  indexTravelPolicy,
  listMessages,
  send,
  sendOk,
} from '../support/chat-helpers.ts'
import { buildTestApp, register, signIn, signUpAndSignIn, uniqueEmail } from '../support/helper.ts'

// Long enough that a streamed answer's first token beats it on a busy machine (at 400 ms one run
// on a loaded PostgreSQL test machine timed out before the fake model's first token), short
// enough for the hung-model test to wait it out twice.
const LLM_TIMEOUT_MS = 1500

let llm: FakeLlm
let app: App
let cookie: string

const body = (content: string) => ({ content, isUser: true, messageType: 'text' })

function stream(target: App, who: string, conversationId: string, content: string) {
  return call(target, chatEndpoints.streamMessage, {
    cookie: who,
    params: { id: conversationId },
    body: body(content),
  })
}

function regenerate(target: App, who: string, conversationId: string, messageId: string) {
  return call(target, chatEndpoints.regenerateMessage, {
    cookie: who,
    params: { id: conversationId, messageId },
  })
}

const until = (check: () => Promise<boolean>) => vi.waitUntil(check, { timeout: 3000, interval: 20 })

beforeAll(async () => {
  llm = await startFakeLlm()
  app = await buildTestApp({
    env: { LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'test-model', LLM_TIMEOUT_MS: String(LLM_TIMEOUT_MS) },
  })
  const email = uniqueEmail()
  const userId = (await register(app, email))._id
  cookie = (await signIn(app, email)).cookie
  await indexTravelPolicy(app, userId)
}, 60_000)
afterAll(async () => {
  await app?.close()
  await llm?.close()
})

test('the answer streams the passages it may cite, then token events, then its sources, then done with what send returns', async () => {
  const conversation = await createConversation(app, cookie, 'Travel')
  llm.reply({ kind: 'text', text: 'It is **45 euros** a day [1].' })
  const response = await stream(app, cookie, conversation._id, 'What is the meal allowance abroad?')

  expect(response.statusCode).toBe(200)
  expect(response.headers['content-type']).toMatch(/^text\/event-stream/)
  expect(llm.requests.at(-1)?.body.stream).toBe(true)
  const events = parseEventStream(response.body)
  const names = events.map((e) => e.event)
  expect(names.filter((n) => n === 'token').length).toBeGreaterThan(3)
  expect(names.slice(-2)).toEqual(['sources', 'done'])
  // Before the first word: the passages the markers may name, each with its [n].
  expect(names[0]).toBe('sources')
  const candidates = events[0] as Extract<StreamEvent, { event: 'sources' }>
  expect(candidates.data.sources[0]).toEqual(
    expect.objectContaining({
      citation: 1,
      quote: 'The daily meal allowance abroad is 45 euros per person.',
    }),
  )
  const text = events.flatMap((e) => (e.event === 'token' ? [e.data.text] : [])).join('')
  expect(text).toBe('It is **45 euros** a day [1].')

  const done = events.at(-1) as Extract<StreamEvent, { event: 'done' }>
  expect(done.data.aiMessage.content).toBe(text)
  expect(done.data.aiMessage.stopped).toBe(false)
  expect(done.data.userMessage.content).toBe('What is the meal allowance abroad?')
  expect(done.data.aiMessage.sources).toEqual([
    expect.objectContaining({
      documentName: 'Travel policy.pdf',
      page: 2,
      citation: 1,
      quote: 'The daily meal allowance abroad is 45 euros per person.',
      link: 'https://drive.example.com/travel',
    }),
  ])
  // The last sources event (the first named what the answer might cite) is what it did cite.
  const sources = events.findLast((e) => e.event === 'sources')
  expect(sources?.data).toEqual({ sources: done.data.aiMessage.sources })
  expect(await listMessages(app, cookie, conversation._id)).toEqual([
    done.data.userMessage,
    done.data.aiMessage,
  ])
})

test('with no model configured the extractive answer streams too', async () => {
  const plain = await buildTestApp()
  try {
    const email = uniqueEmail()
    const userId = (await register(plain, email))._id
    const me = (await signIn(plain, email)).cookie
    await indexDocument(plain.db, {
      userId,
      source: 'test',
      externalId: 'travel',
      name: 'Travel policy.pdf',
      mimeType: 'application/pdf',
      sections: [{ page: 2, text: 'The daily meal allowance abroad is 45 euros per person.' }],
    })
    const conversation = await createConversation(plain, me, 'Travel')
    const events = parseEventStream(
      (await stream(plain, me, conversation._id, 'What is the meal allowance?')).body,
    )
    const tokens = events.filter((e) => e.event === 'token')
    expect(tokens.length).toBeGreaterThan(0)
    const done = events.at(-1) as Extract<StreamEvent, { event: 'done' }>
    expect(done.event).toBe('done')
    expect(done.data.aiMessage.content.startsWith(NO_MODEL_NOTE)).toBe(true)
    expect(tokens.map((t) => (t.event === 'token' ? t.data.text : '')).join('')).toBe(
      done.data.aiMessage.content,
    )
    expect(done.data.aiMessage.sources.map((s) => s.quote)).toEqual([
      'The daily meal allowance abroad is 45 euros per person.',
    ])
  } finally {
    await plain.close()
  }
})

test("errors before the stream starts are JSON: 404 for another's conversation, 400 for bad input", async () => {
  const stranger = await signUpAndSignIn(app)
  const theirs = await createConversation(app, stranger, 'Theirs')
  const response = await stream(app, cookie, theirs._id, 'Let me in')
  expect(response.statusCode).toBe(404)
  expect(errorOf(response)).toBe('Conversation not found')

  const mine = await createConversation(app, cookie, 'Mine')
  const empty = await stream(app, cookie, mine._id, '   ')
  expect(empty.statusCode).toBe(400)
  expect(errorOf(empty)).toBe('Message cannot be empty')
  expect(await countMessages(app, theirs._id)).toBe(0)
})

test('a failing model ends the stream with an error event and stores nothing', async () => {
  const conversation = await createConversation(app, cookie, 'Unlucky')
  llm.reply({ kind: 'status', status: 500 })
  const events = parseEventStream((await stream(app, cookie, conversation._id, 'Anyone?')).body)
  llm.reply({ kind: 'text', text: 'ok' })
  expect(events).toEqual([
    {
      event: 'error',
      data: { message: 'The language model answered with an error (500). Please try again later.' },
    },
  ])
  expect(await countMessages(app, conversation._id)).toBe(0)
})

test('a hung model fails once, after LLM_TIMEOUT_MS and not twice that, on send and on the stream', async () => {
  const conversation = await createConversation(app, cookie, 'Hung')
  llm.reply({ kind: 'hang' })
  let started = performance.now()
  const sent = await send(app, cookie, conversation._id, 'Hello?')
  const sendMs = performance.now() - started
  started = performance.now()
  const events = parseEventStream((await stream(app, cookie, conversation._id, 'Hello?')).body)
  const streamMs = performance.now() - started
  llm.reply({ kind: 'stall', text: 'Half an' })
  const stalled = parseEventStream((await stream(app, cookie, conversation._id, 'Hello?')).body)
  llm.reply({ kind: 'text', text: 'ok' })

  expect(sent.statusCode).toBe(502)
  expect(errorOf(sent)).toContain('did not answer in time')
  expect(events.at(-1)?.data).toEqual({
    message: 'The language model did not answer in time. Please try again.',
  })
  expect(stalled.at(-1)?.event).toBe('error')
  for (const ms of [sendMs, streamMs]) {
    expect(ms).toBeGreaterThanOrEqual(LLM_TIMEOUT_MS - 20)
    expect(ms).toBeLessThan(LLM_TIMEOUT_MS * 1.6)
  }
  expect(await countMessages(app, conversation._id)).toBe(0)
})

test('Stop (the client going away) aborts the model call and keeps the answer so far, marked stopped', async () => {
  await app.listen({ port: 0, host: '127.0.0.1' })
  const { port } = app.server.address() as AddressInfo
  const conversation = await createConversation(app, cookie, 'Stopped')
  const abortedBefore = llm.aborted()
  llm.reply({ kind: 'stall', text: 'The first part of a long answer' })

  const controller = new AbortController()
  const response = await fetch(
    `http://127.0.0.1:${port}${fillPath(chatEndpoints.streamMessage.path, { id: conversation._id })}`,
    {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify(body('Tell me everything')),
      signal: controller.signal,
    },
  )
  expect(response.status).toBe(200)
  const reader = response.body?.getReader()
  const decoder = new TextDecoder()
  let received = ''
  const parser = createEventStreamParser((e) => {
    if (e.event === 'token') received += e.data.text
  })
  while (received !== 'The first part of a long answer') {
    const chunk = await reader?.read()
    if (!chunk || chunk.done) throw new Error('stream ended early')
    parser.push(decoder.decode(chunk.value, { stream: true }))
  }
  controller.abort()

  // What the browser does after Stop: look at the conversation until the answer is there.
  await until(async () => (await countMessages(app, conversation._id)) === 2)
  const [question, answer] = await listMessages(app, cookie, conversation._id)
  expect(question?.content).toBe('Tell me everything')
  expect(answer?.content).toBe('The first part of a long answer')
  expect(answer?.stopped).toBe(true)
  // At least this call aborted (a call an earlier test gave up on may be counted late as well).
  await until(async () => llm.aborted() >= abortedBefore + 1)

  // The stored answer works by its id at once: rated, and the conversation free for the next
  // question (the claim ended in the write that stored the answer, not after it).
  const rated = await call(app, chatEndpoints.setFeedback, {
    cookie,
    params: { id: answer?._id ?? '' },
    body: { feedback: 'like' },
  })
  expect(rated.statusCode).toBe(200)
  llm.reply({ kind: 'text', text: 'ok' })
  const next = await stream(app, cookie, conversation._id, 'And the next question?')
  expect(next.statusCode).toBe(200)
  expect(parseEventStream(next.body).at(-1)?.event).toBe('done')
})

test('the stream says how long each stage before the model took (Server-Timing)', async () => {
  const conversation = await createConversation(app, cookie, 'Timing')
  llm.reply({ kind: 'text', text: 'Economy class [1].' })
  const response = await stream(app, cookie, conversation._id, 'Which class do employees fly in?')
  const stages = String(response.headers['server-timing'])
    .split(', ')
    .map((entry) => entry.split(';dur=')[0])
  expect(stages).toEqual(expect.arrayContaining(['claim', 'history', 'retrieve', 'open']))
  // A question that stands alone is not rewritten: the answer is the only model call.
  expect(stages).not.toContain('rewrite')
})

test('a second send while one is answered is refused with 409, on send and on the stream', async () => {
  const conversation = await createConversation(app, cookie, 'One at a time')
  const asked = llm.requests.length
  llm.reply({ kind: 'hang' })
  const first = send(app, cookie, conversation._id, 'First question')
  await until(async () => llm.requests.length > asked)

  const second = await send(app, cookie, conversation._id, 'Second question')
  const streamed = await stream(app, cookie, conversation._id, 'Third question')
  expect(second.statusCode).toBe(409)
  expect(errorOf(second)).toBe(ANSWER_IN_PROGRESS)
  expect(streamed.statusCode).toBe(409)
  expect(llm.requests.length).toBe(asked + 1)

  expect((await first).statusCode).toBe(502)
  llm.reply({ kind: 'text', text: 'Now it is your turn.' })
  const { aiMessage } = await sendOk(app, cookie, conversation._id, 'Second question')
  expect(aiMessage.content).toBe('Now it is your turn.')
})

test('regenerate writes the last answer again and replaces it; only the last answer, only mine', async () => {
  const conversation = await createConversation(app, cookie, 'Again')
  llm.reply({ kind: 'text', text: 'First try.' })
  const first = await sendOk(app, cookie, conversation._id, 'Which class do I fly in?')
  await call(app, chatEndpoints.setFeedback, {
    cookie,
    params: { id: first.aiMessage._id },
    body: { feedback: 'dislike' },
  })
  llm.reply({ kind: 'text', text: 'Economy class [1].' })
  const events = parseEventStream((await regenerate(app, cookie, conversation._id, first.aiMessage._id)).body)
  const done = events.at(-1) as Extract<StreamEvent, { event: 'done' }>
  expect(done.event).toBe('done')
  expect(done.data.userMessage).toEqual(first.userMessage)
  expect(done.data.aiMessage).toMatchObject({
    _id: first.aiMessage._id,
    content: 'Economy class [1].',
    feedback: null,
  })
  expect(await listMessages(app, cookie, conversation._id)).toEqual([first.userMessage, done.data.aiMessage])
  // The model was asked the same question again, without the answer it replaces.
  expect(llm.requests.at(-1)?.body.messages.slice(1)).toEqual([
    { role: 'user', content: 'Which class do I fly in?' },
  ])

  const ofQuestion = await regenerate(app, cookie, conversation._id, first.userMessage._id)
  expect(ofQuestion.statusCode).toBe(400)
  expect(errorOf(ofQuestion)).toBe(ONLY_LAST_ANSWER)
  llm.reply({ kind: 'text', text: 'Later answer.' })
  await sendOk(app, cookie, conversation._id, 'And the meal allowance?')
  const older = await regenerate(app, cookie, conversation._id, first.aiMessage._id)
  expect(older.statusCode).toBe(400)

  const stranger = await signUpAndSignIn(app)
  const theirs = await regenerate(app, stranger, conversation._id, first.aiMessage._id)
  expect(theirs.statusCode).toBe(404)
  const bad = await call(app, chatEndpoints.regenerateMessage, {
    cookie,
    params: { id: conversation._id, messageId: 'nope' },
  })
  expect(bad.statusCode).toBe(400)
})

test('rename changes the title; 400 for an empty one, 404 for a conversation that is not mine', async () => {
  const conversation = await createConversation(app, cookie, 'Old name')
  const renamed = await call(app, chatEndpoints.updateConversation, {
    cookie,
    params: { id: conversation._id },
    body: { title: '  Trip to Lisbon ' },
  })
  expect(renamed.statusCode).toBe(200)
  expect(chatEndpoints.updateConversation.response.parse(renamed.json()).data).toMatchObject({
    _id: conversation._id,
    title: 'Trip to Lisbon',
  })
  const empty = await call(app, chatEndpoints.updateConversation, {
    cookie,
    params: { id: conversation._id },
    body: { title: ' ' },
  })
  expect(empty.statusCode).toBe(400)
  expect(errorOf(empty)).toBe('Title is required')
  const stranger = await signUpAndSignIn(app)
  const theirs = await call(app, chatEndpoints.updateConversation, {
    cookie: stranger,
    params: { id: conversation._id },
    body: { title: 'Mine now' },
  })
  expect(theirs.statusCode).toBe(404)
})

test('search finds my conversations by title and by message (stemmed), never anyone else’s', async () => {
  const byTitle = await createConversation(app, cookie, 'Budget planning for Porto')
  const byMessage = await createConversation(app, cookie, 'Untitled')
  llm.reply({ kind: 'text', text: 'Receipts are reimbursed within thirty days.' })
  await sendOk(app, cookie, byMessage._id, 'How are receipts handled?')
  const stranger = await signUpAndSignIn(app)
  const theirs = await createConversation(app, stranger, 'Porto reimbursement secrets')

  const search = (who: string, q: string) =>
    app.inject({
      method: 'GET',
      url: `${chatEndpoints.searchConversations.path}?q=${encodeURIComponent(q)}`,
      headers: { cookie: who },
    })
  const hits = (r: Awaited<ReturnType<typeof search>>) =>
    chatEndpoints.searchConversations.response.parse(r.json()).data

  const porto = hits(await search(cookie, 'porto'))
  expect(porto.map((h) => h.session._id)).toEqual([byTitle._id])
  const reimbursed = hits(await search(cookie, 'reimbursing'))
  expect(reimbursed.map((h) => h.session._id)).toEqual([byMessage._id])
  expect(reimbursed[0]?.snippet).toContain('reimbursed')
  expect(hits(await search(stranger, 'receipts'))).toEqual([])
  expect(hits(await search(stranger, 'porto')).map((h) => h.session._id)).toEqual([theirs._id])

  const empty = await search(cookie, '  ')
  expect(empty.statusCode).toBe(400)
  expect(errorOf(empty)).toBe('Type something to search for')
})
