/**
 * What a model may make of an answer is bounded (D84): every call names its token limit
 * (LLM_MAX_TOKENS for the answer, a small one for the rewrite of a follow-up); an answer the
 * model cut at that limit, or one longer than ANSWER_CHARS_PER_TOKEN characters a token whatever
 * the model does, is stored cut, with CUT_NOTE; control characters in its text (NUL…) never
 * reach the database or the stream.
 */
import { afterAll, beforeAll, expect, test } from 'vitest'
import { chatEndpoints, type StreamEvent } from '#contracts/chat.ts'
import { parseEventStream } from '#contracts/event-stream.ts'
import { CUT_NOTE } from '#server/answering/answer-cap.ts'
import { ANSWER_CHARS_PER_TOKEN } from '#server/answering/answer-shapes.ts'
import { REWRITE_MAX_TOKENS } from '#server/answering/query-rewrite.ts'
import type { App } from '#server/app.ts'
import { type FakeLlm, startFakeLlm } from '#tests/fakes/openai-compatible.ts'
import { call, createConversation, listMessages, modelEnv, sendOk } from '../support/chat-helpers.ts'
import { buildTestApp, signUpAndSignIn } from '../support/helper.ts'

const MAX_TOKENS = 300
const CAP = MAX_TOKENS * ANSWER_CHARS_PER_TOKEN

let llm: FakeLlm
let app: App
let cookie: string

beforeAll(async () => {
  llm = await startFakeLlm()
  app = await buildTestApp({
    env: modelEnv(llm, { LLM_TIMEOUT_MS: '3000', LLM_MAX_TOKENS: String(MAX_TOKENS) }),
  })
  cookie = await signUpAndSignIn(app)
})
afterAll(async () => {
  await app?.close()
  await llm?.close()
})

async function streamed(conversationId: string, content: string) {
  const response = await call(app, chatEndpoints.streamMessage, {
    cookie,
    params: { id: conversationId },
    body: { content, isUser: true, messageType: 'text' },
  })
  const events = parseEventStream(response.body)
  const done = events.at(-1) as Extract<StreamEvent, { event: 'done' }>
  expect(done.event).toBe('done')
  const text = events.flatMap((e) => (e.event === 'token' ? [e.data.text] : [])).join('')
  return { text, answer: done.data.aiMessage }
}

/** `n` characters of words, as a model that keeps talking writes them. */
function talk(n: number): string {
  let text = ''
  for (let i = 0; text.length < n; i++) text += `word${i} `
  return text.slice(0, n)
}

test('every answer asks for at most LLM_MAX_TOKENS, and the rewrite of a follow-up for a few', async () => {
  const conversation = await createConversation(app, cookie, 'Limits')
  llm.reply({ kind: 'text', text: 'Economy class.' })
  const before = llm.requests.length
  await sendOk(app, cookie, conversation._id, 'Which class do employees fly in?')
  await streamed(conversation._id, 'And what about managers?')

  const calls = llm.requests
    .slice(before)
    .map((r) => ({ stream: r.body.stream ?? false, max: r.body.max_tokens }))
  expect(calls).toEqual([
    { stream: false, max: MAX_TOKENS },
    // The follow-up refers back: it is rewritten first, with a small limit of its own.
    { stream: false, max: REWRITE_MAX_TOKENS },
    { stream: true, max: MAX_TOKENS },
  ])
  expect(REWRITE_MAX_TOKENS).toBeLessThanOrEqual(64)
})

test('an answer the model cut at its token limit is kept with a note, streamed and sent alike', async () => {
  const conversation = await createConversation(app, cookie, 'Cut')
  llm.reply({ kind: 'text', text: 'The first part of a long answer', finish: 'length' })

  const { text, answer } = await streamed(conversation._id, 'Tell me everything about the policy')
  const sent = await sendOk(app, cookie, conversation._id, 'Tell me everything about the policy again')

  expect(answer.content).toBe(`The first part of a long answer${CUT_NOTE}`)
  expect(text).toBe(answer.content)
  expect(answer.stopped).toBe(false)
  expect(sent.aiMessage.content).toBe(`The first part of a long answer${CUT_NOTE}`)
  llm.reply({ kind: 'text', text: 'A whole answer.' })
  const whole = await sendOk(app, cookie, conversation._id, 'Is the policy long at all?')
  expect(whole.aiMessage.content).toBe('A whole answer.')
})

test('a model that ignores its limit is cut at the character cap: what is stored and streamed is bounded', async () => {
  const conversation = await createConversation(app, cookie, 'Talkative')
  const long = talk(CAP * 3)
  const aborted = llm.aborted()
  llm.reply({ kind: 'text', text: long })

  const { text, answer } = await streamed(conversation._id, 'Tell me everything about the policy')
  const sent = await sendOk(app, cookie, conversation._id, 'Tell me everything about the policy again')

  const kept = `${long.slice(0, CAP)}${CUT_NOTE}`.trim()
  expect(answer.content).toBe(kept)
  expect(text.trim()).toBe(kept)
  expect(sent.aiMessage.content).toBe(kept)
  const stored = await listMessages(app, cookie, conversation._id)
  expect(Math.max(...stored.map((m) => m.content.length))).toBeLessThanOrEqual(CAP + CUT_NOTE.length)
  // Reaching the cap ended the model's stream rather than reading the rest of it.
  expect(llm.aborted()).toBeGreaterThan(aborted)
})

test('a model that refuses max_tokens (OpenAI reasoning models) is asked again with max_completion_tokens', async () => {
  const conversation = await createConversation(app, cookie, 'Reasoning')
  llm.refuseMaxTokens(true)
  try {
    llm.reply({ kind: 'text', text: 'Economy class.' })
    const before = llm.requests.length
    const { aiMessage } = await sendOk(app, cookie, conversation._id, 'Which class do employees fly in?')
    const { answer } = await streamed(conversation._id, 'Which class do managers fly in?')

    expect(aiMessage.content).toBe('Economy class.')
    expect(answer.content).toBe('Economy class.')
    expect(llm.requests.slice(before).map((r) => [r.body.max_tokens, r.body.max_completion_tokens])).toEqual([
      [MAX_TOKENS, undefined],
      [undefined, MAX_TOKENS],
      // Learnt once: later calls name max_completion_tokens straight away.
      [undefined, MAX_TOKENS],
    ])
  } finally {
    llm.refuseMaxTokens(false)
  }
})

test('NUL and other control characters in the model text are removed before they are stored or sent', async () => {
  const conversation = await createConversation(app, cookie, 'Controls')
  const dirty = 'Economy\u0000 class\u0007 for\u001b[0m flights\u0085 under six hours.\nTabs\tstay.'
  const clean = 'Economy class for[0m flights under six hours.\nTabs\tstay.'
  llm.reply({ kind: 'text', text: dirty })

  const sent = await sendOk(app, cookie, conversation._id, 'Which class do employees fly in?')
  const { text, answer } = await streamed(conversation._id, 'Which class do managers fly in?')

  expect(sent.aiMessage.content).toBe(clean)
  expect(answer.content).toBe(clean)
  expect(text).toBe(clean)
  expect((await listMessages(app, cookie, conversation._id)).map((m) => m.content)).toEqual([
    'Which class do employees fly in?',
    clean,
    'Which class do managers fly in?',
    clean,
  ])
})
