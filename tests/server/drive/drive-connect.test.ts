/**
 * Connecting Google Drive through the connect window, against the Google emulator with the real
 * OAuth client: the consent request, the state's checks (missing, replayed, another person's,
 * expired), cancelling, PKCE, the scope, tokens sealed at rest, and the pages the window shows.
 */
import { createHash } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { beforeEach, expect, test } from 'vitest'
import { DRIVE_CALLBACK_PATH, DRIVE_CONNECTED_MESSAGE } from '#contracts/drive.ts'
import type { App } from '#server/app.ts'
import { googleOauthStates } from '#server/db/schema.ts'
import { createTokenCipher } from '#server/drive/token-crypto.ts'
import { completeConsent } from '#tests/fakes/google/consent.ts'
import type { GoogleEmulator } from '#tests/fakes/google/emulator.ts'
import { ADA, BOB } from '#tests/fakes/google/fixtures.ts'
import {
  buildDriveApp,
  connectDrive,
  connectionRow,
  consentUrl,
  followRedirect,
  newPerson,
  openConnect,
  PUBLIC_URL,
  setUpDriveApp,
} from '../support/drive-helpers.ts'
import { buildTestApp, TEST_APP_SECRET } from '../support/helper.ts'

const DRIVE_READONLY = 'https://www.googleapis.com/auth/drive.readonly'
/** 'Upload to Drive' creates files, and may touch only those (D65). */
const DRIVE_FILE = 'https://www.googleapis.com/auth/drive.file'

let emulator: GoogleEmulator
let app: App
/** The app's clock, moved forward to expire a connect window. */
let clockOffsetMs = 0

setUpDriveApp(
  (started) => {
    ;({ emulator, app } = started)
  },
  { now: () => new Date(Date.now() + clockOffsetMs) },
)
beforeEach(() => {
  clockOffsetMs = 0
})

const grantOf = (email: string) =>
  [...emulator.state.data.grants.values()].find((g) => g.email === email && !g.revoked)

test('Connect redirects to Google with drive.readonly and drive.file, offline access, consent, a state and PKCE S256', async () => {
  const person = await newPerson(app)

  const response = await openConnect(app, person.cookie)
  await fetch(String(response.headers.location))

  expect(response.statusCode).toBe(302)
  const location = new URL(String(response.headers.location))
  expect(`${location.origin}${location.pathname}`).toBe(`${emulator.url}/o/oauth2/v2/auth`)
  const request = emulator.state.lastAuthRequest
  expect(request).toMatchObject({
    client_id: emulator.clientId,
    redirect_uri: `${PUBLIC_URL}${DRIVE_CALLBACK_PATH}`,
    response_type: 'code',
    scope: `${DRIVE_READONLY} ${DRIVE_FILE}`,
    access_type: 'offline',
    prompt: 'consent',
    code_challenge_method: 'S256',
  })
  // 256 random bits, base64url; the challenge is a SHA-256 (43 characters).
  expect(request?.state).toMatch(/^[A-Za-z0-9_-]{43}$/)
  expect(request?.code_challenge).toMatch(/^[A-Za-z0-9_-]{43}$/)
})

test('the state is kept only as a hash, bound to the person, for ten minutes', async () => {
  const person = await newPerson(app)
  const state = new URL(await consentUrl(app, person.cookie)).searchParams.get('state') ?? ''

  const rows = await app.db.select().from(googleOauthStates).where(eq(googleOauthStates.userId, person.id))

  expect(rows).toHaveLength(1)
  expect(rows[0]?.stateHash).toBe(createHash('sha256').update(state).digest('hex'))
  expect(JSON.stringify(rows)).not.toContain(state)
  const ttl = (rows[0]?.expiresAt.getTime() ?? 0) - (rows[0]?.createdAt.getTime() ?? 0)
  expect(ttl).toBeGreaterThan(9 * 60_000)
  expect(ttl).toBeLessThanOrEqual(10 * 60_000 + 1_000)
})

test('approving on Google shows "Google Drive connected" and tells the opener, on the app origin only', async () => {
  const person = await newPerson(app)

  const page = await connectDrive(app, person)

  expect(page.statusCode).toBe(200)
  expect(page.headers['content-type']).toMatch(/^text\/html/)
  expect(page.body).toContain('Google Drive connected — you can close this window')
  expect(page.body).toContain(
    `window.opener.postMessage(${JSON.stringify(DRIVE_CONNECTED_MESSAGE)}, ${JSON.stringify(PUBLIC_URL)})`,
  )
  expect(page.body).toContain('Close window')
  const nonce = /<script nonce="([^"]+)">/.exec(page.body)?.[1]
  expect(nonce).toBeTruthy()
  const csp = String(page.headers['content-security-policy'])
  expect(csp).toContain(`script-src 'nonce-${nonce}'`)
  expect(csp).toContain("default-src 'none'")
  expect(csp).not.toContain('unsafe-inline')
  expect(page.headers['cache-control']).toBe('no-store')
  const row = await connectionRow(app, person.id)
  expect(row?.scope).toBe(`${DRIVE_READONLY} ${DRIVE_FILE}`)
  expect(row?.googleEmail).toBe(ADA)
})

test('tokens are sealed at rest: no token in the row, and they open only with their owner id', async () => {
  const person = await newPerson(app)
  await connectDrive(app, person)
  const grant = grantOf(ADA)
  const accessToken = [...emulator.state.data.accessTokens.values()].find(
    (t) => t.grantId === grant?.id,
  )?.token

  const row = await connectionRow(app, person.id)
  const raw = JSON.stringify(row)

  expect(grant?.refreshToken).toBeTruthy()
  expect(accessToken).toBeTruthy()
  expect(raw).not.toContain(grant?.refreshToken ?? '??')
  expect(raw).not.toContain(accessToken ?? '??')
  expect(raw).not.toContain('ya29.')
  expect(raw).not.toContain('1//')
  const cipher = createTokenCipher(TEST_APP_SECRET)
  const opened = JSON.parse(cipher.decrypt(row?.tokens ?? '', person.id))
  expect(opened.refresh_token).toBe(grant?.refreshToken)
  expect(opened.access_token).toBe(accessToken)
  const other = await newPerson(app)
  expect(() => cipher.decrypt(row?.tokens ?? '', other.id)).toThrow()
})

test('a state used once cannot be replayed, and nothing more is stored', async () => {
  const person = await newPerson(app)
  const redirect = await completeConsent(await consentUrl(app, person.cookie), { account: ADA })
  await followRedirect(app, redirect, person.cookie)
  const before = await connectionRow(app, person.id)

  const replay = await followRedirect(app, redirect, person.cookie)

  expect(replay.statusCode).toBe(400)
  expect(replay.body).toContain('This connection request is not valid')
  expect(await connectionRow(app, person.id)).toEqual(before)
  expect(emulator.state.requestCount('token.authorization_code')).toBe(1)
})

test("another person's state is refused, stores nothing, and stays usable by its owner", async () => {
  const owner = await newPerson(app)
  const intruder = await newPerson(app)
  const redirect = await completeConsent(await consentUrl(app, owner.cookie), { account: ADA })

  const stolen = await followRedirect(app, redirect, intruder.cookie)
  const own = await followRedirect(app, redirect, owner.cookie)

  expect(stolen.statusCode).toBe(400)
  expect(stolen.body).toContain('started by another DocChat account')
  expect(await connectionRow(app, intruder.id)).toBeUndefined()
  expect(own.body).toContain('Google Drive connected')
})

test('a callback without a state, or with an unknown one, is refused and stores nothing', async () => {
  const person = await newPerson(app)
  const redirect = await completeConsent(await consentUrl(app, person.cookie), { account: ADA })
  const withoutState = new URL(redirect)
  withoutState.searchParams.delete('state')
  const forged = new URL(redirect)
  forged.searchParams.set('state', 'forged-state-value-that-nobody-issued-at-all')

  const missing = await followRedirect(app, withoutState, person.cookie)
  const unknown = await followRedirect(app, forged, person.cookie)

  expect(missing.statusCode).toBe(400)
  expect(missing.body).toContain('This connection request is incomplete')
  expect(unknown.statusCode).toBe(400)
  expect(await connectionRow(app, person.id)).toBeUndefined()
  expect(emulator.state.requestCount('token.authorization_code')).toBe(0)
})

test('a connect window older than ten minutes is refused', async () => {
  const person = await newPerson(app)
  const redirect = await completeConsent(await consentUrl(app, person.cookie), { account: ADA })
  clockOffsetMs = 11 * 60_000

  const late = await followRedirect(app, redirect, person.cookie)

  expect(late.statusCode).toBe(400)
  expect(late.body).toContain('This connection request has expired')
  expect(await connectionRow(app, person.id)).toBeUndefined()
})

test('Cancel on Google shows "You cancelled" and stores nothing', async () => {
  const person = await newPerson(app)

  const page = await connectDrive(app, person, { decision: 'cancel' })

  expect(page.statusCode).toBe(200)
  expect(page.body).toContain('You cancelled connecting Google Drive')
  expect(page.body).not.toContain('postMessage')
  expect(await connectionRow(app, person.id)).toBeUndefined()
})

test('the PKCE verifier is what the exchange proves: a different one fails and stores nothing', async () => {
  const person = await newPerson(app)
  const redirect = await completeConsent(await consentUrl(app, person.cookie), { account: ADA })
  const cipher = createTokenCipher(TEST_APP_SECRET)
  await app.db
    .update(googleOauthStates)
    .set({ codeVerifier: cipher.encrypt('x'.repeat(64), person.id) })
    .where(eq(googleOauthStates.userId, person.id))

  const page = await followRedirect(app, redirect, person.cookie)

  expect(page.statusCode).toBe(502)
  expect(page.body).toContain('Google Drive could not be connected')
  expect(emulator.state.requestCount('token.authorization_code')).toBe(1)
  expect(await connectionRow(app, person.id)).toBeUndefined()
})

test('unticking Drive access on Google stores nothing and says why', async () => {
  const person = await newPerson(app)

  const page = await connectDrive(app, person, { account: ADA, grantScopes: [] })

  expect(page.statusCode).toBe(400)
  expect(page.body).toContain('DocChat was not allowed to read your Drive files')
  expect(await connectionRow(app, person.id)).toBeUndefined()
})

test('reconnecting asks no new consent and keeps the stored refresh token Google does not resend', async () => {
  const person = await newPerson(app)
  await connectDrive(app, person)
  const cipher = createTokenCipher(TEST_APP_SECRET)
  const first = JSON.parse(cipher.decrypt((await connectionRow(app, person.id))?.tokens ?? '', person.id))

  const page = await connectDrive(app, person)

  expect(page.body).toContain('Google Drive connected')
  expect(emulator.state.lastAuthRequest?.prompt).toBeUndefined()
  const second = JSON.parse(cipher.decrypt((await connectionRow(app, person.id))?.tokens ?? '', person.id))
  expect(second.refresh_token).toBe(first.refresh_token)
  expect(second.access_token).not.toBe(first.access_token)
})

test('the connect window asks a signed-out visitor to sign in, as a page', async () => {
  const connect = await openConnect(app)
  const callback = await app.inject({ method: 'GET', url: `${DRIVE_CALLBACK_PATH}?state=x&code=y` })

  for (const page of [connect, callback]) {
    expect(page.statusCode).toBe(401)
    expect(page.headers['content-type']).toMatch(/^text\/html/)
    expect(page.body).toContain('Sign in to DocChat first')
  }
})

test('without a Google client the connect window says Google Drive is not configured', async () => {
  const bare = await buildTestApp()
  try {
    const person = await newPerson(bare)
    const page = await openConnect(bare, person.cookie)
    expect(page.statusCode).toBe(503)
    expect(page.headers['content-type']).toMatch(/^text\/html/)
    expect(page.body).toContain('Google Drive is not configured on this server')
  } finally {
    await bare.close()
  }
})

test('two people each connect their own Google account', async () => {
  const ada = await newPerson(app)
  const bob = await newPerson(app)

  await connectDrive(app, ada, { account: ADA })
  await connectDrive(app, bob, { account: BOB })

  expect((await connectionRow(app, ada.id))?.googleEmail).toBe(ADA)
  expect((await connectionRow(app, bob.id))?.googleEmail).toBe(BOB)
})

test('the logs never carry a Google token, an authorization code or the client secret', async () => {
  const lines: string[] = []
  const logged = await buildDriveApp(emulator, {
    logger: { level: 'debug', stream: { write: (line) => lines.push(line) } },
  })
  try {
    const person = await newPerson(logged)
    await connectDrive(logged, person)
    const first = await completeConsent(await consentUrl(logged, person.cookie), { account: ADA })
    await followRedirect(logged, first, person.cookie)
    // A fresh state with the spent code: the exchange fails, and that is logged.
    const spent = await completeConsent(await consentUrl(logged, person.cookie), { account: ADA })
    spent.searchParams.set('code', first.searchParams.get('code') ?? '')
    await followRedirect(logged, spent, person.cookie)
    emulator.state.revokeGrants(ADA)
    await logged.inject({
      method: 'GET',
      url: `/api/v1/google-drive/list-files?email=${encodeURIComponent(person.email)}`,
      headers: { cookie: person.cookie },
    })
  } finally {
    await logged.close()
  }
  const log = lines.join('\n')
  expect(log).toContain('google.connect.exchange_failed')
  expect(log).not.toMatch(/ya29\.|1\/\/0|4\/0A/)
  expect(log).not.toContain(emulator.clientSecret)
})
