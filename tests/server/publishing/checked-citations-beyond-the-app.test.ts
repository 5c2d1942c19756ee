/**
 * The citation check (issue 39, D129) on the two paths beyond the app (D135): a published
 * assistant's visitor stream and the OpenAI-compatible API. A scripted model cites one figure
 * right, one to the wrong passage (repaired: its marker moved), one invented (unverified) and
 * leaves one uncited. The visitor's `done` carries the checked answer as the app's does, and the
 * visitor's conversation and the owner's inbox read it back; the API's citations carry each
 * passage's outcome, what was missing and where a marker was moved from.
 */
import { afterAll, beforeAll, expect, test } from 'vitest'
import { fillPath } from '#contracts/endpoint.ts'
import { ChatCompletionChunkSchema, ChatCompletionSchema, OPENAI_PATHS } from '#contracts/openai.ts'
import { publicEndpoints, publishingEndpoints } from '#contracts/publishing.ts'
import type { App } from '#server/app.ts'
import { type FakeLlm, startFakeLlm } from '#tests/fakes/openai-compatible.ts'
import { HOTEL, MEALS, publishedAllowancesBot, QUESTION } from '../support/allowances-bot.ts'
import { call, modelEnv } from '../support/chat-helpers.ts'
import type { Person } from '../support/drive-helpers.ts'
import { buildTestApp } from '../support/helper.ts'
import { newKey } from '../support/openai-helpers.ts'
import { askPublic, doneOf, parsePublicStream, visitorCookie } from '../support/publishing-helpers.ts'

let llm: FakeLlm
let app: App
let owner: Person
let bot: { id: string; publicId: string }
/** The [n] each passage is given to the model by, for QUESTION. */
let hotel: number
let meals: number

/** One figure right, one cited to the wrong passage, one invented, one not cited. */
const scripted = () =>
  [
    `Meals abroad are 45 euros a day [${meals}].`,
    `A hotel night is 120 euros [${meals}].`,
    `A taxi is 300 euros [${meals}].`,
    'Dinner costs 45 euros.',
  ].join(' ')
const repairedText = () =>
  scripted().replace(`night is 120 euros [${meals}]`, `night is 120 euros [${hotel}]`)

/** The checks of the cited sentences, in their order (the uncited one has no snippet to be kept with). */
const expectedChecks = () => [
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
    marker: meals,
    sentence: 'A taxi is 300 euros.',
    outcome: 'unverified',
    sourceIndex: meals,
    missing: ['300 euros'],
  },
]

beforeAll(async () => {
  llm = await startFakeLlm()
  app = await buildTestApp({ env: modelEnv(llm, { WHOLE_DOCUMENT_TOKEN_BUDGET: '0' }) })
  ;({ owner, bot } = await publishedAllowancesBot(app, 'checks-owner'))
  // An answer citing both passages shows both snippets: their numbers, for the script.
  llm.reply({ kind: 'text', text: 'See [1] and [2].' })
  const probe = doneOf(await askPublic(app, bot.publicId, { content: QUESTION }))
  hotel = probe.aiMessage.sources.find((s) => s.snippet === HOTEL)?.citation ?? 0
  meals = probe.aiMessage.sources.find((s) => s.snippet === MEALS)?.citation ?? 0
  expect([hotel, meals].sort()).toEqual([1, 2])
}, 60_000)
afterAll(async () => {
  await app?.close()
  await llm?.close()
})

test("a visitor's stream writes the model's words, then done carries the checked answer, kept for the visitor and the owner's inbox", async () => {
  llm.reply({ kind: 'text', text: scripted() })

  const asked = await askPublic(app, bot.publicId, { content: QUESTION })

  const events = parsePublicStream(asked.body)
  const tokens = events.flatMap((e) => (e.event === 'token' ? [e.data.text] : []))
  expect(tokens.join('')).toBe(scripted())
  const done = doneOf(asked)
  expect(done.aiMessage.content).toBe(repairedText())
  expect(done.aiMessage.checks).toEqual(expectedChecks())
  // The passage the repaired marker now names is among the snippets the visitor sees.
  expect(done.aiMessage.sources.map((s) => s.citation).sort()).toEqual([1, 2])
  expect(done.userMessage.checks).toBeUndefined()

  const again = await app.inject({
    method: 'GET',
    url: fillPath(publicEndpoints.getVisitorConversation.path, { publicId: bot.publicId }),
    headers: { cookie: visitorCookie(asked) },
  })
  const visitorSees = publicEndpoints.getVisitorConversation.response.parse(again.json()).data.messages
  expect(visitorSees.at(-1)).toMatchObject({ content: repairedText(), checks: expectedChecks() })

  const inbox = await call(app, publishingEndpoints.inboxConversation, {
    cookie: owner.cookie,
    params: { id: bot.id, conversationId: done.conversationId },
  })
  const ownerSees = publishingEndpoints.inboxConversation.response.parse(inbox.json()).data.messages
  expect(ownerSees.at(-1)).toMatchObject({ content: repairedText(), checks: expectedChecks() })
})

/** Each passage's citation as the API gives it: the outcome a reader must know first. */
const expectedCitations = () =>
  [
    {
      citation: hotel,
      documentName: 'Allowances.pdf',
      page: 1,
      snippet: HOTEL,
      check: 'repaired',
      missing: [],
      movedFrom: meals,
    },
    {
      citation: meals,
      documentName: 'Allowances.pdf',
      page: 2,
      snippet: MEALS,
      check: 'unverified',
      missing: ['300 euros'],
    },
  ].sort((a, b) => a.citation - b.citation)

async function complete(key: string, stream: boolean) {
  return app.inject({
    method: 'POST',
    url: OPENAI_PATHS.chatCompletions,
    headers: { authorization: `Bearer ${key}` },
    payload: { model: bot.id, messages: [{ role: 'user', content: QUESTION }], stream },
  })
}

test("the API's whole answer carries the moved marker and each citation's check", async () => {
  const key = await newKey(app, owner.cookie)
  llm.reply({ kind: 'text', text: scripted() })

  const response = await complete(key, false)

  expect(response.statusCode).toBe(200)
  const completion = ChatCompletionSchema.parse(response.json())
  expect(completion.choices[0]?.message.content).toBe(repairedText())
  expect(completion.citations).toEqual(expectedCitations())
})

test("the API's stream sends the model's words, and its last chunk each citation's check", async () => {
  const key = await newKey(app, owner.cookie)
  llm.reply({ kind: 'text', text: scripted() })

  const response = await complete(key, true)

  const chunks = response.body
    .split('\n\n')
    .filter((block) => block.startsWith('data: {'))
    .map((block) => ChatCompletionChunkSchema.parse(JSON.parse(block.slice(6))))
  expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe(scripted())
  expect(chunks.at(-1)?.citations).toEqual(expectedCitations())
})
