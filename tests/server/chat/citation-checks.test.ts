/**
 * The citation check wired into answers (issue 39, D129): a scripted model cites one figure
 * right, one to the wrong passage (repaired: its marker moved), one invented (unverified) and
 * leaves one uncited; the outcome is stored with the answer and each version and carried by
 * send, the stream's `done`, the message list, the exports and share links. An answer written without a model quotes its
 * passages: every quoted sentence is checked.
 */
import { afterAll, beforeAll, expect, test } from 'vitest'
import { AccountExportSchema, accountEndpoints } from '#contracts/account.ts'
import { chatEndpoints, type Message, MessageSchema, type StreamEvent } from '#contracts/chat.ts'
import { fillPath } from '#contracts/endpoint.ts'
import { parseEventStream } from '#contracts/event-stream.ts'
import { sharingEndpoints } from '#contracts/sharing.ts'
import type { App } from '#server/app.ts'
import { indexDocument } from '#server/documents/index/index-document.ts'
import { type FakeLlm, startFakeLlm } from '#tests/fakes/openai-compatible.ts'
import { call, createConversation, listMessages, sendOk } from '../support/chat-helpers.ts'
import { buildTestApp, register, signIn, uniqueEmail } from '../support/helper.ts'

const QUESTION = 'What allowance do I get?'
const HOTEL = 'The hotel allowance is 120 euros a night.'
const MEALS = 'The daily meal allowance abroad is 45 euros per person.'

let llm: FakeLlm
let app: App
let cookie: string
/** The [n] each passage is given to the model by, for QUESTION. */
let hotel: number
let meals: number

function indexAllowances(target: App, userId: string) {
  return indexDocument(target.db, {
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
}

/** One figure right, one cited to the wrong passage, one invented, one not cited. */
const scripted = () =>
  [
    `Meals abroad are 45 euros a day [${meals}].`,
    `A hotel night is 120 euros [${meals}].`,
    `A taxi is 300 euros [${hotel}].`,
    'Dinner costs 45 euros.',
  ].join(' ')

function expectChecked(message: Message) {
  expect(message.content).toBe(
    scripted().replace(`night is 120 euros [${meals}]`, `night is 120 euros [${hotel}]`),
  )
  expect(message.checks).toEqual([
    {
      marker: meals,
      sentence: 'Meals abroad are 45 euros a day.',
      outcome: 'checked',
      sourceIndex: meals,
      missing: [],
    },
    {
      marker: hotel,
      sentence: 'A hotel night is 120 euros.',
      outcome: 'repaired',
      sourceIndex: hotel,
      movedFrom: meals,
      missing: [],
    },
    {
      marker: hotel,
      sentence: 'A taxi is 300 euros.',
      outcome: 'unverified',
      sourceIndex: hotel,
      missing: ['300 euros'],
    },
    {
      marker: null,
      sentence: 'Dinner costs 45 euros.',
      outcome: 'not-cited',
      sourceIndex: null,
      missing: [],
    },
  ])
  // The passage the repaired marker now names is among the answer's sources.
  expect(message.sources.find((s) => s.citation === hotel)?.quote).toBe(HOTEL)
}

async function streamed(path: 'stream' | 'regenerate', conversationId: string, messageId?: string) {
  const response =
    path === 'stream'
      ? await call(app, chatEndpoints.streamMessage, {
          cookie,
          params: { id: conversationId },
          body: { content: QUESTION, isUser: true, messageType: 'text' },
        })
      : await call(app, chatEndpoints.regenerateMessage, {
          cookie,
          params: { id: conversationId, messageId: messageId ?? '' },
        })
  const events = parseEventStream(response.body) as StreamEvent[]
  const done = events.at(-1)
  if (done?.event !== 'done') throw new Error(`no done event: ${response.body}`)
  return { events, answer: MessageSchema.parse(done.data.aiMessage) }
}

beforeAll(async () => {
  llm = await startFakeLlm()
  app = await buildTestApp({ env: { LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'test-model' } })
  const email = uniqueEmail()
  const userId = (await register(app, email))._id
  cookie = (await signIn(app, email)).cookie
  await indexAllowances(app, userId)
  // An answer citing nothing keeps every passage it was given: their numbers, for the script.
  const probe = await createConversation(app, cookie, 'Probe')
  llm.reply({ kind: 'text', text: 'Let me look.' })
  const { aiMessage } = await sendOk(app, cookie, probe._id, QUESTION)
  hotel = aiMessage.sources.find((s) => s.quote === HOTEL)?.citation ?? 0
  meals = aiMessage.sources.find((s) => s.quote === MEALS)?.citation ?? 0
  expect([hotel, meals].sort()).toEqual([1, 2])
}, 60_000)
afterAll(async () => {
  await app?.close()
  await llm?.close()
})

test('a sent answer is stored with its checks: checked, repaired (marker moved), unverified naming the figure, not cited', async () => {
  const { _id } = await createConversation(app, cookie, 'Send')
  llm.reply({ kind: 'text', text: scripted() })

  const { aiMessage, userMessage } = await sendOk(app, cookie, _id, QUESTION)

  expectChecked(aiMessage)
  expect(userMessage.checks).toBeUndefined()
  const [, stored] = await listMessages(app, cookie, _id)
  if (!stored) throw new Error('the answer was not stored')
  expectChecked(stored)
})

test("a streamed answer streams the model's words as written, then done carries the checked answer, as stored", async () => {
  const { _id } = await createConversation(app, cookie, 'Stream')
  llm.reply({ kind: 'text', text: scripted() })

  const { events, answer } = await streamed('stream', _id)

  const tokens = events.flatMap((e) => (e.event === 'token' ? [e.data.text] : [])).join('')
  expect(tokens).toBe(scripted())
  expectChecked(answer)
  expectChecked((await listMessages(app, cookie, _id))[1] as Message)
})

test('each version keeps its own checks: a regenerated answer is checked, and version 1 comes back with its own', async () => {
  const { _id } = await createConversation(app, cookie, 'Regenerate')
  llm.reply({ kind: 'text', text: `Meals abroad are 45 euros a day [${meals}].` })
  const first = (await sendOk(app, cookie, _id, QUESTION)).aiMessage
  llm.reply({ kind: 'text', text: scripted() })

  const { answer } = await streamed('regenerate', _id, first._id)

  expect(answer.version).toBe(2)
  expectChecked(answer)
  const shown = await call(app, chatEndpoints.showAnswerVersion, {
    cookie,
    params: { id: first._id },
    body: { version: 1 },
  })
  expect(chatEndpoints.showAnswerVersion.response.parse(shown.json()).data.checks).toEqual([
    {
      marker: meals,
      sentence: 'Meals abroad are 45 euros a day.',
      outcome: 'checked',
      sourceIndex: meals,
      missing: [],
    },
  ])
})

test('an answer written without a model quotes its passages: each quoted sentence is checked', async () => {
  const plain = await buildTestApp()
  try {
    const email = uniqueEmail()
    const userId = (await register(plain, email))._id
    const who = (await signIn(plain, email)).cookie
    await indexAllowances(plain, userId)
    const { _id } = await createConversation(plain, who, 'Quotes')

    const { aiMessage } = await sendOk(plain, who, _id, 'What is the meal allowance abroad?')

    expect(aiMessage.checks?.length).toBeGreaterThan(0)
    for (const check of aiMessage.checks ?? []) {
      expect(check).toMatchObject({ marker: null, outcome: 'checked', missing: [] })
      expect(aiMessage.content).toContain(check.sentence)
      expect(aiMessage.sources[(check.sourceIndex ?? 0) - 1]?.quote).toContain(check.sentence)
    }
  } finally {
    await plain.close()
  }
})

test('the Markdown export says which sentences are unverified or not cited; the share link and the JSON export carry the checks', async () => {
  const { _id } = await createConversation(app, cookie, 'Taken elsewhere')
  llm.reply({ kind: 'text', text: scripted() })
  const { aiMessage } = await sendOk(app, cookie, _id, QUESTION)

  const markdown = await app.inject({
    method: 'GET',
    url: `${fillPath(sharingEndpoints.exportConversation.path, { id: _id })}?format=md`,
    headers: { cookie },
  })
  expect(markdown.statusCode).toBe(200)
  expect(markdown.body).toContain(
    '> ⚠ Unverified: “A taxi is 300 euros.” (300 euros not found in the cited passage)\n>\n> ⚠ Not cited: “Dinner costs 45 euros.” names no source\n',
  )
  expect(markdown.body).not.toContain('Meals abroad are 45 euros a day.” (')

  const shared = await call(app, sharingEndpoints.shareConversation, { cookie, params: { id: _id } })
  const { url } = sharingEndpoints.shareConversation.response.parse(shared.json()).data
  const token = url.slice(url.lastIndexOf('/') + 1)
  const opened = await app.inject({
    method: 'GET',
    url: fillPath(sharingEndpoints.getSharedConversation.path, { token }),
  })
  const snapshot = sharingEndpoints.getSharedConversation.response.parse(opened.json()).data
  expect(snapshot.messages.map((m) => m.checks)).toEqual([undefined, aiMessage.checks])

  const exported = AccountExportSchema.parse(
    (await call(app, accountEndpoints.exportAccount, { cookie })).json(),
  )
  const conversation = exported.conversations.find((c) => c.id === _id)
  expect(conversation?.messages.map((m) => m.checks)).toEqual([undefined, aiMessage.checks])
})
