import { afterAll, beforeAll, expect, test } from 'vitest'
import { authEndpoints } from '#contracts/auth.ts'
import { ErrorEnvelopeSchema } from '#contracts/endpoint.ts'
import type { App } from '#server/app.ts'
import { buildTestApp, TEST_PASSWORD, uniqueEmail } from './helper.ts'

const { register, login } = authEndpoints
const QUARTER_HOUR = 15 * 60_000
let app: App

// Small limits so a handful of requests reach them; the production defaults are 20/10/10/5.
beforeAll(async () => {
  app = await buildTestApp({
    rateLimits: {
      loginPerIp: { max: 6, timeWindowMs: QUARTER_HOUR },
      loginPerAccount: { max: 3, timeWindowMs: QUARTER_HOUR },
      registerPerIp: { max: 3, timeWindowMs: 60 * 60_000 },
      registerPerAccount: { max: 2, timeWindowMs: 60 * 60_000 },
    },
  })
})
afterAll(async () => {
  await app.close()
})

function attemptLogin(email: string, ip: string) {
  return app.inject({
    method: login.method,
    url: login.path,
    remoteAddress: ip,
    payload: { email, password: 'wrong password' },
  })
}
function attemptRegister(email: string, ip: string) {
  return app.inject({
    method: register.method,
    url: register.path,
    remoteAddress: ip,
    payload: { email, password: TEST_PASSWORD, confirmPassword: TEST_PASSWORD },
  })
}

test('too many sign-ins from one address answer 429 "Too many attempts…" with Retry-After', async () => {
  const ip = '203.0.113.1'
  for (let i = 0; i < 6; i++) expect((await attemptLogin(uniqueEmail(), ip)).statusCode).toBe(401)
  const blocked = await attemptLogin(uniqueEmail(), ip)
  expect(blocked.statusCode).toBe(429)
  expect(ErrorEnvelopeSchema.parse(blocked.json()).message).toBe(
    'Too many attempts. Try again in 15 minutes.',
  )
  const retryAfter = Number(blocked.headers['retry-after'])
  expect(retryAfter).toBeGreaterThan(14 * 60)
  expect(retryAfter).toBeLessThanOrEqual(15 * 60)
  expect(blocked.headers['cache-control']).toBe('no-store')
})

test('another address is not blocked by the first one’s attempts', async () => {
  expect((await attemptLogin(uniqueEmail(), '203.0.113.2')).statusCode).toBe(401)
})

test('too many sign-ins to one account answer 429 even from different addresses, whatever the letter case', async () => {
  const email = uniqueEmail('target')
  const statuses: number[] = []
  for (let i = 0; i < 3; i++) statuses.push((await attemptLogin(email, `198.51.100.${i + 1}`)).statusCode)
  expect(statuses).toEqual([401, 401, 401])
  const blocked = await attemptLogin(email.toUpperCase(), '198.51.100.99')
  expect(blocked.statusCode).toBe(429)
  expect(ErrorEnvelopeSchema.parse(blocked.json()).message).toMatch(
    /^Too many attempts\. Try again in \d+ minutes?\.$/,
  )
  expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0)
  // Another account from a fresh address is unaffected.
  expect((await attemptLogin(uniqueEmail(), '198.51.100.100')).statusCode).toBe(401)
})

test('a blocked account refuses even the right password until the window passes', async () => {
  const email = uniqueEmail('locked')
  expect((await attemptRegister(email, '192.0.2.50')).statusCode).toBe(201)
  for (let i = 0; i < 3; i++) await attemptLogin(email, `192.0.2.${60 + i}`)
  const right = await app.inject({
    method: login.method,
    url: login.path,
    remoteAddress: '192.0.2.70',
    payload: { email, password: TEST_PASSWORD },
  })
  expect(right.statusCode).toBe(429)
})

test('too many sign-ups from one address answer 429 with Retry-After', async () => {
  const ip = '192.0.2.1'
  for (let i = 0; i < 3; i++) expect((await attemptRegister(uniqueEmail(), ip)).statusCode).toBe(201)
  const blocked = await attemptRegister(uniqueEmail(), ip)
  expect(blocked.statusCode).toBe(429)
  expect(ErrorEnvelopeSchema.parse(blocked.json()).message).toBe(
    'Too many attempts. Try again in 60 minutes.',
  )
  expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(59 * 60)
})

test('too many sign-ups for one email answer 429 even from different addresses', async () => {
  const email = uniqueEmail('again')
  expect((await attemptRegister(email, '192.0.2.10')).statusCode).toBe(201)
  expect((await attemptRegister(email, '192.0.2.11')).statusCode).toBe(409)
  expect((await attemptRegister(email, '192.0.2.12')).statusCode).toBe(429)
})

test('other routes are not rate limited', async () => {
  for (let i = 0; i < 30; i++) {
    const response = await app.inject({ method: 'GET', url: '/api/v1/health', remoteAddress: '203.0.113.1' })
    expect(response.statusCode).toBe(200)
  }
})
