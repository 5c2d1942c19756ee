/**
 * Sign in with Google against the emulator (real google-auth-library, pointed at the emulator's
 * token endpoint and keys by configuration): a new account is made, an existing one is linked
 * only when Google verified the same email (what happens to an unproven one's password:
 * google-account-claim.test.ts); a forged or unsigned ID token, another audience, an
 * unverified email, a callback without the browser's cookie or with a replayed state are refused.
 */
import { createSign, generateKeyPairSync } from 'node:crypto'
import { eq } from 'drizzle-orm'
import type { LightMyRequestResponse } from 'fastify'
import { beforeEach, expect, test } from 'vitest'
import { authEndpoints, GOOGLE_SIGN_IN_CALLBACK_PATH, GOOGLE_SIGN_IN_PATH } from '#contracts/auth.ts'
import type { App } from '#server/app.ts'
import { users } from '#server/db/schema.ts'
import { completeConsent } from '#tests/fakes/google/consent.ts'
import type { GoogleEmulator } from '#tests/fakes/google/emulator.ts'
import { ADA, BOB, CAROL } from '#tests/fakes/google/fixtures.ts'
import type { IdTokenForger } from '#tests/fakes/google/store.ts'
import { call } from '../support/chat-helpers.ts'
import { driveEnv, setUpDriveApp } from '../support/drive-helpers.ts'
import { buildTestApp, cookieHeader, register, TEST_PASSWORD } from '../support/helper.ts'

let emulator: GoogleEmulator
let app: App

setUpDriveApp((started) => {
  app = started.app
  emulator = started.emulator
})
beforeEach(async () => {
  await app.db.delete(users)
})

/** Opens the sign-in page: Google's URL and the browser's flow cookie. */
async function start() {
  const response = await app.inject({ method: 'GET', url: GOOGLE_SIGN_IN_PATH })
  expect(response.statusCode).toBe(302)
  return { authUrl: String(response.headers.location), flowCookie: cookieHeader(response) }
}

function callback(redirect: URL, cookie: string): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'GET',
    url: `${GOOGLE_SIGN_IN_CALLBACK_PATH}${redirect.search}`,
    headers: cookie ? { cookie } : {},
  })
}

/** The whole flow as a browser does it; the callback's answer. */
async function signInWithGoogle(account: string) {
  const { authUrl, flowCookie } = await start()
  return callback(await completeConsent(authUrl, { account }), flowCookie)
}

const outcomeOf = (response: LightMyRequestResponse) => String(response.headers.location)

test('the authorization request asks only for openid and email, with PKCE, state and nonce', async () => {
  const url = new URL((await start()).authUrl)
  expect(url.origin).toBe(emulator.url)
  expect(url.searchParams.get('scope')).toBe('openid email')
  expect(url.searchParams.get('code_challenge_method')).toBe('S256')
  for (const name of ['code_challenge', 'state', 'nonce']) expect(url.searchParams.get(name)).toBeTruthy()
})

test('a first Google sign-in creates an account without a password and signs it in', async () => {
  const response = await signInWithGoogle(CAROL)
  expect(response.statusCode).toBe(302)
  expect(outcomeOf(response)).toBe('/dashboard')
  const me = await call(app, authEndpoints.me, { cookie: cookieHeader(response) })
  expect(me.json().data.email).toBe(CAROL)
  const [row] = await app.db.select().from(users).where(eq(users.email, CAROL))
  expect(row?.passwordHash).toBeNull()
  expect(row?.googleSubject).toMatch(/^\d+$/)
  // Again: the same account, not a second one.
  expect(outcomeOf(await signInWithGoogle(CAROL))).toBe('/dashboard')
  expect(await app.db.select().from(users)).toHaveLength(1)
})

test('an existing account with the same, verified email is linked (its password: google-account-claim.test.ts)', async () => {
  await register(app, ADA)
  const response = await signInWithGoogle(ADA)
  // Never proven by a mailed link, so its password is removed and the owner is told (D99).
  expect(outcomeOf(response)).toBe('/dashboard/settings?google=account-claimed')
  const [row] = await app.db.select().from(users).where(eq(users.email, ADA))
  expect(row?.googleSubject).not.toBeNull()
  expect(row?.emailProvenAt).not.toBeNull()
  // Linked once, the next Google sign-in has nothing to say.
  expect(outcomeOf(await signInWithGoogle(ADA))).toBe('/dashboard')
})

test('an email Google has not verified signs into nothing and links nothing', async () => {
  await register(app, BOB)
  emulator.state.setEmailVerified(BOB, false)
  expect(outcomeOf(await signInWithGoogle(BOB))).toBe('/login?google=unverified')
  const [row] = await app.db.select().from(users).where(eq(users.email, BOB))
  expect(row?.googleSubject).toBeNull()
  emulator.state.setEmailVerified(CAROL, false)
  expect(outcomeOf(await signInWithGoogle(CAROL))).toBe('/login?google=unverified')
  expect(await app.db.select().from(users).where(eq(users.email, CAROL))).toHaveLength(0)
})

test('a callback without the browser’s flow cookie, or a second time, signs nobody in', async () => {
  const { authUrl, flowCookie } = await start()
  const redirect = await completeConsent(authUrl, { account: CAROL })
  expect(outcomeOf(await callback(redirect, ''))).toBe('/login?google=expired')
  // Another browser's flow cookie does not fit this state either.
  const other = await start()
  expect(outcomeOf(await callback(redirect, other.flowCookie))).toBe('/login?google=expired')
  const first = await callback(redirect, flowCookie)
  expect(outcomeOf(first)).toBe('/dashboard')
  // Every callback clears the flow cookie; replayed with it anyway, Google's code is spent.
  expect(first.cookies.find((c) => c.name === 'docchat_google_sign_in')?.value).toBe('')
  expect(outcomeOf(await callback(redirect, flowCookie))).toBe('/login?google=failed')
})

test('cancelling at Google comes back to /login saying so', async () => {
  const { authUrl, flowCookie } = await start()
  const redirect = await completeConsent(authUrl, { account: CAROL, decision: 'cancel' })
  expect(outcomeOf(await callback(redirect, flowCookie))).toBe('/login?google=cancelled')
})

/** The whole flow with the token endpoint's ID token replaced: what a forger would need. */
async function withIdToken(forge: IdTokenForger) {
  emulator.state.forgeNextIdToken(forge)
  return outcomeOf(await signInWithGoogle(CAROL))
}

const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')

test('the unforged flow signs in (the forgeries below differ from it in one thing each)', async () => {
  expect(await withIdToken(({ idToken }) => idToken)).toBe('/dashboard')
})

test('an unsigned ID token (alg none) is refused', async () => {
  const outcome = await withIdToken(
    ({ claims }) => `${encode({ alg: 'none', typ: 'JWT' })}.${encode(claims)}.`,
  )
  expect(outcome).toBe('/login?google=failed')
  expect(await app.db.select().from(users)).toHaveLength(0)
})

test('an ID token signed with another key is refused', async () => {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
  const outcome = await withIdToken(({ idToken, claims }) => {
    const kid = JSON.parse(Buffer.from(idToken.split('.')[0] ?? '', 'base64url').toString()).kid
    const input = `${encode({ alg: 'RS256', typ: 'JWT', kid })}.${encode(claims)}`
    return `${input}.${createSign('sha256').update(input).sign(privateKey).toString('base64url')}`
  })
  expect(outcome).toBe('/login?google=failed')
  expect(await app.db.select().from(users)).toHaveLength(0)
})

test('an ID token Google signed for another app (audience) is refused', async () => {
  const outcome = await withIdToken(({ claims, sign }) =>
    sign({
      ...claims,
      aud: 'someone-else.apps.googleusercontent.com',
      azp: 'someone-else.apps.googleusercontent.com',
    }),
  )
  expect(outcome).toBe('/login?google=failed')
  expect(await app.db.select().from(users)).toHaveLength(0)
})

test('an ID token with another nonce (replayed from another sign-in) is refused', async () => {
  const outcome = await withIdToken(({ claims, sign }) => sign({ ...claims, nonce: 'from-another-flow' }))
  expect(outcome).toBe('/login?google=failed')
})

test('an ID token saying the email is unverified is refused', async () => {
  const outcome = await withIdToken(({ claims, sign }) => sign({ ...claims, email_verified: false }))
  expect(outcome).toBe('/login?google=unverified')
})

test('a disabled account signs in with Google no more than with its password', async () => {
  await register(app, ADA)
  await app.db.update(users).set({ disabledAt: new Date() }).where(eq(users.email, ADA))
  expect(outcomeOf(await signInWithGoogle(ADA))).toBe('/login?google=disabled')
})

test('SIGNUP=closed: Google makes no new account, but an existing one signs in', async () => {
  const closed = await buildTestApp({ env: { ...driveEnv(emulator), SIGNUP: 'closed' } })
  try {
    await closed.auth.register({ email: ADA, password: TEST_PASSWORD }, closed.log)
    const response = await closed.inject({ method: 'GET', url: GOOGLE_SIGN_IN_PATH })
    const redirect = await completeConsent(String(response.headers.location), { account: CAROL })
    const back = await closed.inject({
      method: 'GET',
      url: `${GOOGLE_SIGN_IN_CALLBACK_PATH}${redirect.search}`,
      headers: { cookie: cookieHeader(response) },
    })
    expect(String(back.headers.location)).toBe('/login?google=signup-closed')
    const again = await closed.inject({ method: 'GET', url: GOOGLE_SIGN_IN_PATH })
    const adaRedirect = await completeConsent(String(again.headers.location), { account: ADA })
    const signedIn = await closed.inject({
      method: 'GET',
      url: `${GOOGLE_SIGN_IN_CALLBACK_PATH}${adaRedirect.search}`,
      headers: { cookie: cookieHeader(again) },
    })
    // Signed in (the account made by the operator had its address never proven: D99).
    expect(String(signedIn.headers.location)).toBe('/dashboard/settings?google=account-claimed')
  } finally {
    await closed.close()
  }
})

test('without GOOGLE_CLIENT_ID the sign-in page says it is not configured', async () => {
  const plain = await buildTestApp()
  try {
    const response = await plain.inject({ method: 'GET', url: GOOGLE_SIGN_IN_PATH })
    expect(String(response.headers.location)).toBe('/login?google=not-configured')
    expect((await call(plain, authEndpoints.options)).json().data.google).toBe(false)
  } finally {
    await plain.close()
  }
})
