/**
 * Who the server is working for (server/http/request-activity.ts, D94): the document writer gives
 * way while a person other than those whose documents it writes is being answered, or was a moment
 * ago; a probe, a static file, a stream older than two seconds and the owners' own requests do
 * not count.
 */
import type { FastifyRequest } from 'fastify'
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { App } from '#server/app.ts'
import { ACTIVE_REQUEST_MS, createRequestActivity, RECENT_MS } from '#server/http/request-activity.ts'
import { buildTestApp } from '../support/helper.ts'

const request = (url: string, userId: string | null = null) =>
  ({ url, user: userId === null ? null : { id: userId } }) as unknown as FastifyRequest

test('another person waiting, recently served, or nobody', () => {
  let now = 1_000
  const activity = createRequestActivity(() => now)
  const owners = new Set(['busy'])
  expect(activity.others(owners)).toBe('none')

  const own = request('/api/v1/documents', 'busy')
  activity.begin(own)
  expect(activity.others(owners)).toBe('none')
  activity.end(own)
  expect(activity.others(owners)).toBe('none')

  // A sign-in: nobody in particular yet, so somebody else.
  const signIn = request('/api/v1/auth/login')
  activity.begin(signIn)
  expect(activity.others(owners)).toBe('waiting')
  activity.end(signIn)
  expect(activity.others(owners)).toBe('recent')
  now += RECENT_MS + 1
  expect(activity.others(owners)).toBe('none')

  const other = request('/api/v1/chat/sessions/all?x=1', 'other')
  activity.begin(other)
  expect(activity.others(owners)).toBe('waiting')
  // Still open after two seconds: a stream or an upload, not a person waiting on a click.
  now += ACTIVE_REQUEST_MS + 1
  expect(activity.others(owners)).toBe('none')
  activity.end(other)
  expect(activity.others(owners)).toBe('recent')
  now += RECENT_MS + 1

  for (const url of ['/api/v1/health', '/api/v1/ready', '/assets/index.js', '/dashboard']) {
    activity.begin(request(url))
    expect(activity.others(owners), url).toBe('none')
  }
})

let app: App
beforeAll(async () => {
  app = await buildTestApp()
})
afterAll(async () => {
  await app.close()
})

test("the app keeps it: a request answered is a person served a moment ago; a probe is nobody's", async () => {
  await app.inject({ method: 'GET', url: '/api/v1/health' })
  expect(app.activity.others(new Set())).toBe('none')
  const me = await app.inject({ method: 'GET', url: '/api/v1/auth/me' })
  expect(me.statusCode).toBe(401)
  expect(app.activity.others(new Set())).toBe('recent')
})
