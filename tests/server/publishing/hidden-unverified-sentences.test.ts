/**
 * An owner may hide unverified sentences from visitors (issue 39, `hideUnverified`). A scripted
 * model cites one figure right and invents one, cited to a passage nothing else cites: with the
 * setting on, the visitor's `done` and conversation lack the invented sentence, its check and its
 * snippet, and carry a note saying one sentence was left out; the owner's inbox keeps the whole
 * answer. Off (the default), the visitor gets it whole; the setting applies to stored answers too.
 */
import { afterAll, beforeAll, expect, test } from 'vitest'
import { fillPath } from '#contracts/endpoint.ts'
import { publicEndpoints, publishingEndpoints } from '#contracts/publishing.ts'
import type { App } from '#server/app.ts'
import { type FakeLlm, startFakeLlm } from '#tests/fakes/openai-compatible.ts'
import { HOTEL, MEALS, publishedAllowancesBot, QUESTION } from '../support/allowances-bot.ts'
import { call, modelEnv } from '../support/chat-helpers.ts'
import type { Person } from '../support/drive-helpers.ts'
import { buildTestApp } from '../support/helper.ts'
import { askPublic, doneOf, patchAssistantOk, visitorCookie } from '../support/publishing-helpers.ts'

const NOTE = "(One sentence was left out: the assistant's documents do not support it.)"

let llm: FakeLlm
let app: App
let owner: Person
let bot: { id: string; publicId: string }
let hotel: number
let meals: number

/** One figure right; one invented, cited to the hotel passage, which nothing else cites. */
const scripted = () =>
  [`Meals abroad are 45 euros a day [${meals}].`, `A taxi is 300 euros [${hotel}].`, 'Ask HR first.'].join(
    ' ',
  )
const checkedOnly = () => `Meals abroad are 45 euros a day [${meals}]. Ask HR first.\n\n${NOTE}`
const checked = () => ({
  marker: meals,
  sentence: 'Meals abroad are 45 euros a day.',
  outcome: 'checked',
  sourceIndex: meals,
  missing: [],
})
const unverified = () => ({
  marker: hotel,
  sentence: 'A taxi is 300 euros.',
  outcome: 'unverified',
  sourceIndex: hotel,
  missing: ['300 euros'],
})

beforeAll(async () => {
  llm = await startFakeLlm()
  app = await buildTestApp({ env: modelEnv(llm, { WHOLE_DOCUMENT_TOKEN_BUDGET: '0' }) })
  ;({ owner, bot } = await publishedAllowancesBot(app, 'hide-owner'))
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

async function visitorConversation(cookie: string) {
  const response = await app.inject({
    method: 'GET',
    url: fillPath(publicEndpoints.getVisitorConversation.path, { publicId: bot.publicId }),
    headers: { cookie },
  })
  return publicEndpoints.getVisitorConversation.response.parse(response.json()).data.messages
}

async function ownerInbox(conversationId: string) {
  const inbox = await call(app, publishingEndpoints.inboxConversation, {
    cookie: owner.cookie,
    params: { id: bot.id, conversationId },
  })
  return publishingEndpoints.inboxConversation.response.parse(inbox.json()).data.messages
}

test("with hideUnverified on, a visitor's answer leaves out the unverified sentence, its check and its snippet, and says so; the owner's inbox keeps it", async () => {
  const saved = await patchAssistantOk(app, owner.cookie, bot.id, { hideUnverified: true })
  expect(saved.hideUnverified).toBe(true)
  llm.reply({ kind: 'text', text: scripted() })

  const asked = await askPublic(app, bot.publicId, { content: QUESTION })

  const done = doneOf(asked)
  expect(done.aiMessage.content).toBe(checkedOnly())
  expect(done.aiMessage.checks).toEqual([checked()])
  expect(done.aiMessage.sources.map((s) => s.snippet)).toEqual([MEALS])
  expect((await visitorConversation(visitorCookie(asked))).at(-1)).toMatchObject({
    content: checkedOnly(),
    checks: [checked()],
    sources: [{ citation: meals, snippet: MEALS }],
  })
  const ownerSees = (await ownerInbox(done.conversationId)).at(-1)
  expect(ownerSees).toMatchObject({ content: scripted(), checks: [checked(), unverified()] })
  expect(ownerSees?.sources.map((s) => s.citation).sort()).toEqual([1, 2])
  await patchAssistantOk(app, owner.cookie, bot.id, { hideUnverified: false })
})

test('with it off (the default) the visitor gets the whole answer, and turning it on hides the sentence in answers already stored', async () => {
  llm.reply({ kind: 'text', text: scripted() })

  const asked = await askPublic(app, bot.publicId, { content: QUESTION })

  const done = doneOf(asked)
  expect(done.aiMessage.content).toBe(scripted())
  expect(done.aiMessage.checks).toEqual([checked(), unverified()])
  expect(done.aiMessage.sources.map((s) => s.citation).sort()).toEqual([1, 2])
  await patchAssistantOk(app, owner.cookie, bot.id, { hideUnverified: true })
  expect((await visitorConversation(visitorCookie(asked))).at(-1)?.content).toBe(checkedOnly())
  await patchAssistantOk(app, owner.cookie, bot.id, { hideUnverified: false })
  expect((await visitorConversation(visitorCookie(asked))).at(-1)?.content).toBe(scripted())
})
