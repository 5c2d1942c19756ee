import { afterAll, beforeAll, expect, test } from 'vitest'
import { authEndpoints, healthEndpoint } from '#contracts/auth.ts'
import { chatEndpoints } from '#contracts/chat.ts'
import { documentEndpoints } from '#contracts/documents.ts'
import { driveEndpoints } from '#contracts/drive.ts'
import { ErrorEnvelopeSchema, fillPath } from '#contracts/endpoint.ts'
import { sharingEndpoints } from '#contracts/sharing.ts'
import type { App } from '#server/app.ts'
import { buildTestApp, TEST_PASSWORD, uniqueEmail } from '../support/helper.ts'

const { register, login, logout } = authEndpoints
const PUBLIC_URL = 'http://docchat.test:8080'
let app: App

beforeAll(async () => {
  app = await buildTestApp({ env: { PUBLIC_URL } })
  // A route that fails the way a bug would, to see what a 5xx tells the caller.
  app.get('/api/v1/test/explode', async () => {
    throw new Error('connection string postgres://admin:hunter2@db leaked')
  })
})
afterAll(async () => {
  await app.close()
})

function signUpBody() {
  return { email: uniqueEmail(), password: TEST_PASSWORD, confirmPassword: TEST_PASSWORD }
}
function messageOf(response: { json: () => unknown }) {
  return ErrorEnvelopeSchema.parse(response.json()).message
}

test('health answers {"status":"ok"}', async () => {
  const response = await app.inject({ method: healthEndpoint.method, url: healthEndpoint.path })
  expect(response.statusCode).toBe(200)
  expect(healthEndpoint.response.parse(response.json())).toEqual({ status: 'ok' })
})

test('API responses say Cache-Control: no-store, errors included', async () => {
  const health = await app.inject({ method: 'GET', url: healthEndpoint.path })
  const unauthorized = await app.inject({ method: 'GET', url: authEndpoints.me.path })
  expect(health.headers['cache-control']).toBe('no-store')
  expect(unauthorized.headers['cache-control']).toBe('no-store')
})

test('API responses carry the short security header set for JSON (CSP none, nosniff, frame DENY)', async () => {
  const response = await app.inject({ method: 'GET', url: healthEndpoint.path })
  expect(response.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'")
  expect(response.headers['x-content-type-options']).toBe('nosniff')
  expect(response.headers['x-frame-options']).toBe('DENY')
  expect(response.headers['referrer-policy']).toBe('no-referrer')
  expect(response.headers['cross-origin-resource-policy']).toBe('same-origin')
  expect(response.headers['strict-transport-security']).toBeUndefined()
})

test("pages carry helmet's full set with a CSP the SPA runs under", async () => {
  const response = await app.inject({ method: 'GET', url: '/dashboard' })
  const csp = String(response.headers['content-security-policy'])
  expect(csp).toContain("default-src 'self'")
  expect(csp).toContain("script-src 'self'")
  expect(csp).toContain("style-src 'self' 'unsafe-inline'")
  expect(csp).toContain("frame-ancestors 'none'")
  expect(csp).not.toContain('upgrade-insecure-requests')
  expect(response.headers['x-content-type-options']).toBe('nosniff')
  expect(response.headers['x-frame-options']).toBe('SAMEORIGIN')
  expect(response.headers['referrer-policy']).toBe('no-referrer')
  expect(response.headers['cross-origin-opener-policy']).toBe('same-origin-allow-popups')
  expect(response.headers['strict-transport-security']).toBeUndefined()
})

test('over https the app also sends HSTS and upgrade-insecure-requests', async () => {
  const httpsApp = await buildTestApp({ env: { PUBLIC_URL: 'https://docchat.example.com' } })
  try {
    const api = await httpsApp.inject({ method: 'GET', url: healthEndpoint.path })
    expect(api.headers['strict-transport-security']).toMatch(/max-age=\d+/)
    const page = await httpsApp.inject({ method: 'GET', url: '/login' })
    expect(page.headers['strict-transport-security']).toMatch(/max-age=\d+/)
    expect(String(page.headers['content-security-policy'])).toContain('upgrade-insecure-requests')
  } finally {
    await httpsApp.close()
  }
})

test('a POST from another site (Sec-Fetch-Site: cross-site) answers 403 and does nothing', async () => {
  const body = signUpBody()
  const response = await app.inject({
    method: register.method,
    url: register.path,
    headers: { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' },
    payload: body,
  })
  expect(response.statusCode).toBe(403)
  expect(messageOf(response)).toBe('Cross-site requests are not allowed.')
  const later = await app.inject({ method: register.method, url: register.path, payload: body })
  expect(later.statusCode).toBe(201)
})

test('every state-changing call refuses another site, before it is signed in or rate-limited', async () => {
  const calls = [authEndpoints, chatEndpoints, driveEndpoints, documentEndpoints, sharingEndpoints].flatMap(
    (group) => Object.values(group).filter((call) => call.method !== 'GET'),
  )
  expect(calls.length).toBeGreaterThanOrEqual(8)
  const id = '0b5c7a52-6c2f-4f4e-9a51-5d1c43e0a111'
  for (const call of calls) {
    const response = await app.inject({
      method: call.method,
      url: fillPath(call.path, { id, fileId: 'file-1', messageId: id }),
      headers: { 'sec-fetch-site': 'cross-site' },
      payload: {},
    })
    expect({ call: call.path, status: response.statusCode }).toEqual({ call: call.path, status: 403 })
    expect(messageOf(response)).toBe('Cross-site requests are not allowed.')
  }
})

test('a POST from a sibling subdomain (Sec-Fetch-Site: same-site) answers 403', async () => {
  const response = await app.inject({
    method: logout.method,
    url: logout.path,
    headers: { 'sec-fetch-site': 'same-site' },
  })
  expect(response.statusCode).toBe(403)
})

test('a POST with a foreign Origin and no Sec-Fetch-Site answers 403', async () => {
  const response = await app.inject({
    method: register.method,
    url: register.path,
    headers: { origin: 'https://evil.example' },
    payload: signUpBody(),
  })
  expect(response.statusCode).toBe(403)
  expect(messageOf(response)).toBe('Cross-site requests are not allowed.')
})

test('a POST with Origin "null" (sandboxed frame, file://) answers 403', async () => {
  const response = await app.inject({
    method: logout.method,
    url: logout.path,
    headers: { origin: 'null' },
  })
  expect(response.statusCode).toBe(403)
})

test('same-origin POSTs pass: Sec-Fetch-Site same-origin or none, or our own Origin', async () => {
  for (const headers of [
    { 'sec-fetch-site': 'same-origin', origin: PUBLIC_URL },
    { 'sec-fetch-site': 'none' },
    { origin: PUBLIC_URL },
    {},
  ]) {
    const response = await app.inject({
      method: register.method,
      url: register.path,
      headers,
      payload: signUpBody(),
    })
    expect(response.statusCode).toBe(201)
  }
})

test('a GET from another site is not refused (reads change nothing)', async () => {
  const response = await app.inject({
    method: 'GET',
    url: healthEndpoint.path,
    headers: { 'sec-fetch-site': 'cross-site' },
  })
  expect(response.statusCode).toBe(200)
})

test('a text/plain body (what a cross-site form can send without preflight) answers 415', async () => {
  const response = await app.inject({
    method: login.method,
    url: login.path,
    headers: { 'content-type': 'text/plain' },
    payload: JSON.stringify({ email: 'a@example.com', password: 'secret1' }),
  })
  expect(response.statusCode).toBe(415)
  expect(messageOf(response)).toBe('Unsupported content type: send the body as application/json')
})

test('form-encoded and multipart bodies answer 415 on JSON routes', async () => {
  for (const type of ['application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
    const response = await app.inject({
      method: login.method,
      url: login.path,
      headers: { 'content-type': type },
      payload: 'email=a%40example.com&password=secret1',
    })
    expect(response.statusCode).toBe(415)
  }
})

test('malformed JSON answers 400 "Malformed JSON body"', async () => {
  const response = await app.inject({
    method: login.method,
    url: login.path,
    headers: { 'content-type': 'application/json' },
    payload: '{"email": "a@example.com", ',
  })
  expect(response.statusCode).toBe(400)
  expect(messageOf(response)).toBe('Malformed JSON body')
})

test('a JSON body with a __proto__ key is refused with 400', async () => {
  const response = await app.inject({
    method: login.method,
    url: login.path,
    headers: { 'content-type': 'application/json' },
    payload: '{"email": "a@example.com", "password": "x", "__proto__": {"admin": true}}',
  })
  expect(response.statusCode).toBe(400)
})

test('an empty body sent as JSON answers 400 with a clear message', async () => {
  const response = await app.inject({
    method: login.method,
    url: login.path,
    headers: { 'content-type': 'application/json' },
    payload: '',
  })
  expect(response.statusCode).toBe(400)
  expect(messageOf(response)).toMatch(/empty/)
})

test('a body over 1 MiB answers 413 with a clear message', async () => {
  const response = await app.inject({
    method: register.method,
    url: register.path,
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({
      email: 'a@example.com',
      password: 'x'.repeat(1024 * 1024),
      confirmPassword: 'x',
    }),
  })
  expect(response.statusCode).toBe(413)
  expect(messageOf(response)).toBe('The request body is too large (at most 1 MiB)')
})

test('an unknown /api path answers a 404 envelope, for any method', async () => {
  for (const method of ['GET', 'POST', 'DELETE'] as const) {
    const response = await app.inject({ method, url: '/api/v1/no/such/thing' })
    expect(response.statusCode).toBe(404)
    expect(messageOf(response)).toBe(`No such endpoint: ${method} /api/v1/no/such/thing`)
    expect(response.headers['content-type']).toMatch(/^application\/json/)
  }
})

test('a failure on our side answers 500 "Something went wrong on our side." with no details', async () => {
  const response = await app.inject({ method: 'GET', url: '/api/v1/test/explode' })
  expect(response.statusCode).toBe(500)
  expect(response.json()).toEqual({ success: false, message: 'Something went wrong on our side.' })
  expect(response.body).not.toContain('hunter2')
})
