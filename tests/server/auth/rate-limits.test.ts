import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { authEndpoints } from '#contracts/auth.ts'
import { ErrorEnvelopeSchema } from '#contracts/endpoint.ts'
import type { App } from '#server/app.ts'
import { type AuthRateLimits, DEFAULT_AUTH_RATE_LIMITS } from '#server/auth/rate-limits.ts'
import { createRateLimitRepository } from '#server/http/rate-limit-repository.ts'
import { databaseRateLimitStore } from '#server/http/rate-limit-store.ts'
import { buildTestApp, TEST_PASSWORD, uniqueEmail } from '../support/helper.ts'

const { register, login } = authEndpoints
const QUARTER_HOUR = 15 * 60_000
let app: App

// Small limits so a handful of requests reach them; the production defaults are 20/10/100/10/5.
const LIMITS: AuthRateLimits = {
  ...DEFAULT_AUTH_RATE_LIMITS,
  loginPerIp: { max: 6, timeWindowMs: QUARTER_HOUR },
  loginPerAccountAndIp: { max: 3, timeWindowMs: QUARTER_HOUR },
  loginFailuresPerAccount: { max: 5, timeWindowMs: QUARTER_HOUR },
  registerPerIp: { max: 3, timeWindowMs: 60 * 60_000 },
  registerPerAccount: { max: 2, timeWindowMs: 60 * 60_000 },
}
let clock = Date.now()

beforeAll(async () => {
  app = await buildTestApp({ rateLimits: LIMITS, now: () => new Date(clock) })
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

test('IPv6 addresses of one /64 count as one source', async () => {
  for (let i = 0; i < 6; i++) {
    expect((await attemptLogin(uniqueEmail(), `2001:db8:1:2::${(i + 1).toString(16)}`)).statusCode).toBe(401)
  }
  expect((await attemptLogin(uniqueEmail(), '2001:db8:1:2:ffff::9')).statusCode).toBe(429)
  expect((await attemptLogin(uniqueEmail(), '2001:db8:1:3::1')).statusCode).toBe(401)
})

test('another address is not blocked by the first one’s attempts', async () => {
  expect((await attemptLogin(uniqueEmail(), '203.0.113.2')).statusCode).toBe(401)
})

function signInRight(email: string, ip: string) {
  return app.inject({
    method: login.method,
    url: login.path,
    remoteAddress: ip,
    payload: { email, password: TEST_PASSWORD },
  })
}

test('too many sign-ins to one account from one address answer 429, whatever the letter case', async () => {
  const email = uniqueEmail('target')
  const statuses: number[] = []
  for (let i = 0; i < 3; i++) statuses.push((await attemptLogin(email, '198.51.100.1')).statusCode)
  expect(statuses).toEqual([401, 401, 401])
  const blocked = await attemptLogin(email.toUpperCase(), '198.51.100.1')
  expect(blocked.statusCode).toBe(429)
  expect(ErrorEnvelopeSchema.parse(blocked.json()).message).toMatch(
    /^Too many attempts\. Try again in \d+ minutes?\.$/,
  )
  expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0)
  // Another account from that address is unaffected.
  expect((await attemptLogin(uniqueEmail(), '198.51.100.1')).statusCode).toBe(401)
})

test('a stranger’s wrong passwords do not lock the owner out from the owner’s own address', async () => {
  const email = uniqueEmail('owner')
  expect((await attemptRegister(email, '192.0.2.40')).statusCode).toBe(201)
  for (let i = 0; i < 4; i++) await attemptLogin(email, '203.0.113.66')
  expect((await attemptLogin(email, '203.0.113.66')).statusCode).toBe(429)
  expect((await signInRight(email, '192.0.2.41')).statusCode).toBe(200)
})

test('failed sign-ins to one account from many addresses reach the account’s ceiling: 429 even for the right password', async () => {
  const email = uniqueEmail('spread')
  expect((await attemptRegister(email, '192.0.2.50')).statusCode).toBe(201)
  for (let i = 0; i < 5; i++) expect((await attemptLogin(email, `192.0.2.${60 + i}`)).statusCode).toBe(401)
  expect((await signInRight(email, '192.0.2.70')).statusCode).toBe(429)
  // The ceiling's window passes on the app's clock.
  clock += QUARTER_HOUR + 1000
  expect((await signInRight(email, '192.0.2.70')).statusCode).toBe(200)
})

test('the owner’s successful sign-ins do not count towards the account’s ceiling', async () => {
  const email = uniqueEmail('often')
  expect((await attemptRegister(email, '192.0.2.80')).statusCode).toBe(201)
  for (let i = 0; i < 8; i++)
    expect((await signInRight(email, `192.0.2.${81 + (i % 4)}`)).statusCode).toBe(200)
})

test('twelve successful sign-ins in a row from one address all succeed (successes are not counted)', async () => {
  const email = uniqueEmail('daily')
  expect((await attemptRegister(email, '192.0.2.90')).statusCode).toBe(201)
  const statuses: number[] = []
  for (let i = 0; i < 12; i++) statuses.push((await signInRight(email, '192.0.2.91')).statusCode)
  expect(statuses).toEqual(Array(12).fill(200))
  // Failures still count, and still lock that account from that address once over the limit.
  for (let i = 0; i < 3; i++) expect((await attemptLogin(email, '192.0.2.91')).statusCode).toBe(401)
  expect((await signInRight(email, '192.0.2.91')).statusCode).toBe(429)
})

test('attempts are counted in the database, never under the email or address itself', async () => {
  const email = uniqueEmail('stored')
  await attemptLogin(email, '198.51.100.200')
  const rows = (await app.db.execute(sql`select key_hash, count from rate_limit_counters`)) as unknown as {
    rows: { key_hash: string; count: number }[]
  }
  expect(rows.rows.length).toBeGreaterThan(0)
  const dump = JSON.stringify(rows.rows)
  expect(dump).not.toContain(email)
  expect(dump).not.toContain('198.51.100.200')
})

test('a flood of junk keys (more than the in-memory store held) does not evict a counted key', async () => {
  const Store = databaseRateLimitStore(createRateLimitRepository(app.db), () => new Date(clock))
  const store = new Store()
  const incr = (key: string) =>
    new Promise<{ current: number }>((resolve, reject) =>
      store.incr(key, (error, result) => (error || !result ? reject(error) : resolve(result)), QUARTER_HOUR),
    )
  for (let i = 0; i < 3; i++) await incr('login:account-ip:victim@example.com|192.0.2.1')
  for (let i = 0; i < 5_001; i++) await incr(`login:account-ip:junk-${i}@example.com|192.0.2.${i % 250}`)
  expect((await incr('login:account-ip:victim@example.com|192.0.2.1')).current).toBe(4)
}, 60_000)

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

test('counters whose window has ended are deleted as new attempts are counted', async () => {
  await attemptLogin(uniqueEmail('old'), '198.51.100.210')
  clock += 2 * 60 * 60_000
  await attemptLogin(uniqueEmail('new'), '198.51.100.211')
  const ended = (await app.db.execute(
    sql`select count(*)::int as n from rate_limit_counters where window_ends_at <= ${new Date(clock)}`,
  )) as unknown as { rows: { n: number }[] }
  expect(ended.rows[0]?.n).toBe(0)
})

const postgresUrl = process.env.TEST_DATABASE_URL

test.skipIf(!postgresUrl)('two app instances on one PostgreSQL share the counts', async () => {
  const env = { DATABASE_URL: postgresUrl ?? '' }
  const [first, second] = [
    await buildTestApp({ env, rateLimits: LIMITS }),
    await buildTestApp({ env, rateLimits: LIMITS }),
  ]
  try {
    const email = uniqueEmail('shared')
    const attempt = (instance: App) =>
      instance.inject({
        method: login.method,
        url: login.path,
        remoteAddress: '198.51.100.77',
        payload: { email, password: 'wrong password' },
      })
    for (let i = 0; i < 3; i++) expect((await attempt(i % 2 === 0 ? first : second)).statusCode).toBe(401)
    expect((await attempt(second)).statusCode).toBe(429)
    expect((await attempt(first)).statusCode).toBe(429)
  } finally {
    await first.close()
    await second.close()
  }
})
