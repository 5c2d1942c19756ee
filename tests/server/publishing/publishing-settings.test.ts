/**
 * Publishing an assistant (issue 37, D117): off by default, turned on with PATCH /assistants/:id,
 * which makes an unguessable public id kept for good; the identity secret shown once and sealed
 * at rest; the public pages and their headers (who may frame the widget, who may index the page).
 * With TEST_DATABASE_URL set the same file runs on PostgreSQL.
 */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { assistantEndpoints } from '#contracts/assistants.ts'
import { fillPath } from '#contracts/endpoint.ts'
import { DEFAULT_PUBLISHING, publicEndpoints, publishingEndpoints } from '#contracts/publishing.ts'
import type { App } from '#server/app.ts'
import { assistantPublications } from '#server/db/schema.ts'
import { NOT_BUILT_MESSAGE } from '#server/http/spa.ts'
import { ASSISTANT_UNAVAILABLE } from '#server/publishing/publishing-errors.ts'
import { createAssistantOk } from '../support/assistant-helpers.ts'
import { call } from '../support/chat-helpers.ts'
import { newPerson, type Person } from '../support/drive-helpers.ts'
import { buildTestApp } from '../support/helper.ts'
import { patchAssistantOk } from '../support/publishing-helpers.ts'

const PAGE_HTML = '<!doctype html><title>DocChat assistant</title>'
const LOADER_JS = 'window.DocChat={}'
let app: App
let unbuilt: App
let owner: Person

beforeAll(async () => {
  const dist = mkdtempSync(join(tmpdir(), 'docchat-public-'))
  writeFileSync(join(dist, 'index.html'), '<!doctype html><title>DocChat</title>')
  writeFileSync(join(dist, 'public.html'), PAGE_HTML)
  writeFileSync(join(dist, 'embed.js'), LOADER_JS)
  app = await buildTestApp({ distDir: dist })
  unbuilt = await buildTestApp()
  owner = await newPerson(app, 'publisher')
}, 60_000)
afterAll(async () => {
  await app?.close()
  await unbuilt?.close()
})

async function newAssistant(name = 'HR bot') {
  return createAssistantOk(app, owner.cookie, { name, description: 'Answers HR questions' })
}

const publicInfo = (publicId: string) =>
  app.inject({ method: 'GET', url: fillPath(publicEndpoints.getPublicAssistant.path, { publicId }) })

test('an assistant is unpublished until its owner publishes it, with every default', async () => {
  const bot = await newAssistant()
  expect(bot).toMatchObject(DEFAULT_PUBLISHING)
  expect(bot.publicId).toBeNull()
})

test('publishing makes an unguessable public id that stays when unpublished and published again', async () => {
  const bot = await newAssistant()
  const published = await patchAssistantOk(app, owner.cookie, bot._id, {
    published: true,
    allowedOrigins: ['https://intranet.example.com'],
    privacyNotice: 'We keep questions for 90 days.',
  })
  expect(published.publicId).toMatch(/^[A-Za-z0-9_-]{22,}$/)
  expect(published).toMatchObject({
    published: true,
    allowedOrigins: ['https://intranet.example.com'],
    privacyNotice: 'We keep questions for 90 days.',
    busyMessage: DEFAULT_PUBLISHING.busyMessage,
  })
  const other = await patchAssistantOk(app, owner.cookie, (await newAssistant('Other'))._id, {
    published: true,
  })
  expect(other.publicId).not.toBe(published.publicId)

  const off = await patchAssistantOk(app, owner.cookie, bot._id, { published: false })
  expect(off.publicId).toBe(published.publicId)
  const again = await patchAssistantOk(app, owner.cookie, bot._id, { published: true })
  expect(again.publicId).toBe(published.publicId)
  // Other edits leave publishing as it was.
  const renamed = await patchAssistantOk(app, owner.cookie, bot._id, { name: 'HR helper' })
  expect(renamed).toMatchObject({ published: true, publicId: published.publicId })
})

test('unknown, unpublished and deleted public ids answer the same 404', async () => {
  const bot = await newAssistant()
  const { publicId } = await patchAssistantOk(app, owner.cookie, bot._id, { published: true })
  const live = await publicInfo(publicId ?? '')
  expect(live.statusCode).toBe(200)
  expect(publicEndpoints.getPublicAssistant.response.parse(live.json()).data).toEqual({
    publicId,
    name: 'HR bot',
    description: 'Answers HR questions',
    starterQuestions: [],
    privacyNotice: '',
    requireChallenge: false,
  })

  const unknown = await publicInfo('AAAAAAAAAAAAAAAAAAAAAA')
  await patchAssistantOk(app, owner.cookie, bot._id, { published: false })
  const unpublished = await publicInfo(publicId ?? '')
  await patchAssistantOk(app, owner.cookie, bot._id, { published: true })
  await call(app, assistantEndpoints.deleteAssistant, {
    cookie: owner.cookie,
    params: { id: bot._id },
  })
  const deleted = await publicInfo(publicId ?? '')
  for (const response of [unknown, unpublished, deleted]) {
    expect(response.statusCode).toBe(404)
    expect(response.json()).toEqual({ success: false, message: ASSISTANT_UNAVAILABLE })
  }
  expect(unpublished.headers).toEqual({ ...unknown.headers, date: unpublished.headers.date })
})

test('publishing settings are checked by the contract: a path in an allowed site is refused', async () => {
  const bot = await newAssistant()
  const response = await app.inject({
    method: 'PATCH',
    url: `/api/v1/assistants/${bot._id}`,
    headers: { cookie: owner.cookie },
    payload: { allowedOrigins: ['https://example.com/page'] },
  })
  expect(response.statusCode).toBe(400)
  expect(response.json().message).toMatch(/no path/)
})

test("another person cannot publish or read an assistant's identity secret (404)", async () => {
  const bot = await newAssistant()
  const stranger = await newPerson(app, 'stranger')
  const patched = await app.inject({
    method: 'PATCH',
    url: `/api/v1/assistants/${bot._id}`,
    headers: { cookie: stranger.cookie },
    payload: { published: true },
  })
  const rotated = await call(app, publishingEndpoints.rotateIdentitySecret, {
    cookie: stranger.cookie,
    params: { id: bot._id },
  })
  expect([patched.statusCode, rotated.statusCode]).toEqual([404, 404])
  const [row] = await app.db
    .select()
    .from(assistantPublications)
    .where(eq(assistantPublications.assistantId, bot._id))
  expect(row).toBeUndefined()
})

test('the identity secret is shown once, sealed at rest, and a rotation replaces it', async () => {
  const bot = await newAssistant()
  const first = await call(app, publishingEndpoints.rotateIdentitySecret, {
    cookie: owner.cookie,
    params: { id: bot._id },
  })
  expect(first.statusCode).toBe(200)
  const { secret } = publishingEndpoints.rotateIdentitySecret.response.parse(first.json()).data
  expect(secret.length).toBeGreaterThanOrEqual(43)

  const read = await call(app, assistantEndpoints.getAssistant, {
    cookie: owner.cookie,
    params: { id: bot._id },
  })
  expect(read.json().data.hasIdentitySecret).toBe(true)
  expect(read.body).not.toContain(secret)
  const [row] = await app.db
    .select({ sealed: assistantPublications.identitySecret })
    .from(assistantPublications)
    .where(eq(assistantPublications.assistantId, bot._id))
  expect(row?.sealed).toBeTruthy()
  expect(row?.sealed).not.toContain(secret)

  const second = await call(app, publishingEndpoints.rotateIdentitySecret, {
    cookie: owner.cookie,
    params: { id: bot._id },
  })
  expect(second.json().data.secret).not.toBe(secret)
})

async function publishedPage(fields: Record<string, unknown>) {
  const bot = await newAssistant()
  const { publicId } = await patchAssistantOk(app, owner.cookie, bot._id, { published: true, ...fields })
  return { bot, publicId: publicId ?? '' }
}

test('the public page: served from the build, noindex unless allowed, never framed, 404 when off', async () => {
  const { bot, publicId } = await publishedPage({})
  const page = await app.inject({ method: 'GET', url: `/a/${publicId}` })
  expect(page.statusCode).toBe(200)
  expect(page.body).toBe(PAGE_HTML)
  expect(page.headers['x-robots-tag']).toMatch(/noindex/)
  expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'")
  // The owner's proof of work solves in workers started from blob: addresses.
  expect(page.headers['content-security-policy']).toContain("worker-src 'self' blob:")

  await patchAssistantOk(app, owner.cookie, bot._id, { allowIndexing: true })
  const indexed = await app.inject({ method: 'GET', url: `/a/${publicId}` })
  expect(indexed.headers['x-robots-tag']).toBeUndefined()

  await patchAssistantOk(app, owner.cookie, bot._id, { publicPage: false })
  const off = await app.inject({ method: 'GET', url: `/a/${publicId}` })
  // The widget still works without the public page.
  const embed = await app.inject({ method: 'GET', url: `/embed/${publicId}` })
  await patchAssistantOk(app, owner.cookie, bot._id, { publicPage: true, published: false })
  const unpublished = await app.inject({ method: 'GET', url: `/a/${publicId}` })
  const unknown = await app.inject({ method: 'GET', url: '/a/AAAAAAAAAAAAAAAAAAAAAA' })
  expect([off.statusCode, embed.statusCode, unpublished.statusCode, unknown.statusCode]).toEqual([
    404, 200, 404, 404,
  ])
  expect(unpublished.body).toBe(unknown.body)
})

test("the widget's page may be framed by exactly the allowed sites, and by none when the list is empty", async () => {
  const { bot, publicId } = await publishedPage({
    allowedOrigins: ['https://intranet.example.com', 'https://*.example.org', 'http://127.0.0.1:5180'],
  })
  const framed = await app.inject({ method: 'GET', url: `/embed/${publicId}` })
  expect(framed.statusCode).toBe(200)
  const csp = framed.headers['content-security-policy'] as string
  expect(csp).toContain(
    'frame-ancestors https://intranet.example.com https://*.example.org http://127.0.0.1:5180',
  )
  expect(csp).not.toContain("'none';frame")
  expect(csp.match(/frame-ancestors/g)).toHaveLength(1)
  expect(csp).toContain("script-src 'self'")
  expect(csp).toContain("worker-src 'self' blob:")
  expect(framed.headers['x-frame-options']).toBeUndefined()
  expect(framed.headers['x-robots-tag']).toMatch(/noindex/)

  await patchAssistantOk(app, owner.cookie, bot._id, { allowedOrigins: [] })
  const nowhere = await app.inject({ method: 'GET', url: `/embed/${publicId}` })
  expect(nowhere.headers['content-security-policy']).toContain("frame-ancestors 'none'")

  // The dashboard still refuses to be framed anywhere.
  const dashboard = await app.inject({ method: 'GET', url: '/dashboard' })
  expect(dashboard.headers['content-security-policy']).toContain("frame-ancestors 'none'")
  expect(dashboard.headers['content-security-policy']).not.toContain('worker-src')
  expect(dashboard.headers['x-frame-options']).toBe('SAMEORIGIN')
})

test('embed.js is readable by any site and cacheable; missing builds answer as the app does', async () => {
  const loader = await app.inject({ method: 'GET', url: '/embed.js' })
  expect(loader.statusCode).toBe(200)
  expect(loader.body).toBe(LOADER_JS)
  expect(loader.headers).toMatchObject({
    'access-control-allow-origin': '*',
    'cross-origin-resource-policy': 'cross-origin',
    'cache-control': 'public, max-age=300',
  })
  expect(loader.headers['content-type']).toMatch(/javascript/)

  const missing = await unbuilt.inject({ method: 'GET', url: '/embed.js' })
  expect(missing.statusCode).toBe(404)
  expect(missing.body).toBe(NOT_BUILT_MESSAGE)
})
