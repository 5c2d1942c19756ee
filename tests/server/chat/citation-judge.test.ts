/**
 * The optional model judge (issue 39, D140): off unless CITATION_JUDGE=model (no request is made);
 * on, the sentences the check cannot vouch for (nothing to check, unverified) are asked of the
 * model once, at most JUDGE_MAX_SENTENCES of them, and its verdict is stored beside the check and
 * carried by send, the stream's `done` and the message list, the outcome unchanged, its tokens
 * counted with the answer's. A garbage reply or a model that never answers leaves the checks as
 * they were, and the answer is done within the bound.
 */
import { afterAll, beforeAll, expect, test } from 'vitest'
import { chatEndpoints, MessageSchema, type StreamEvent } from '#contracts/chat.ts'
import { parseEventStream } from '#contracts/event-stream.ts'
import { usageEndpoints } from '#contracts/usage.ts'
import {
  JUDGE_INSTRUCTIONS,
  JUDGE_MAX_SENTENCES,
  JUDGE_TIMEOUT_MS,
} from '#server/answering/citation-judge.ts'
import type { App } from '#server/app.ts'
import { loadConfig } from '#server/config.ts'
import { indexDocument } from '#server/documents/index/index-document.ts'
import { type FakeLlm, type RecordedCompletion, startFakeLlm } from '#tests/fakes/openai-compatible.ts'
import { call, createConversation, listMessages, sendOk } from '../support/chat-helpers.ts'
import { buildTestApp, register, signIn, uniqueEmail } from '../support/helper.ts'

const QUESTION = 'What allowance do I get?'
const HOTEL = 'The hotel allowance is 120 euros a night.'
const MEALS = 'The daily meal allowance abroad is 45 euros per person.'
/** Known by its instructions: the judge's request, apart from the answer's. */
const JUDGE = JUDGE_INSTRUCTIONS.slice(0, 40)
/** The judge's bound in the app built for it: LLM_TIMEOUT_MS, shorter than JUDGE_TIMEOUT_MS. */
const LLM_TIMEOUT_MS = 1500

let llm: FakeLlm
/** CITATION_JUDGE unset: the default. */
let plain: App
let judging: App
let hotel = 0
let meals = 0

type Person = { cookie: string }

async function person(target: App): Promise<Person> {
  const email = uniqueEmail('judge')
  const userId = (await register(target, email))._id
  await indexDocument(target.db, {
    userId,
    source: 'test',
    externalId: 'allowances',
    name: 'Allowances.pdf',
    mimeType: 'application/pdf',
    link: null,
    sections: [
      { page: 1, text: HOTEL },
      { page: 2, text: MEALS },
    ],
  })
  return { cookie: (await signIn(target, email)).cookie }
}

/** Ten sentences only the judge can speak for: ten "nothing to check", then one unverified; one checked first. */
const LOOSE = Array.from(
  { length: 10 },
  (_, i) => `this rule number ${'i'.repeat(i + 1)} applies while travelling`,
)
const scripted = () =>
  [
    `Meals abroad are 45 euros a day [${meals}].`,
    `A taxi is 300 euros [${hotel}].`,
    ...LOOSE.map((s) => `Note that ${s} [${hotel}].`),
  ].join(' ')

const judgeRequests = () => llm.requests.filter((r) => r.body.messages.some((m) => m.content.includes(JUDGE)))
const verdicts = (n: number, say: (id: number) => string) =>
  JSON.stringify(Array.from({ length: n }, (_, i) => ({ id: i + 1, verdict: say(i + 1) })))

async function streamed(target: App, cookie: string, conversationId: string) {
  const response = await call(target, chatEndpoints.streamMessage, {
    cookie,
    params: { id: conversationId },
    body: { content: QUESTION, isUser: true, messageType: 'text' },
  })
  const done = (parseEventStream(response.body) as StreamEvent[]).at(-1)
  if (done?.event !== 'done') throw new Error(`no done event: ${response.body}`)
  return MessageSchema.parse(done.data.aiMessage)
}

beforeAll(async () => {
  llm = await startFakeLlm()
  const env = { LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'test-model', LLM_TIMEOUT_MS: String(LLM_TIMEOUT_MS) }
  plain = await buildTestApp({ env })
  judging = await buildTestApp({ env: { ...env, CITATION_JUDGE: 'model' } })
  // An answer citing nothing keeps every passage it was given: their numbers, for the script.
  const { cookie } = await person(plain)
  const probe = await createConversation(plain, cookie, 'Probe')
  llm.reply({ kind: 'text', text: 'Let me look.' })
  const { aiMessage } = await sendOk(plain, cookie, probe._id, QUESTION)
  hotel = aiMessage.sources.find((s) => s.quote === HOTEL)?.citation ?? 0
  meals = aiMessage.sources.find((s) => s.quote === MEALS)?.citation ?? 0
  expect([hotel, meals].sort()).toEqual([1, 2])
}, 60_000)
afterAll(async () => {
  await plain?.close()
  await judging?.close()
  await llm?.close()
})

test('CITATION_JUDGE is off by default; it takes off or model, and model needs a model', () => {
  const base = { DATABASE_URL: 'memory:', LLM_BASE_URL: 'http://127.0.0.1:9/v1', LLM_MODEL: 'm' }
  expect(loadConfig(base).citationJudge).toBe(false)
  expect(loadConfig({ ...base, CITATION_JUDGE: 'model' }).citationJudge).toBe(true)
  expect(() => loadConfig({ ...base, CITATION_JUDGE: 'yes' })).toThrow(
    'CITATION_JUDGE: CITATION_JUDGE must be off or model',
  )
  expect(() => loadConfig({ DATABASE_URL: 'memory:', CITATION_JUDGE: 'model' })).toThrow(
    'CITATION_JUDGE: model needs a model: set LLM_BASE_URL and LLM_MODEL, or CITATION_JUDGE=off',
  )
})

test('with the judge off (the default) an answer makes one model request and its checks carry no verdict', async () => {
  const { cookie } = await person(plain)
  const { _id } = await createConversation(plain, cookie, 'Off')
  llm.replyTo(JUDGE, { kind: 'text', text: verdicts(8, () => 'supported') })
  const before = llm.requests.length
  llm.reply({ kind: 'text', text: scripted() })

  const { aiMessage } = await sendOk(plain, cookie, _id, QUESTION)

  expect(llm.requests.length - before).toBe(1)
  expect(judgeRequests()).toHaveLength(0)
  expect(aiMessage.checks?.some((c) => 'judge' in c)).toBe(false)
  llm.replyTo(JUDGE, null)
})

test("on, the sentences the check cannot vouch for are asked once, at most eight; the verdicts are stored as the model's, outcomes unchanged, its tokens counted", async () => {
  const { cookie } = await person(judging)
  const { _id } = await createConversation(judging, cookie, 'On')
  llm.replyTo(JUDGE, {
    kind: 'text',
    text: `\`\`\`json\n${verdicts(JUDGE_MAX_SENTENCES, (id) => (id === 1 ? 'not-supported' : 'supported'))}\n\`\`\``,
  })
  const asked = judgeRequests().length
  llm.reply({ kind: 'text', text: scripted() })

  const { aiMessage } = await sendOk(judging, cookie, _id, QUESTION)

  const requests = judgeRequests().slice(asked)
  expect(requests).toHaveLength(1)
  const request = requests[0] as RecordedCompletion
  expect(request.body.temperature).toBe(0)
  const prompt = request.body.messages.at(-1)?.content ?? ''
  expect(prompt).toContain(`Sentence ${JUDGE_MAX_SENTENCES}: Note that ${LOOSE[6]}.`)
  expect(prompt).not.toContain(`Sentence ${JUDGE_MAX_SENTENCES + 1}:`)
  expect(prompt).not.toContain('Meals abroad')
  const checks = aiMessage.checks ?? []
  expect(checks.map((c) => [c.outcome, c.judge])).toEqual([
    ['checked', undefined],
    ['unverified', 'not-supported'],
    ...LOOSE.map((_, i) => ['nothing-to-check', i < JUDGE_MAX_SENTENCES - 1 ? 'supported' : undefined]),
  ])
  const [, stored] = await listMessages(judging, cookie, _id)
  expect(stored?.checks).toEqual(checks)
  // The fake reports 1 + 1 tokens a call: the answer's and the judge's.
  const usage = await judging.inject({ method: 'GET', url: usageEndpoints.usage.path, headers: { cookie } })
  expect(usageEndpoints.usage.response.parse(usage.json()).data.month.sources.app.tokens).toBe(4)
  llm.replyTo(JUDGE, null)
})

test('a streamed answer sends its verdicts with done, as stored', async () => {
  const { cookie } = await person(judging)
  const { _id } = await createConversation(judging, cookie, 'Stream')
  llm.replyTo(JUDGE, { kind: 'text', text: verdicts(1, () => 'supported') })
  llm.reply({ kind: 'text', text: `A taxi is 300 euros [${hotel}].` })

  const answer = await streamed(judging, cookie, _id)

  expect(answer.checks).toEqual([
    {
      marker: hotel,
      sentence: 'A taxi is 300 euros.',
      outcome: 'unverified',
      sourceIndex: hotel,
      missing: ['300 euros'],
      judge: 'supported',
    },
  ])
  expect((await listMessages(judging, cookie, _id))[1]?.checks).toEqual(answer.checks)
  llm.replyTo(JUDGE, null)
})

test('a reply that is not the JSON asked for leaves every check as it was', async () => {
  const { cookie } = await person(judging)
  const { _id } = await createConversation(judging, cookie, 'Garbage')
  llm.replyTo(JUDGE, { kind: 'text', text: 'They all look fine to me! [{"id": "one", "verdict": "yes"}]' })
  const asked = judgeRequests().length
  llm.reply({ kind: 'text', text: scripted() })

  const { aiMessage } = await sendOk(judging, cookie, _id, QUESTION)

  expect(judgeRequests().length - asked).toBe(1)
  expect(aiMessage.checks?.some((c) => 'judge' in c)).toBe(false)
  expect(aiMessage.checks?.map((c) => c.outcome)).toEqual([
    'checked',
    'unverified',
    ...LOOSE.map(() => 'nothing-to-check'),
  ])
  llm.replyTo(JUDGE, null)
})

test('a judge that never answers holds the streamed answer no longer than its bound, and its checks stay as they were', async () => {
  const { cookie } = await person(judging)
  const { _id } = await createConversation(judging, cookie, 'Hang')
  llm.replyTo(JUDGE, { kind: 'hang' })
  const asked = judgeRequests().length
  llm.reply({ kind: 'text', text: scripted() })
  const started = performance.now()

  const answer = await streamed(judging, cookie, _id)

  const ms = performance.now() - started
  expect(judgeRequests().length - asked).toBe(1)
  expect(ms).toBeGreaterThanOrEqual(LLM_TIMEOUT_MS - 50)
  expect(ms).toBeLessThan(JUDGE_TIMEOUT_MS)
  expect(answer.checks?.some((c) => 'judge' in c)).toBe(false)
  expect(answer.checks?.map((c) => c.outcome)).toContain('unverified')
  llm.replyTo(JUDGE, null)
}, 30_000)
