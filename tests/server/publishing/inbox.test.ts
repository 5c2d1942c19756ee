/**
 * The owner's inbox of visitor conversations (issue 37, D117): newest activity first in pages of
 * 20, the Unanswered filter (an answer that fell back, found nothing or was disliked), another
 * person's assistant answering 404 like a missing one, one conversation as the visitor saw it,
 * the CSV export with spreadsheet formulas neutralised, deleting one or all, and the retention
 * sweep on the app's clock. Conversations are stored through the visitor repository (the visitor
 * calls themselves are visitor-calls.test.ts'). With TEST_DATABASE_URL set it runs on PostgreSQL.
 */
import { afterAll, beforeAll, expect, test } from 'vitest'
import { fillPath } from '#contracts/endpoint.ts'
import { InboxSchema, publishingEndpoints } from '#contracts/publishing.ts'
import type { App } from '#server/app.ts'
import { csvCell } from '#server/publishing/inbox-csv.ts'
import { INBOX_CURSOR_INVALID, visitorLabel } from '#server/publishing/inbox-service.ts'
import { VISITOR_CONVERSATION_NOT_FOUND } from '#server/publishing/publishing-errors.ts'
import { setVisitorFeedback, storeVisitorExchange } from '#server/publishing/visitor-repository.ts'
import { createAssistantOk } from '../support/assistant-helpers.ts'
import { errorOf } from '../support/chat-helpers.ts'
import { newPerson, type Person } from '../support/drive-helpers.ts'
import { buildTestApp } from '../support/helper.ts'
import { patchAssistantOk } from '../support/publishing-helpers.ts'

const DAY = 24 * 60 * 60_000
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10)
const clock = new Date('2030-01-01T12:00:00Z').getTime()
let app: App
let owner: Person
let stranger: Person

beforeAll(async () => {
  app = await buildTestApp({ now: () => new Date(clock) })
  owner = await newPerson(app, 'inbox-owner')
  stranger = await newPerson(app, 'inbox-stranger')
})

afterAll(async () => {
  await app.close()
})

async function publishedAssistant(name: string, retentionDays = 90): Promise<string> {
  const { _id } = await createAssistantOk(app, owner.cookie, { name })
  await patchAssistantOk(app, owner.cookie, _id, { published: true, retentionDays })
  return _id
}

type Exchange = {
  question?: string
  visitor?: string
  answer?: { fellBack?: boolean; foundNothing?: boolean }
  conversationId?: string
  at?: number
}

/** A question and its answer as the visitor calls store them, at `at` (the clock by default). */
async function exchange(assistantId: string, x: Exchange = {}) {
  const at = new Date(x.at ?? clock)
  const visitor = x.visitor ?? 'anon-key-1'
  const signed = visitor.startsWith('sub:')
  return storeVisitorExchange(app.db, {
    assistantId,
    ownerId: owner.id,
    conversationId: x.conversationId ?? null,
    visitor: { key: visitor, signed, name: signed ? 'Grace Hopper' : null, email: null },
    question: x.question ?? 'How many days off do I get?',
    askedAt: at,
    answer: {
      content: 'You get 25 days a year [1].',
      sources: [{ citation: 1, documentName: 'Leave policy.pdf', page: 3, snippet: 'Staff get 25 days.' }],
      fellBack: x.answer?.fellBack ?? false,
      foundNothing: x.answer?.foundNothing ?? false,
      tokens: 100,
    },
    answeredAt: new Date(at.getTime() + 1000),
  })
}

function inbox(assistantId: string, search = '', cookie = owner.cookie) {
  return app.inject({
    method: 'GET',
    url: `${fillPath(publishingEndpoints.inbox.path, { id: assistantId })}${search}`,
    headers: { cookie },
  })
}

async function inboxOk(assistantId: string, search = '') {
  const response = await inbox(assistantId, search)
  expect(response.statusCode, response.body).toBe(200)
  return InboxSchema.parse(response.json().data)
}

function conversationCall(
  method: 'GET' | 'DELETE',
  assistantId: string,
  conversationId: string,
  cookie = owner.cookie,
) {
  return app.inject({
    method,
    url: fillPath(publishingEndpoints.inboxConversation.path, { id: assistantId, conversationId }),
    headers: { cookie },
  })
}

test('the inbox lists conversations newest first in pages of 20, with counts, visitors, top questions and days', async () => {
  const id = await publishedAssistant('Paged bot')
  const start = clock - 25 * 60_000
  for (let i = 0; i < 22; i++)
    await exchange(id, {
      visitor: `anon-${i}`,
      question: i % 2 ? '  How MANY   days off? ' : 'Parking?',
      at: start + i * 60_000,
    })
  const signed = await exchange(id, {
    visitor: 'sub:u-42',
    question: 'how many days off?',
    at: clock - 2 * DAY,
  })
  await exchange(id, {
    visitor: 'sub:u-42',
    conversationId: signed.conversationId,
    question: 'And carry over?',
    at: clock - 2 * DAY + 5000,
  })
  await setVisitorFeedback(app.db, {
    assistantId: id,
    visitorKey: 'sub:u-42',
    messageId: signed.answer.id,
    feedback: 'like',
  })

  const first = await inboxOk(id)
  expect(first.conversations).toHaveLength(20)
  expect(first.conversations[0]?.firstQuestion).toBe('  How MANY   days off? ')
  expect(first.conversations[0]?.visitor).toEqual({
    id: visitorLabel('anon-21'),
    signed: false,
    name: null,
    email: null,
  })
  expect(first.conversations[0]?.visitor.id).not.toContain('anon-21')
  expect(first.next).not.toBeNull()
  const second = await inboxOk(id, `?cursor=${first.next}`)
  expect(second.next).toBeNull()
  expect(second.conversations).toHaveLength(3)
  const ids = [...first.conversations, ...second.conversations].map((c) => c._id)
  expect(new Set(ids).size).toBe(23)
  const last = second.conversations.at(-1)
  expect(last).toMatchObject({
    _id: signed.conversationId,
    visitor: { id: 'u-42', signed: true, name: 'Grace Hopper', email: null },
    messageCount: 4,
    likes: 1,
    dislikes: 0,
    unanswered: false,
  })
  expect(first.topQuestions.days7[0]).toEqual({ question: 'how many days off?', count: 12 })
  expect(first.topQuestions.days7).toContainEqual({ question: 'parking?', count: 11 })
  expect(first.perDay).toHaveLength(30)
  expect(first.perDay.at(-1)).toEqual({ day: dayOf(clock), conversations: 22, tokens: 2200 })
  expect(first.perDay.at(-3)).toEqual({ day: dayOf(clock - 2 * DAY), conversations: 1, tokens: 200 })
  expect(first.perDay[0]).toEqual({ day: dayOf(clock - 29 * DAY), conversations: 0, tokens: 0 })

  const bad = await inbox(id, '?cursor=not-a-cursor')
  expect(bad.statusCode).toBe(400)
  expect(errorOf(bad)).toBe(INBOX_CURSOR_INVALID)
})

test('Unanswered lists the conversations whose answer fell back, found nothing or was disliked', async () => {
  const id = await publishedAssistant('Filter bot')
  const answered = await exchange(id, { visitor: 'a', at: clock - 4000 })
  const fellBack = await exchange(id, { visitor: 'b', answer: { fellBack: true }, at: clock - 3000 })
  const nothing = await exchange(id, { visitor: 'c', answer: { foundNothing: true }, at: clock - 2000 })
  const disliked = await exchange(id, { visitor: 'd', at: clock - 1000 })
  await setVisitorFeedback(app.db, {
    assistantId: id,
    visitorKey: 'd',
    messageId: disliked.answer.id,
    feedback: 'dislike',
  })

  const all = await inboxOk(id, '?filter=all')
  expect(all.conversations.map((c) => c._id)).toEqual(
    [disliked, nothing, fellBack, answered].map((x) => x.conversationId),
  )
  const unanswered = await inboxOk(id, '?filter=unanswered')
  expect(unanswered.conversations.map((c) => c._id)).toEqual(
    [disliked, nothing, fellBack].map((x) => x.conversationId),
  )
  expect(unanswered.conversations[0]).toMatchObject({ unanswered: true, dislikes: 1, likes: 0 })
})

test("another person's assistant answers 404 like a missing one, on every inbox call", async () => {
  const id = await publishedAssistant('Private bot')
  const { conversationId } = await exchange(id)
  const missing = await inbox('00000000-0000-4000-8000-000000000000')
  expect(missing.statusCode).toBe(404)
  const foreign = await inbox(id, '', stranger.cookie)
  expect(foreign.statusCode).toBe(404)
  expect(errorOf(foreign)).toBe(errorOf(missing))
  expect((await inbox(id, '?format=csv', stranger.cookie)).statusCode).toBe(404)
  expect((await conversationCall('GET', id, conversationId, stranger.cookie)).statusCode).toBe(404)
  expect((await conversationCall('DELETE', id, conversationId, stranger.cookie)).statusCode).toBe(404)
  expect((await inboxOk(id)).conversations).toHaveLength(1)
})

test('one conversation shows its messages as the visitor saw them (names hidden when the owner hides them)', async () => {
  const id = await publishedAssistant('Detail bot')
  await patchAssistantOk(app, owner.cookie, id, { showSourceNames: false })
  const { conversationId } = await exchange(id, { question: 'Days off?' })
  const response = await conversationCall('GET', id, conversationId)
  expect(response.statusCode, response.body).toBe(200)
  const { data } = publishingEndpoints.inboxConversation.response.parse(response.json())
  expect(data.conversation).toMatchObject({
    _id: conversationId,
    firstQuestion: 'Days off?',
    messageCount: 2,
  })
  expect(data.messages.map((m) => [m.isUser, m.content])).toEqual([
    [true, 'Days off?'],
    [false, 'You get 25 days a year [1].'],
  ])
  expect(data.messages[1]?.sources).toEqual([
    { citation: 1, documentName: null, page: 3, snippet: 'Staff get 25 days.' },
  ])
  const gone = await conversationCall('GET', id, '00000000-0000-4000-8000-000000000000')
  expect(gone.statusCode).toBe(404)
  expect(errorOf(gone)).toBe(VISITOR_CONVERSATION_NOT_FOUND)
})

test('the CSV export has a header, one row per message, and formulas neutralised', async () => {
  const id = await publishedAssistant('Export bot')
  await exchange(id, { visitor: 'sub:u-7', question: '=HYPERLINK("https://evil.example","click")' })
  const response = await inbox(id, '?format=csv')
  expect(response.statusCode, response.body).toBe(200)
  expect(response.headers['content-type']).toBe('text/csv; charset=utf-8')
  expect(response.headers['content-disposition']).toMatch(
    `attachment; filename="conversations-${dayOf(clock)}.csv"`,
  )
  const lines = response.body.trimEnd().split('\r\n')
  expect(lines[0]).toBe('"conversation","visitor","signed name","when","role","content","feedback"')
  expect(lines).toHaveLength(3)
  expect(lines[1]).toContain(`"u-7","Grace Hopper","${new Date(clock).toISOString()}","visitor"`)
  expect(lines[1]).toContain(`"'=HYPERLINK(""https://evil.example"",""click"")"`)
  expect(lines[2]).toContain('"assistant","You get 25 days a year [1].",""')
  expect(['+1', '-1', '@SUM(A1)', '\t=1', '\r=1', 'a=1'].map(csvCell)).toEqual([
    `"'+1"`,
    `"'-1"`,
    `"'@SUM(A1)"`,
    `"'\t=1"`,
    `"'\r=1"`,
    '"a=1"',
  ])
})

test('deleting one conversation, then all of them, answers how many went', async () => {
  const id = await publishedAssistant('Delete bot')
  const one = await exchange(id, { visitor: 'a' })
  await exchange(id, { visitor: 'b' })
  await exchange(id, { visitor: 'c' })
  const deleted = await conversationCall('DELETE', id, one.conversationId)
  expect(deleted.statusCode, deleted.body).toBe(200)
  expect((await conversationCall('GET', id, one.conversationId)).statusCode).toBe(404)
  expect((await conversationCall('DELETE', id, one.conversationId)).statusCode).toBe(404)
  const all = await app.inject({
    method: 'DELETE',
    url: fillPath(publishingEndpoints.deleteInboxConversations.path, { id }),
    headers: { cookie: owner.cookie },
  })
  expect(all.statusCode, all.body).toBe(200)
  expect(all.json().data).toEqual({ deleted: 2 })
  expect((await inboxOk(id)).conversations).toEqual([])
})

test("the retention sweep deletes only the conversations whose last activity is past their assistant's retention", async () => {
  const week = await publishedAssistant('Week bot', 7)
  const longer = await publishedAssistant('Longer bot', 30)
  const old = await exchange(week, { visitor: 'a', at: clock - 10 * DAY })
  const revived = await exchange(week, { visitor: 'b', at: clock - 10 * DAY })
  await exchange(week, { visitor: 'b', conversationId: revived.conversationId, at: clock - 1 * DAY })
  const kept = await exchange(longer, { visitor: 'c', at: clock - 10 * DAY })

  const deleted = await app.inbox.sweepExpired(new Date(clock))
  expect(deleted).toBe(1)
  expect((await inboxOk(week)).conversations.map((c) => c._id)).toEqual([revived.conversationId])
  expect((await inboxOk(longer)).conversations.map((c) => c._id)).toEqual([kept.conversationId])
  expect((await conversationCall('GET', week, old.conversationId)).statusCode).toBe(404)

  // Three weeks on (the sweep is given its moment; the owner's session is on today's clock).
  await app.inbox.sweepExpired(new Date(clock + 21 * DAY))
  expect((await inboxOk(longer)).conversations).toEqual([])
})
