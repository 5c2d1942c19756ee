/**
 * Read-only links to a conversation (D73): sharing answers a link whose token is stored only as a
 * hash; the link shows exactly the conversation's messages and their quotes as they were when
 * shared (nothing to open a document with); sharing again replaces the snapshot and keeps the
 * link; revoking makes it answer exactly as an unknown link; only the owner shares, lists and
 * revokes; anyone may open a link, counted per address and kept out of search engines.
 */
import { eq } from 'drizzle-orm'
import type { LightMyRequestResponse } from 'fastify'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { fillPath } from '#contracts/endpoint.ts'
import { SHARE_TOKEN_MAX_LENGTH, sharingEndpoints } from '#contracts/sharing.ts'
import type { App } from '#server/app.ts'
import { SHARING_LIMITS } from '#server/chat/sharing-routes.ts'
import { chatMessages, chatShares } from '#server/db/schema.ts'
import {
  call,
  createConversation,
  errorOf,
  indexTravelPolicy,
  listMessages,
  sendOk,
} from '../support/chat-helpers.ts'
import { newPerson, type Person } from '../support/drive-helpers.ts'
import { buildTestApp } from '../support/helper.ts'

const PUBLIC_URL = 'https://docs.example.com'
let app: App

beforeAll(async () => {
  app = await buildTestApp({ env: { PUBLIC_URL } })
})
afterAll(async () => {
  await app.close()
})

const { shareConversation, unshareConversation, listShares, getSharedConversation } = sharingEndpoints

/** A person with a conversation in which one answer cites the travel policy. */
async function conversationWithCitation(): Promise<Person & { conversationId: string }> {
  const person = await newPerson(app, 'share')
  await indexTravelPolicy(app, person.id)
  const conversation = await createConversation(app, person.cookie, 'Meals abroad')
  await sendOk(app, person.cookie, conversation._id, 'What is the daily meal allowance abroad?')
  return { ...person, conversationId: conversation._id }
}

async function shareOk(person: Pick<Person, 'cookie'>, conversationId: string) {
  const response = await call(app, shareConversation, {
    cookie: person.cookie,
    params: { id: conversationId },
  })
  expect(response.statusCode).toBe(200)
  return shareConversation.response.parse(response.json()).data
}

const tokenOf = (url: string) => url.slice(`${PUBLIC_URL}/s/`.length)

/** What anyone (no cookie) gets for a link's token, from `address`. */
const open = (token: string, address = '203.0.113.7') =>
  app.inject({ method: 'GET', url: fillPath(getSharedConversation.path, { token }), remoteAddress: address })

test('the link shows exactly the conversation, its messages and their quotes, and nothing to open a document with', async () => {
  const ada = await conversationWithCitation()
  const messages = await listMessages(app, ada.cookie, ada.conversationId)
  expect(messages[1]?.sources.length).toBeGreaterThan(0)

  const share = await shareOk(ada, ada.conversationId)
  const response = await open(tokenOf(share.url))

  expect(share.url).toMatch(/^https:\/\/docs\.example\.com\/s\/[A-Za-z0-9_-]{43}$/)
  expect(response.statusCode).toBe(200)
  const snapshot = getSharedConversation.response.parse(response.json()).data
  expect(snapshot.title).toBe('Meals abroad')
  // The messages, in order, exactly; and every quote they cite, with where it is from.
  const turn = (m: { isUser: boolean; content: string; createdAt: string; stopped?: boolean }) =>
    `${m.isUser ? 'Q' : 'A'} ${m.createdAt} ${m.stopped === true} ${m.content}`
  expect(snapshot.messages.map(turn)).toEqual(messages.map(turn))
  const cited = messages.flatMap((m) => m.sources)
  expect(snapshot.messages.flatMap((m) => m.sources)).toEqual(
    cited.map(({ citation, documentName, page, heading, quote }) => ({
      citation: citation ?? null,
      documentName,
      page,
      heading: heading ?? null,
      quote: quote ?? '',
    })),
  )
  // No document id, passage id, link or message id leaves with the snapshot.
  const body = response.body
  for (const m of messages) {
    expect(body).not.toContain(m._id)
    for (const s of m.sources) {
      expect(body).not.toContain(s.documentId)
      expect(body).not.toContain(s.chunkId)
      if (s.link) expect(body).not.toContain(s.link)
    }
  }
  expect(response.headers['x-robots-tag']).toContain('noindex')
  expect(response.headers['cache-control']).toBe('no-store')
  expect(response.headers['set-cookie']).toBeUndefined()
})

test('the token is stored only as its hash', async () => {
  const ada = await conversationWithCitation()
  const share = await shareOk(ada, ada.conversationId)

  const rows = await app.db.select().from(chatShares).where(eq(chatShares.conversationId, ada.conversationId))

  expect(rows).toHaveLength(1)
  expect(JSON.stringify(rows)).not.toContain(tokenOf(share.url))
})

test('sharing again replaces the snapshot and keeps the link; the owner lists it', async () => {
  const ada = await conversationWithCitation()
  const first = await shareOk(ada, ada.conversationId)
  await sendOk(app, ada.cookie, ada.conversationId, 'And in economy class?')

  const second = await shareOk(ada, ada.conversationId)

  expect(second.url).toBe(first.url)
  const snapshot = getSharedConversation.response.parse((await open(tokenOf(first.url))).json()).data
  expect(snapshot.messages).toHaveLength(4)
  const listed = listShares.response.parse((await call(app, listShares, { cookie: ada.cookie })).json()).data
  expect(listed).toEqual([
    { conversationId: ada.conversationId, title: 'Meals abroad', url: first.url, sharedAt: second.sharedAt },
  ])
})

test('a revoked link answers exactly as an unknown one: 404, same body and headers', async () => {
  const ada = await conversationWithCitation()
  const share = await shareOk(ada, ada.conversationId)
  const revoke = await call(app, unshareConversation, {
    cookie: ada.cookie,
    params: { id: ada.conversationId },
  })
  expect(revoke.statusCode).toBe(200)

  const revoked = await open(tokenOf(share.url))
  const unknown = await open('A'.repeat(43))
  const malformed = await open('not a token at all')

  const comparable = (r: LightMyRequestResponse) => {
    // The date and the seconds until the window resets tick between calls on a busy machine.
    const {
      date: _date,
      'x-ratelimit-remaining': _remaining,
      'x-ratelimit-reset': _reset,
      ...headers
    } = r.headers
    return { status: r.statusCode, body: r.body, headers }
  }
  expect(comparable(revoked)).toEqual(comparable(unknown))
  expect(comparable(malformed)).toEqual(comparable(unknown))
  expect([revoked.statusCode, errorOf(revoked)]).toEqual([
    404,
    'This shared conversation does not exist or is no longer shared.',
  ])
  const listed = listShares.response.parse((await call(app, listShares, { cookie: ada.cookie })).json()).data
  expect(listed).toEqual([])
})

test('a token over 100 characters, or an over-long id, is a 400 that says so, however long (docs/api.md)', async () => {
  const ada = await newPerson(app, 'share-long')
  const address = '203.0.113.41'

  const longest = await open('A'.repeat(SHARE_TOKEN_MAX_LENGTH), address)
  expect([longest.statusCode, errorOf(longest)]).toEqual([
    404,
    'This shared conversation does not exist or is no longer shared.',
  ])
  for (const length of [SHARE_TOKEN_MAX_LENGTH + 1, 8000]) {
    const response = await open('A'.repeat(length), address)
    expect([response.statusCode, errorOf(response)]).toEqual([400, 'Not a valid link'])
    expect(response.headers['x-robots-tag']).toBe('noindex, nofollow, noarchive')
  }
  const share = await call(app, shareConversation, { cookie: ada.cookie, params: { id: 'a'.repeat(200) } })
  expect([share.statusCode, errorOf(share)]).toEqual([400, 'Not a valid id'])
})

test("only the owner shares, revokes and lists: another person's conversation is a 404", async () => {
  const ada = await conversationWithCitation()
  const share = await shareOk(ada, ada.conversationId)
  const bob = await newPerson(app, 'share-bob')

  for (const endpoint of [shareConversation, unshareConversation]) {
    const response = await call(app, endpoint, { cookie: bob.cookie, params: { id: ada.conversationId } })
    expect([response.statusCode, errorOf(response)]).toEqual([404, 'Conversation not found'])
  }
  expect((await call(app, listShares, { cookie: bob.cookie })).json()).toEqual({ success: true, data: [] })
  expect((await open(tokenOf(share.url))).statusCode).toBe(200)
  const anonymous = await call(app, shareConversation, { params: { id: ada.conversationId } })
  expect(anonymous.statusCode).toBe(401)
})

test('deleting the conversation ends its link', async () => {
  const ada = await conversationWithCitation()
  const share = await shareOk(ada, ada.conversationId)

  await app.inject({
    method: 'DELETE',
    url: `/api/v1/chat/sessions/${ada.conversationId}/delete`,
    headers: { cookie: ada.cookie },
  })

  expect((await open(tokenOf(share.url))).statusCode).toBe(404)
})

test('an empty conversation has nothing to share, and one too long to serve is refused', async () => {
  const ada = await newPerson(app, 'share-bounds')
  const empty = await createConversation(app, ada.cookie, 'Nothing yet')
  const refused = await call(app, shareConversation, { cookie: ada.cookie, params: { id: empty._id } })
  expect([refused.statusCode, errorOf(refused)]).toEqual([
    409,
    'There is nothing to share yet: this conversation has no messages.',
  ])

  const long = await createConversation(app, ada.cookie, 'Very long')
  const content = 'x'.repeat(8000)
  await app.db.insert(chatMessages).values(
    Array.from({ length: 300 }, (_, i) => ({
      conversationId: long._id,
      userId: ada.id,
      isUser: i % 2 === 0,
      content,
      createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)),
    })),
  )
  const tooLong = await call(app, shareConversation, { cookie: ada.cookie, params: { id: long._id } })
  expect([tooLong.statusCode, errorOf(tooLong)]).toEqual([413, 'This conversation is too long to share.'])
})

test('opening links is counted per address: past the limit, 429 for that address only', async () => {
  const { max } = SHARING_LIMITS.openingsPerAddress
  for (let i = 0; i < max; i++) expect((await open('B'.repeat(43), '198.51.100.9')).statusCode).toBe(404)

  expect((await open('B'.repeat(43), '198.51.100.9')).statusCode).toBe(429)
  expect((await open('B'.repeat(43), '198.51.100.10')).statusCode).toBe(404)
})
