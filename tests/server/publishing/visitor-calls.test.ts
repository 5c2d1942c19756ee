/**
 * A published assistant's visitors (issue 37, D117, D118): only our own pages may call (another
 * site's Origin is refused), an anonymous visitor is kept by a cookie of ours, a signed visitor by
 * the host site's token (HS256 with the identity secret, this assistant's audience, short-lived);
 * questions of at most 2,000 characters; answers show cited snippets only (≤ 300 characters,
 * names hidden when asked), never a passage outside the knowledge; the budget port's refusal is
 * the owner's busy sentence with 429 and Retry-After; feedback only on the visitor's own answers.
 * With TEST_DATABASE_URL set the same file runs on PostgreSQL.
 */
import { afterAll, beforeAll, expect, test } from 'vitest'
import { fillPath } from '#contracts/endpoint.ts'
import { publicEndpoints, publishingEndpoints } from '#contracts/publishing.ts'
import type { App } from '#server/app.ts'
import {
  FOREIGN_ORIGIN,
  TOKEN_EXPIRED,
  TOKEN_REFUSED,
  VISITOR_MESSAGE_NOT_FOUND,
} from '#server/publishing/publishing-errors.ts'
import { type FakeLlm, startFakeLlm } from '#tests/fakes/openai-compatible.ts'
import { createAssistantOk } from '../support/assistant-helpers.ts'
import { call, modelEnv } from '../support/chat-helpers.ts'
import { newPerson, type Person } from '../support/drive-helpers.ts'
import { buildTestApp } from '../support/helper.ts'
import { addLibraryDocument } from '../support/library-helpers.ts'
import {
  admitAll,
  askPublic,
  doneOf,
  parsePublicStream,
  patchAssistantOk,
  signUserToken,
  switchableBudgets,
  unsignedToken,
  visitorCookie,
} from '../support/publishing-helpers.ts'

const OUTSIDE_MARK = 'KESTREL-4417'
const LONG_TAIL = ' Receipts are needed for every claim above twenty euros.'.repeat(12)
const HOTEL = 'Hotel nights abroad are refunded up to 150 euros.'
const PUBLIC_ORIGIN = 'http://127.0.0.1:3000'
let llm: FakeLlm
let app: App
let owner: Person
let clock = new Date('2030-01-01T12:00:00Z').getTime()
const budgets = switchableBudgets(90)
const spent = admitAll()
let bot: { id: string; publicId: string }
let secret: string

beforeAll(async () => {
  llm = await startFakeLlm()
  app = await buildTestApp({
    env: modelEnv(llm, { WHOLE_DOCUMENT_TOKEN_BUDGET: '0', PUBLIC_URL: PUBLIC_ORIGIN }),
    now: () => new Date(clock),
    visitorBudgets: {
      admit: async (input) => {
        const refused = await budgets.admit(input)
        return refused.kind === 'refused' ? refused : spent.admit(input)
      },
    },
  })
  owner = await newPerson(app, 'visitor-owner')
  const policy = await addLibraryDocument(app, owner.id, {
    name: 'travel-policy.txt',
    text: `The daily meal allowance abroad is 45 euros per person.${LONG_TAIL} ${HOTEL}`,
  })
  await addLibraryDocument(app, owner.id, {
    name: 'memo.txt',
    text: `Memo ${OUTSIDE_MARK}: the daily meal allowance abroad is now 60 euros per person.`,
  })
  const created = await createAssistantOk(app, owner.cookie, {
    name: 'Travel bot',
    knowledge: { documentIds: [policy], folderIds: [] },
    answerPolicy: 'documents-first',
  })
  const published = await patchAssistantOk(app, owner.cookie, created._id, {
    published: true,
    busyMessage: 'Too many questions today, sorry!',
  })
  bot = { id: created._id, publicId: published.publicId ?? '' }
  const rotated = await call(app, publishingEndpoints.rotateIdentitySecret, {
    cookie: owner.cookie,
    params: { id: bot.id },
  })
  secret = rotated.json().data.secret
}, 60_000)
afterAll(async () => {
  await app?.close()
  await llm?.close()
})

const QUESTION = 'What is the meal allowance abroad?'

test('a call from another site is refused before anything is looked up; our own pages may call', async () => {
  const foreign = await askPublic(
    app,
    bot.publicId,
    { content: QUESTION },
    { origin: 'https://evil.example' },
  )
  const crossSite = await app.inject({
    method: 'GET',
    url: fillPath(publicEndpoints.getPublicAssistant.path, { publicId: bot.publicId }),
    headers: { 'sec-fetch-site': 'cross-site' },
  })
  await patchAssistantOk(app, owner.cookie, bot.id, { allowedOrigins: ['https://intranet.example.com'] })
  // An allowed site frames the widget; its own scripts never call directly.
  const listed = await askPublic(
    app,
    bot.publicId,
    { content: QUESTION },
    { origin: 'https://intranet.example.com', 'sec-fetch-site': 'cross-site' },
  )
  const unknownForeign = await askPublic(
    app,
    'AAAAAAAAAAAAAAAAAAAAAA',
    { content: QUESTION },
    { origin: 'https://evil.example' },
  )
  for (const response of [foreign, crossSite, listed, unknownForeign]) {
    expect(response.statusCode).toBe(403)
  }
  // The POSTs meet the app's cross-site guard first (its own sentence); the reads meet ours.
  expect(crossSite.json().message).toBe(FOREIGN_ORIGIN)
  expect(spent.asked).toHaveLength(0)

  llm.reply({ kind: 'text', text: 'It is 45 euros [1].' })
  const own = await askPublic(
    app,
    bot.publicId,
    { content: QUESTION },
    { origin: PUBLIC_ORIGIN, 'sec-fetch-site': 'same-origin' },
  )
  expect(own.statusCode).toBe(200)
  expect(doneOf(own).aiMessage.content).toBe('It is 45 euros [1].')
})

test('an anonymous visitor gets a cookie of ours that keeps their conversation across reloads', async () => {
  llm.reply({ kind: 'text', text: 'It is 45 euros a day [1].' })
  const first = await askPublic(app, bot.publicId, { content: QUESTION })
  const cookie = first.cookies.find((c) => c.name === 'docchat_visitor')
  expect(cookie).toMatchObject({ httpOnly: true, path: '/api/v1/public', sameSite: 'None', secure: true })
  expect(String(first.headers['set-cookie'])).toContain('Partitioned')
  expect(String(first.headers['set-cookie'])).not.toContain('docchat_access')
  const { conversationId } = doneOf(first)

  const reloaded = await app.inject({
    method: 'GET',
    url: fillPath(publicEndpoints.getVisitorConversation.path, { publicId: bot.publicId }),
    headers: { cookie: visitorCookie(first) },
  })
  const kept = publicEndpoints.getVisitorConversation.response.parse(reloaded.json()).data
  expect(kept.conversationId).toBe(conversationId)
  expect(kept.messages.map((m) => m.content)).toEqual([QUESTION, 'It is 45 euros a day [1].'])

  // Another visitor cannot continue it, nor read it.
  const stranger = await askPublic(app, bot.publicId, { content: 'And in Norway?', conversationId })
  expect(stranger.statusCode).toBe(404)
  const none = await app.inject({
    method: 'GET',
    url: fillPath(publicEndpoints.getVisitorConversation.path, { publicId: bot.publicId }),
  })
  expect(none.statusCode).toBe(404)
})

test('a question over 2,000 characters is refused with 400 and never reaches the model', async () => {
  const before = llm.requests.length
  const response = await askPublic(app, bot.publicId, { content: 'x'.repeat(2001) })
  expect(response.statusCode).toBe(400)
  expect(response.json().message).toBe('A question can be at most 2000 characters')
  expect(llm.requests.length).toBe(before)
})

test('visitors see cited snippets only, at most 300 characters, never a passage outside the knowledge', async () => {
  await patchAssistantOk(app, owner.cookie, bot.id, { showSourceNames: true })
  llm.reply({ kind: 'text', text: 'It is 45 euros [1].' })
  const from = llm.requests.length
  const cited = await askPublic(app, bot.publicId, { content: QUESTION })
  const events = parsePublicStream(cited.body)
  expect(new Set(events.map((e) => e.event))).toEqual(new Set(['token', 'done']))
  expect(cited.body).not.toContain('event: sources')
  const { aiMessage } = doneOf(cited)
  expect(aiMessage.sources).toHaveLength(1)
  expect(aiMessage.sources[0]).toMatchObject({ citation: 1, documentName: 'travel-policy.txt', page: null })
  expect(aiMessage.sources[0]?.snippet.length).toBeLessThanOrEqual(300)
  expect(aiMessage.sources[0]?.snippet).toMatch(/^The daily meal allowance abroad is 45 euros/)
  expect(cited.body).not.toMatch(/documentId|chunkId|link|quote/)
  expect(JSON.stringify(llm.requests.slice(from))).not.toContain(OUTSIDE_MARK)
  expect(cited.body).not.toContain(OUTSIDE_MARK)

  // An answer that cites nothing shows nothing, though the model was given a passage.
  llm.reply({ kind: 'text', text: 'It is 45 euros.' })
  expect(doneOf(await askPublic(app, bot.publicId, { content: QUESTION })).aiMessage.sources).toEqual([])

  await patchAssistantOk(app, owner.cookie, bot.id, { showSourceNames: false })
  llm.reply({ kind: 'text', text: 'It is 45 euros [1].' })
  const hidden = await askPublic(app, bot.publicId, { content: QUESTION })
  expect(doneOf(hidden).aiMessage.sources[0]?.documentName).toBeNull()
  expect(hidden.body).not.toContain('travel-policy')
  await patchAssistantOk(app, owner.cookie, bot.id, { showSourceNames: true })
})

test('a snippet is the words around the sentence the answer cites, not the passage’s start', async () => {
  llm.reply({ kind: 'text', text: 'A hotel night is refunded up to 150 euros [1].' })
  const [source] = doneOf(await askPublic(app, bot.publicId, { content: QUESTION })).aiMessage.sources
  expect(source?.snippet.endsWith(HOTEL)).toBe(true)
  expect(source?.snippet.startsWith('…')).toBe(true)
  expect([...(source?.snippet ?? '')].length).toBeLessThanOrEqual(300)
})

test("over a budget: the owner's busy sentence, 429 and Retry-After, and no model call", async () => {
  budgets.refusing = true
  const before = llm.requests.length
  try {
    const response = await askPublic(app, bot.publicId, { content: QUESTION })
    expect(response.statusCode).toBe(429)
    expect(response.headers['retry-after']).toBe('90')
    expect(response.json()).toEqual({ success: false, message: 'Too many questions today, sorry!' })
    expect(llm.requests.length).toBe(before)
  } finally {
    budgets.refusing = false
  }
})

test('every admitted answer reports what it spent, keyed by the visitor', async () => {
  const asked = spent.asked.length
  llm.reply({ kind: 'text', text: 'It is 45 euros [1].' })
  const response = await askPublic(app, bot.publicId, { content: QUESTION })
  doneOf(response)
  expect(spent.asked.length).toBe(asked + 1)
  expect(spent.asked.at(-1)).toMatchObject({ assistantId: bot.id, ownerId: owner.id })
  expect(spent.asked.at(-1)?.visitorKey).toBe(visitorCookie(response).split('=')[1])
  expect(spent.spent.at(-1)).toBeGreaterThan(0)
})

test("feedback is taken only on the visitor's own answers", async () => {
  llm.reply({ kind: 'text', text: 'It is 45 euros [1].' })
  const mine = await askPublic(app, bot.publicId, { content: QUESTION })
  const { aiMessage, userMessage } = doneOf(mine)
  const rate = (id: string, cookie?: string) =>
    app.inject({
      method: 'POST',
      url: fillPath(publicEndpoints.feedback.path, { publicId: bot.publicId, id }),
      headers: cookie ? { cookie } : {},
      payload: { feedback: 'dislike' },
    })
  const stranger = await rate(aiMessage._id)
  const question = await rate(userMessage._id, visitorCookie(mine))
  expect([stranger.statusCode, question.statusCode]).toEqual([404, 404])
  expect(stranger.json().message).toBe(VISITOR_MESSAGE_NOT_FOUND)
  expect((await rate(aiMessage._id, visitorCookie(mine))).statusCode).toBe(200)
})

test("a signed visitor is the host site's user on every device; bad tokens are refused with a sentence", async () => {
  const now = new Date(clock)
  const good = await signUserToken(secret, { sub: 'emp-42', aud: bot.publicId, name: 'Ada' }, { now })
  llm.reply({ kind: 'text', text: 'It is 45 euros [1].' })
  const first = await askPublic(app, bot.publicId, { content: QUESTION, userToken: good })
  const { conversationId } = doneOf(first)
  expect(first.cookies.find((c) => c.name === 'docchat_visitor')).toBeUndefined()
  expect(spent.asked.at(-1)?.visitorKey).toBe('sub:emp-42')
  // Another device (no cookie) carries on the same conversation with a fresh token.
  llm.reply({ kind: 'text', text: 'Yes [1].' })
  const again = await askPublic(app, bot.publicId, {
    content: 'Per person?',
    conversationId,
    userToken: good,
  })
  expect(doneOf(again).conversationId).toBe(conversationId)

  const refusals: [string, string][] = [
    [
      await signUserToken(secret, { sub: 'emp-42', aud: bot.publicId }, { now, ttlSeconds: -10 }),
      TOKEN_EXPIRED,
    ],
    [await signUserToken(secret, { sub: 'emp-42', aud: 'another-assistant' }, { now }), TOKEN_REFUSED],
    [
      await signUserToken(
        'not-the-secret-0123456789abcdef0123456789',
        { sub: 'emp-42', aud: bot.publicId },
        { now },
      ),
      TOKEN_REFUSED,
    ],
    [unsignedToken({ sub: 'emp-42', aud: bot.publicId }, now), TOKEN_REFUSED],
    [await signUserToken(secret, { aud: bot.publicId }, { now }), TOKEN_REFUSED],
    [
      await signUserToken(secret, { sub: 'emp-42', aud: bot.publicId }, { now, ttlSeconds: 3600 }),
      TOKEN_REFUSED,
    ],
    ['not a token', TOKEN_REFUSED],
  ]
  const asked = spent.asked.length
  for (const [token, sentence] of refusals) {
    const response = await askPublic(app, bot.publicId, { content: QUESTION, userToken: token })
    expect(response.statusCode, sentence).toBe(401)
    expect(response.json().message).toBe(sentence)
  }
  expect(spent.asked.length).toBe(asked)

  // The clock moves past the token's expiry: refused as expired.
  clock += 6 * 60_000
  const later = await askPublic(app, bot.publicId, { content: QUESTION, userToken: good })
  expect(later.json().message).toBe(TOKEN_EXPIRED)

  // A rotation ends every token signed with the old secret.
  const fresh = await signUserToken(secret, { sub: 'emp-42', aud: bot.publicId }, { now: new Date(clock) })
  await call(app, publishingEndpoints.rotateIdentitySecret, { cookie: owner.cookie, params: { id: bot.id } })
  const rotated = await askPublic(app, bot.publicId, { content: QUESTION, userToken: fresh })
  expect(rotated.statusCode).toBe(401)
})
