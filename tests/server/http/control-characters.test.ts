import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { chatEndpoints } from '#contracts/chat.ts'
import { ErrorEnvelopeSchema } from '#contracts/endpoint.ts'
import type { App } from '#server/app.ts'
import { call, createConversation, listMessages, send } from '../support/chat-helpers.ts'
import { buildTestApp, signUpAndSignIn } from '../support/helper.ts'

const lines: string[] = []
let app: App
let cookie: string

beforeAll(async () => {
  app = await buildTestApp({ logger: { level: 'info', stream: { write: (line) => lines.push(line) } } })
  cookie = await signUpAndSignIn(app)
})
afterAll(async () => {
  await app.close()
})

const SECRET = 'my secret plan'

test('a message with a NUL byte answers 400 naming the problem, and nothing is stored', async () => {
  const conversation = await createConversation(app, cookie)
  const response = await send(app, cookie, conversation._id, `${SECRET}\u0000`)
  expect(response.statusCode).toBe(400)
  expect(ErrorEnvelopeSchema.parse(response.json()).message).toBe(
    'Message must not contain control characters (such as NUL); tabs and line breaks are fine',
  )
  expect(await listMessages(app, cookie, conversation._id)).toEqual([])
})

test('a title with a control character answers 400; tabs and line breaks are accepted', async () => {
  const bad = await call(app, chatEndpoints.createConversation, { cookie, body: { title: 'Plan\u0007' } })
  expect(bad.statusCode).toBe(400)
  expect(ErrorEnvelopeSchema.parse(bad.json()).message).toMatch(/^Title must not contain control characters/)

  const good = await call(app, chatEndpoints.createConversation, {
    cookie,
    body: { title: 'Line one\nline\ttwo' },
  })
  expect(good.statusCode).toBe(201)
})

test('a search with a control character answers 400 naming the problem, not 500', async () => {
  const response = await app.inject({
    method: chatEndpoints.searchConversations.method,
    url: `${chatEndpoints.searchConversations.path}?q=${encodeURIComponent('plan\u0000')}`,
    headers: { cookie },
  })
  expect(response.statusCode).toBe(400)
  expect(ErrorEnvelopeSchema.parse(response.json()).message).toBe(
    'Search must not contain control characters (such as NUL); tabs and line breaks are fine',
  )
})

test('a rename with a control character answers 400 as a new title does, and the title stays', async () => {
  const conversation = await createConversation(app, cookie, 'Kept title')
  for (const title of ['Plan\u0000', 'Plan\u001b[31m']) {
    const response = await call(app, chatEndpoints.updateConversation, {
      cookie,
      params: { id: conversation._id },
      body: { title },
    })
    expect(response.statusCode).toBe(400)
    expect(ErrorEnvelopeSchema.parse(response.json()).message).toBe(
      'Title must not contain control characters (such as NUL); tabs and line breaks are fine',
    )
  }
  const list = await call(app, chatEndpoints.listConversations, { cookie })
  const titles = chatEndpoints.listConversations.response.parse(list.json()).data.map((c) => c.title)
  expect(titles).toContain('Kept title')
})

test('a failed query is logged with its SQL but without its parameters or PostgreSQL’s quote of them', async () => {
  const failure = await app.db
    .execute(sql`select ${`${SECRET}\u0000`}::text as t, ${'not-a-uuid-secret'}::uuid`)
    .then(
      () => null,
      (error: unknown) => error,
    )
  expect(failure).toBeInstanceOf(Error)
  app.log.error({ err: failure }, 'request failed')
  const line = lines.at(-1) ?? ''
  expect(line).toContain('Failed query: select')
  expect(line).not.toContain(SECRET)
  expect(line).not.toContain('not-a-uuid-secret')
  expect(JSON.parse(line).err.type).toBe('DrizzleQueryError')
})
