import { afterAll, beforeAll, expect, test } from 'vitest'
import { authEndpoints, UserPayloadSchema } from '#contracts/auth.ts'
import { ErrorEnvelopeSchema } from '#contracts/endpoint.ts'
import type { App } from '#server/app.ts'
import { deriveAccessTokenKey, REFRESH_GRACE_MS, signAccessToken } from '#server/auth/tokens.ts'
import {
  buildTestApp,
  cookieHeader,
  register,
  signIn,
  TEST_APP_SECRET,
  uniqueEmail,
} from '../support/helper.ts'

const { me, refreshToken, logout } = authEndpoints
const MINUTE = 60_000
const DAY = 24 * 60 * MINUTE

// One app whose clock the tests move forward: token expiry is checked against it.
let clock = Date.now()
let app: App

beforeAll(async () => {
  app = await buildTestApp({ now: () => new Date(clock) })
})
afterAll(async () => {
  await app.close()
})

function getMe(cookie?: string) {
  return app.inject({ method: me.method, url: me.path, headers: cookie ? { cookie } : {} })
}
function postRefresh(cookie?: string) {
  return app.inject({
    method: refreshToken.method,
    url: refreshToken.path,
    headers: cookie ? { cookie } : {},
  })
}
function postLogout(cookie?: string) {
  return app.inject({ method: logout.method, url: logout.path, headers: cookie ? { cookie } : {} })
}
function accessOf(cookie: string): string {
  return /docchat_access=([^;]+)/.exec(cookie)?.[1] ?? ''
}
function refreshOf(cookie: string): string {
  return /docchat_refresh=([^;]+)/.exec(cookie)?.[1] ?? ''
}
function expectNotSignedIn(response: Awaited<ReturnType<typeof getMe>>) {
  expect(response.statusCode).toBe(401)
  expect(ErrorEnvelopeSchema.parse(response.json())).toEqual({ success: false, message: 'Not signed in' })
}
function expectCookiesCleared(response: Awaited<ReturnType<typeof getMe>>) {
  const cleared = response.cookies.filter((c) => c.value === '' && (c.expires?.getTime() ?? 1) <= Date.now())
  expect(cleared.map((c) => c.name).sort()).toEqual(['docchat_access', 'docchat_refresh'])
}

async function newSession() {
  const email = uniqueEmail()
  const user = await register(app, email)
  const { cookie } = await signIn(app, email)
  return { email, user, cookie }
}

test('/auth/me with the session cookie answers 200 with the user as data', async () => {
  const { user, cookie } = await newSession()
  const response = await getMe(cookie)
  expect(response.statusCode).toBe(200)
  expect(me.response.parse(response.json()).data).toEqual(user)
  expect(response.headers['cache-control']).toBe('no-store')
})

test('/auth/me without a cookie answers 401 "Not signed in"', async () => {
  expectNotSignedIn(await getMe())
})

test('/auth/me with a garbage access cookie answers 401', async () => {
  expectNotSignedIn(await getMe('docchat_access=not-a-jwt'))
  expectNotSignedIn(await getMe('docchat_access=a.b.c'))
})

test('/auth/me with a tampered token (payload edited, signature kept) answers 401', async () => {
  const mine = await newSession()
  const other = await newSession()
  const [header, payload, signature] = accessOf(mine.cookie).split('.')
  const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString('utf8'))
  const forged = Buffer.from(JSON.stringify({ ...claims, sub: other.user._id })).toString('base64url')
  expectNotSignedIn(await getMe(`docchat_access=${header}.${forged}.${signature}`))
})

test('/auth/me with a token signed by another key answers 401', async () => {
  const { user, cookie } = await newSession()
  const fid = JSON.parse(Buffer.from(accessOf(cookie).split('.')[1] ?? '', 'base64url').toString('utf8')).fid
  const wrongKey = deriveAccessTokenKey(`${TEST_APP_SECRET}-but-another-one`)
  const { token } = await signAccessToken(wrongKey, { userId: user._id, familyId: fid, now: new Date(clock) })
  expectNotSignedIn(await getMe(`docchat_access=${token}`))
})

test('/auth/me with an unsigned ("alg": "none") token answers 401', async () => {
  const { cookie } = await newSession()
  const payload = accessOf(cookie).split('.')[1]
  const none = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')
  expectNotSignedIn(await getMe(`docchat_access=${none}.${payload}.`))
})

test('/auth/me with an expired access token answers 401, and a refresh brings the session back', async () => {
  const { cookie, user } = await newSession()
  clock += 15 * MINUTE + 1000
  expectNotSignedIn(await getMe(cookie))
  const refreshed = await postRefresh(cookie)
  expect(refreshed.statusCode).toBe(200)
  const again = await getMe(cookieHeader(refreshed))
  expect(me.response.parse(again.json()).data).toEqual(user)
})

test('a refresh answers 200 with the user and rotates both cookies; the new ones work', async () => {
  const { cookie, user } = await newSession()
  const response = await postRefresh(cookie)
  expect(response.statusCode).toBe(200)
  expect(UserPayloadSchema.parse(response.json()).data.user).toEqual(user)
  const next = cookieHeader(response)
  expect(refreshOf(next)).not.toBe('')
  expect(refreshOf(next)).not.toBe(refreshOf(cookie))
  expect(accessOf(next)).not.toBe(accessOf(cookie))
  expect((await getMe(next)).statusCode).toBe(200)
  expect((await postRefresh(next)).statusCode).toBe(200)
})

function familyOf(cookie: string): string {
  return JSON.parse(Buffer.from(accessOf(cookie).split('.')[1] ?? '', 'base64url').toString('utf8')).fid
}

test('two tabs refreshing with the same token within the grace interval both stay signed in, with the same successor', async () => {
  const { cookie, user } = await newSession()
  const first = await postRefresh(cookie)
  clock += REFRESH_GRACE_MS - 1000
  const second = await postRefresh(cookie)
  expect(second.statusCode).toBe(200)
  expect(UserPayloadSchema.parse(second.json()).data.user).toEqual(user)
  const [a, b] = [cookieHeader(first), cookieHeader(second)]
  expect(refreshOf(b)).toBe(refreshOf(a))
  expect(familyOf(b)).toBe(familyOf(a))
  expect((await getMe(a)).statusCode).toBe(200)
  expect((await getMe(b)).statusCode).toBe(200)
  // The shared successor rotates on as usual.
  expect((await postRefresh(b)).statusCode).toBe(200)
})

test('within the grace interval an old token whose successor was already used is reuse: the sign-in is revoked', async () => {
  const { cookie } = await newSession()
  const next = cookieHeader(await postRefresh(cookie))
  const third = cookieHeader(await postRefresh(next))
  expect((await postRefresh(cookie)).statusCode).toBe(401)
  expectNotSignedIn(await getMe(third))
})

test('a refresh token used twice revokes the whole sign-in: the reuse, its successor and its access cookie all fail', async () => {
  const { cookie } = await newSession()
  const rotated = await postRefresh(cookie)
  const next = cookieHeader(rotated)
  expect((await getMe(next)).statusCode).toBe(200)
  clock += REFRESH_GRACE_MS + 1

  const reuse = await postRefresh(cookie)
  expect(reuse.statusCode).toBe(401)
  expectCookiesCleared(reuse)

  expect((await postRefresh(next)).statusCode).toBe(401)
  expectNotSignedIn(await getMe(next))
})

test('a reuse ends only that sign-in: the same account signed in elsewhere stays signed in', async () => {
  const { email, cookie } = await newSession()
  const { cookie: otherDevice } = await signIn(app, email)
  await postRefresh(cookie)
  clock += REFRESH_GRACE_MS + 1
  expect((await postRefresh(cookie)).statusCode).toBe(401)
  expect((await getMe(otherDevice)).statusCode).toBe(200)
})

test('a refresh without a refresh cookie answers 401', async () => {
  const response = await postRefresh()
  expect(response.statusCode).toBe(401)
  expect(ErrorEnvelopeSchema.parse(response.json()).success).toBe(false)
})

test('a refresh with an unknown token answers 401 and clears the cookies', async () => {
  const response = await postRefresh('docchat_refresh=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')
  expect(response.statusCode).toBe(401)
  expectCookiesCleared(response)
})

test('a refresh token expires after 7 days', async () => {
  const { cookie } = await newSession()
  clock += 7 * DAY + 1000
  const response = await postRefresh(cookie)
  expect(response.statusCode).toBe(401)
  expectCookiesCleared(response)
})

test('a sign-in ends after 30 days however often it is refreshed', async () => {
  let { cookie } = await newSession()
  for (let day = 6; day < 30; day += 6) {
    clock += 6 * DAY
    const response = await postRefresh(cookie)
    expect(response.statusCode).toBe(200)
    cookie = cookieHeader(response)
  }
  clock += 6 * DAY
  expect((await postRefresh(cookie)).statusCode).toBe(401)
})

test('logout answers 200 with null data and clears both cookies', async () => {
  const { cookie } = await newSession()
  const response = await postLogout(cookie)
  expect(response.statusCode).toBe(200)
  expect(logout.response.parse(response.json())).toEqual({ success: true, data: null })
  expectCookiesCleared(response)
})

test('after logout the access cookie stops working at once, and so does the refresh cookie', async () => {
  const { cookie } = await newSession()
  expect((await getMe(cookie)).statusCode).toBe(200)
  await postLogout(cookie)
  expectNotSignedIn(await getMe(cookie))
  expect((await postRefresh(cookie)).statusCode).toBe(401)
})

test('logout with only the access cookie still ends the sign-in', async () => {
  const { cookie } = await newSession()
  const accessOnly = `docchat_access=${accessOf(cookie)}`
  expect((await postLogout(accessOnly)).statusCode).toBe(200)
  expectNotSignedIn(await getMe(cookie))
  expect((await postRefresh(cookie)).statusCode).toBe(401)
})

test('logout without any cookie answers 200', async () => {
  const response = await postLogout()
  expect(response.statusCode).toBe(200)
  expect(logout.response.parse(response.json()).success).toBe(true)
})

test('logout ends only the sign-in it was sent from', async () => {
  const { email, cookie } = await newSession()
  const { cookie: otherDevice } = await signIn(app, email)
  await postLogout(cookie)
  expect((await getMe(otherDevice)).statusCode).toBe(200)
})

test('a validly signed token whose ids are not uuids answers 401, not 500', async () => {
  const key = deriveAccessTokenKey(TEST_APP_SECRET)
  const { token } = await signAccessToken(key, {
    userId: 'not-a-uuid',
    familyId: "1' or '1'='1",
    now: new Date(clock),
  })
  expectNotSignedIn(await getMe(`docchat_access=${token}`))
})
