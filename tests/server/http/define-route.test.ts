import { afterAll, beforeAll, expect, test } from 'vitest'
import { z } from 'zod'
import { endpoint, fillPath } from '#contracts/endpoint.ts'
import type { App } from '#server/app.ts'
import { defineRoute } from '#server/http/define-route.ts'
import { buildTestApp, signUpAndSignIn, uniqueEmail } from '../support/helper.ts'

// Endpoints that exist only in this test, declared the way contracts/ declares the real ones.
const echoEndpoint = endpoint({
  method: 'POST',
  path: '/test/echo/:id',
  params: z.strictObject({ id: z.string().min(3, 'id is too short') }),
  request: z.strictObject({ text: z.string() }),
  data: z.object({ id: z.string(), text: z.string(), email: z.string() }),
  status: 201,
})

let app: App

beforeAll(async () => {
  app = await buildTestApp()
  defineRoute(app, echoEndpoint, {
    auth: 'user',
    handler: ({ user, params, body }) => ({ id: params.id, text: body.text, email: user.email }),
  })
})

afterAll(async () => {
  await app.close()
})

/** POST /api/v1/test/echo/{id} with `payload`, as a browser page of ours (or `headers`) sends it. */
function echo(id: string, payload: object, headers: Record<string, string> = {}) {
  return app.inject({ method: 'POST', url: fillPath(echoEndpoint.path, { id }), headers, payload })
}

test('a route declared from its endpoint answers the envelope with the endpoint status and the user', async () => {
  const email = uniqueEmail()
  const cookie = await signUpAndSignIn(app, email)
  const response = await echo('abc', { text: 'hello' }, { cookie })
  expect(response.statusCode).toBe(201)
  expect(response.json()).toEqual({ success: true, data: { id: 'abc', text: 'hello', email } })
})

test('its params and body are validated with the endpoint schemas, after sign-in is checked', async () => {
  const cookie = await signUpAndSignIn(app)
  expect((await echo('abc', { text: 'x' })).statusCode).toBe(401)
  const short = await echo('ab', { text: 'x' }, { cookie })
  expect(short.statusCode).toBe(400)
  expect(short.json()).toMatchObject({ success: false, message: expect.stringContaining('id is too short') })
  expect((await echo('abc', { text: 'x', admin: true }, { cookie })).statusCode).toBe(400)
})

test('it refuses another site first, before sign-in is asked for', async () => {
  expect((await echo('abc', { text: 'x' }, { 'sec-fetch-site': 'cross-site' })).statusCode).toBe(403)
})

test('a state-changing route declared without defineRoute (so without the guard) is refused at start-up', async () => {
  const fresh = await buildTestApp()
  try {
    expect(() => fresh.post('/api/v1/test/unguarded', async () => ({ ok: true }))).toThrow(/defineRoute/)
    expect(() => fresh.delete('/api/v1/test/unguarded', async () => ({ ok: true }))).toThrow(/defineRoute/)
    // Reads are not state-changing: nothing to guard.
    expect(() => fresh.get('/api/v1/test/read', async () => ({ ok: true }))).not.toThrow()
  } finally {
    await fresh.close()
  }
})
