/**
 * Settings' password and sessions calls: changing the password needs the current one and ends
 * every other session; the sessions list names each browser and marks this one; one session or
 * every other can be signed out; nobody reaches another person's sessions.
 */
import { afterAll, beforeAll, expect, test } from 'vitest'
import { accountEndpoints, SessionSchema } from '#contracts/account.ts'
import { authEndpoints } from '#contracts/auth.ts'
import type { App } from '#server/app.ts'
import { call, errorOf } from '../support/chat-helpers.ts'
import { buildTestApp, cookieHeader, register, TEST_PASSWORD, uniqueEmail } from '../support/helper.ts'

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0'
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Mobile/15E148 Safari/604.1'
let app: App
/** The app's clock: a test moves it forward a few minutes (less than an access token lives). */
let clock = Date.now()

beforeAll(async () => {
  app = await buildTestApp({
    now: () => new Date(clock),
    rateLimits: {
      passwordCheckFailuresPerAccount: { max: 3, timeWindowMs: 900_000 },
      exportPerUser: { max: 2, timeWindowMs: 3_600_000 },
    },
  })
})
afterAll(async () => {
  await app.close()
})

async function signInFrom(email: string, userAgent: string, ip: string, password = TEST_PASSWORD) {
  const response = await app.inject({
    method: 'POST',
    url: authEndpoints.login.path,
    headers: { 'user-agent': userAgent },
    remoteAddress: ip,
    payload: { email, password },
  })
  expect(response.statusCode).toBe(200)
  return cookieHeader(response)
}

const isLive = async (cookie: string) => (await call(app, authEndpoints.me, { cookie })).statusCode === 200

async function sessions(cookie: string) {
  const response = await call(app, accountEndpoints.listSessions, { cookie })
  expect(response.statusCode).toBe(200)
  return SessionSchema.array().parse(response.json().data.sessions)
}

test('the sessions list names each browser and address, and marks the one asking', async () => {
  const email = uniqueEmail('sessions')
  await register(app, email)
  const laptop = await signInFrom(email, FIREFOX, '192.0.2.10')
  await signInFrom(email, SAFARI_IPHONE, '198.51.100.20')
  const list = await sessions(laptop)
  expect(list).toHaveLength(2)
  expect(list.find((s) => s.current)).toMatchObject({ device: 'Firefox on Linux', address: '192.0.2.10' })
  expect(list.find((s) => !s.current)).toMatchObject({ device: 'Safari on iOS', address: '198.51.100.20' })
})

test('the session asking was last used now, not when it signed in; another keeps its own time', async () => {
  const email = uniqueEmail('sessions-now')
  await register(app, email)
  const signedInAt = new Date(clock).toISOString()
  const laptop = await signInFrom(email, FIREFOX, '192.0.2.10')
  await signInFrom(email, SAFARI_IPHONE, '198.51.100.20')
  clock += 5 * 60 * 1000

  const list = await sessions(laptop)

  expect(list.find((s) => s.current)?.lastUsedAt).toBe(new Date(clock).toISOString())
  expect(list.find((s) => !s.current)?.lastUsedAt).toBe(signedInAt)
})

test('signing out another session ends it at once; this one stays', async () => {
  const email = uniqueEmail('lost-laptop')
  await register(app, email)
  const phone = await signInFrom(email, SAFARI_IPHONE, '198.51.100.21')
  const laptop = await signInFrom(email, FIREFOX, '192.0.2.11')
  const other = (await sessions(phone)).find((s) => !s.current)
  expect(other).toBeDefined()
  const response = await call(app, accountEndpoints.revokeSession, {
    cookie: phone,
    params: { id: other?.id ?? '' },
  })
  expect(response.statusCode).toBe(200)
  expect(await isLive(laptop)).toBe(false)
  expect(await isLive(phone)).toBe(true)
  expect(await sessions(phone)).toHaveLength(1)
})

test('another person’s session id, or no uuid at all, answers 404 and ends nothing', async () => {
  const mallory = uniqueEmail('mallory')
  const victim = uniqueEmail('victim')
  await register(app, mallory)
  await register(app, victim)
  const malloryCookie = await signInFrom(mallory, FIREFOX, '192.0.2.12')
  const victimCookie = await signInFrom(victim, FIREFOX, '192.0.2.13')
  const victimSession = (await sessions(victimCookie))[0]?.id ?? ''
  for (const id of [victimSession, 'not-a-uuid']) {
    const response = await call(app, accountEndpoints.revokeSession, {
      cookie: malloryCookie,
      params: { id },
    })
    expect(response.statusCode).toBe(404)
    expect(errorOf(response)).toBe('That session has ended already.')
  }
  expect(await isLive(victimCookie)).toBe(true)
})

test('sign out every other session', async () => {
  const email = uniqueEmail('everywhere')
  await register(app, email)
  const others = [
    await signInFrom(email, FIREFOX, '192.0.2.14'),
    await signInFrom(email, SAFARI_IPHONE, '192.0.2.15'),
  ]
  const here = await signInFrom(email, FIREFOX, '192.0.2.16')
  const response = await call(app, accountEndpoints.revokeOtherSessions, { cookie: here })
  expect(response.json()).toEqual({ success: true, data: { signedOut: 2 } })
  for (const cookie of others) expect(await isLive(cookie)).toBe(false)
  expect(await isLive(here)).toBe(true)
})

test('changing the password needs the current one, ends the other sessions and keeps this one', async () => {
  const email = uniqueEmail('change')
  await register(app, email)
  const other = await signInFrom(email, SAFARI_IPHONE, '192.0.2.17')
  const here = await signInFrom(email, FIREFOX, '192.0.2.18')
  const change = (currentPassword: string) =>
    call(app, accountEndpoints.changePassword, {
      cookie: here,
      body: { currentPassword, password: 'my new password', confirmPassword: 'my new password' },
    })
  const wrong = await change('not my password')
  expect(wrong.statusCode).toBe(400)
  expect(errorOf(wrong)).toBe('The current password is not right.')
  expect(await isLive(other)).toBe(true)

  const done = await change(TEST_PASSWORD)
  expect(done.json()).toEqual({ success: true, data: { signedOut: 1 } })
  expect(await isLive(other)).toBe(false)
  expect(await isLive(here)).toBe(true)
  const old = await call(app, authEndpoints.login, { body: { email, password: TEST_PASSWORD } })
  expect(old.statusCode).toBe(401)
  await signInFrom(email, FIREFOX, '192.0.2.19', 'my new password')
})

test('guessing the current password is limited per account', async () => {
  const email = uniqueEmail('guess')
  await register(app, email)
  const cookie = await signInFrom(email, FIREFOX, '192.0.2.20')
  const guess = () =>
    call(app, accountEndpoints.changePassword, {
      cookie,
      body: { currentPassword: 'guess', password: 'new password', confirmPassword: 'new password' },
    })
  for (let i = 0; i < 3; i++) expect((await guess()).statusCode).toBe(400)
  expect((await guess()).statusCode).toBe(429)
})

test('exporting is limited per person, whoever else exports', async () => {
  const [one, two] = [uniqueEmail('export'), uniqueEmail('export')]
  await register(app, one)
  await register(app, two)
  const cookieOne = await signInFrom(one, FIREFOX, '192.0.2.30')
  const cookieTwo = await signInFrom(two, FIREFOX, '192.0.2.30')
  const exportAs = (cookie: string) => call(app, accountEndpoints.exportAccount, { cookie })
  for (let i = 0; i < 2; i++) expect((await exportAs(cookieOne)).statusCode).toBe(200)
  const refused = await exportAs(cookieOne)
  expect(refused.statusCode).toBe(429)
  expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)
  expect((await exportAs(cookieTwo)).statusCode).toBe(200)
})

test('every Settings call needs a session', async () => {
  for (const endpoint of [accountEndpoints.listSessions, accountEndpoints.revokeOtherSessions]) {
    expect((await call(app, endpoint)).statusCode).toBe(401)
  }
  expect(
    (
      await call(app, accountEndpoints.changePassword, {
        body: { currentPassword: 'x', password: 'abcdef', confirmPassword: 'abcdef' },
      })
    ).statusCode,
  ).toBe(401)
})
