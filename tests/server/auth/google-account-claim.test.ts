/**
 * D99: someone registers an address before its owner does (open sign-up, or
 * EMAIL_VERIFICATION=required with the address never confirmed). When the owner then signs in
 * with Google, that password stops working and every sign-in made with it ends before the owner
 * gets one, so nothing the owner then puts in the account is readable by the one who registered
 * it; the owner lands on Settings, told so. An account whose address was proven (a mailed link
 * followed) keeps its password and sessions when Google is linked, as before.
 */
import { afterAll, beforeAll, expect, test } from 'vitest'
import { accountLinkEndpoints } from '#contracts/account-links.ts'
import { authEndpoints, GOOGLE_SIGN_IN_CALLBACK_PATH, GOOGLE_SIGN_IN_PATH } from '#contracts/auth.ts'
import { chatEndpoints } from '#contracts/chat.ts'
import { documentEndpoints } from '#contracts/documents.ts'
import { sharingEndpoints } from '#contracts/sharing.ts'
import { REVOKED_API_KEY } from '#server/api-keys/api-key-errors.ts'
import type { App } from '#server/app.ts'
import { completeConsent } from '#tests/fakes/google/consent.ts'
import { createGoogleEmulator, type GoogleEmulator } from '#tests/fakes/google/emulator.ts'
import { ADA, BOB, CAROL } from '#tests/fakes/google/fixtures.ts'
import { createSmtpCapture, linkIn, type SmtpCapture } from '#tests/fakes/smtp/smtp-capture.ts'
import { createApiKeyOk, withKey } from '../support/api-key-helpers.ts'
import { call, createConversation, errorOf, listConversations, sendOk } from '../support/chat-helpers.ts'
import { connectDrive, connectionRow, driveEnv, PUBLIC_URL } from '../support/drive-helpers.ts'
import { buildTestApp, cookieHeader, register, signIn } from '../support/helper.ts'

const ATTACKER_PASSWORD = 'chosen by someone else'
const CLAIMED = '/dashboard/settings?google=account-claimed'

let emulator: GoogleEmulator
let smtp: SmtpCapture
/** Open sign-up, and EMAIL_VERIFICATION=required; each test takes its own Google account. */
let open: App
let required: App

beforeAll(async () => {
  emulator = await createGoogleEmulator()
  smtp = await createSmtpCapture()
  const env = { ...driveEnv(emulator), SMTP_URL: smtp.url }
  ;[open, required] = await Promise.all([
    buildTestApp({ env }),
    buildTestApp({ env: { ...env, EMAIL_VERIFICATION: 'required' } }),
  ])
})
afterAll(async () => {
  await Promise.all([open?.close(), required?.close()])
  await emulator?.close()
  await smtp?.close()
})

/** The owner of `account`'s mailbox signs in with Google, as a browser does: the callback's answer. */
async function signInWithGoogle(app: App, account: string) {
  const started = await app.inject({ method: 'GET', url: GOOGLE_SIGN_IN_PATH })
  const redirect = await completeConsent(String(started.headers.location), { account })
  return app.inject({
    method: 'GET',
    url: `${GOOGLE_SIGN_IN_CALLBACK_PATH}${redirect.search}`,
    headers: { cookie: cookieHeader(started) },
  })
}

const passwordSignIn = (app: App, email: string, password: string) =>
  call(app, authEndpoints.login, { body: { email, password } })

/** The owner's Google sign-in; the owner writes something private with it. */
async function ownerArrives(app: App, email: string) {
  const back = await signInWithGoogle(app, email)
  expect(String(back.headers.location)).toBe(CLAIMED)
  const owner = cookieHeader(back)
  const secret = await createConversation(app, owner, 'Owner’s private matter')
  return { owner, secret }
}

test('open sign-up: the owner’s Google sign-in ends the pre-registered password and its sessions', async () => {
  const app = open
  await register(app, ADA, ATTACKER_PASSWORD)
  const attacker = await signIn(app, ADA, ATTACKER_PASSWORD)
  expect((await call(app, authEndpoints.me, { cookie: attacker.cookie })).statusCode).toBe(200)

  const { owner, secret } = await ownerArrives(app, ADA)

  // The attacker's old session, its refresh token and its password are all refused.
  expect((await call(app, authEndpoints.me, { cookie: attacker.cookie })).statusCode).toBe(401)
  const list = await call(app, chatEndpoints.listConversations, { cookie: attacker.cookie })
  expect(list.statusCode).toBe(401)
  const refresh = await call(app, authEndpoints.refreshToken, { cookie: attacker.cookie })
  expect(refresh.statusCode).toBe(401)
  const again = await passwordSignIn(app, ADA, ATTACKER_PASSWORD)
  expect(again.statusCode).toBe(401)
  expect(errorOf(again)).toBe('Invalid email or password')
  // The owner's own sign-in is live and sees what they wrote.
  expect((await listConversations(app, owner)).map((c) => c._id)).toContain(secret._id)
})

test('EMAIL_VERIFICATION=required: Google confirming the address does not let the pre-registered password in', async () => {
  const app = required
  await register(app, BOB, ATTACKER_PASSWORD)
  expect((await passwordSignIn(app, BOB, ATTACKER_PASSWORD)).statusCode).toBe(403)

  const { owner, secret } = await ownerArrives(app, BOB)

  const attempt = await passwordSignIn(app, BOB, ATTACKER_PASSWORD)
  expect(attempt.statusCode).toBe(401)
  expect(cookieHeader(attempt)).toBe('')
  // The confirmation link mailed at sign-up reached the owner's mailbox, not the attacker; the
  // account stays the owner's alone either way.
  expect((await listConversations(app, owner)).map((c) => c._id)).toContain(secret._id)
})

test('an account whose address was proven by a mailed link keeps its password and sessions when Google is linked', async () => {
  const app = required
  await register(app, CAROL)
  const mail = await smtp.waitFor((m) => m.to.includes(CAROL))
  const token = new URL(linkIn(mail, `${PUBLIC_URL}/confirm-email?token=`)).searchParams.get('token')
  expect((await call(app, accountLinkEndpoints.confirmEmail, { body: { token } })).statusCode).toBe(200)
  const earlier = await signIn(app, CAROL)

  const back = await signInWithGoogle(app, CAROL)
  expect(String(back.headers.location)).toBe('/dashboard')

  expect((await call(app, authEndpoints.me, { cookie: earlier.cookie })).statusCode).toBe(200)
  expect((await signIn(app, CAROL)).user.email).toBe(CAROL)
})

test('what the pre-registered password made outside a session ends too: its share links, the Drive it connected, its API keys', async () => {
  const app = open
  const attackerId = (await register(app, CAROL, ATTACKER_PASSWORD))._id
  const attacker = await signIn(app, CAROL, ATTACKER_PASSWORD)
  // The attacker connects a Drive of their own (Bob's Google account) and shares a conversation.
  await connectDrive(app, { id: attackerId, email: CAROL, cookie: attacker.cookie }, { account: BOB })
  expect(await connectionRow(app, attackerId)).toBeDefined()
  const talk = await createConversation(app, attacker.cookie, 'Shared before the owner came')
  await sendOk(app, attacker.cookie, talk._id, 'Anything to share?')
  const shared = await call(app, sharingEndpoints.shareConversation, {
    cookie: attacker.cookie,
    params: { id: talk._id },
  })
  expect(shared.statusCode).toBe(200)
  const url = sharingEndpoints.shareConversation.response.parse(shared.json()).data.url
  const token = url.slice(url.lastIndexOf('/s/') + 3)
  expect((await call(app, sharingEndpoints.getSharedConversation, { params: { token } })).statusCode).toBe(
    200,
  )
  const { key } = await createApiKeyOk(app, attacker.cookie, { scopes: ['library'] })
  expect((await withKey(app, documentEndpoints.listDocuments, key)).statusCode).toBe(200)

  await ownerArrives(app, CAROL)

  // The link the attacker knows opens nothing, and sharing again would make a new one.
  expect((await call(app, sharingEndpoints.getSharedConversation, { params: { token } })).statusCode).toBe(
    404,
  )
  // The attacker's Drive is no longer the account's: 'Upload to Drive' cannot reach it.
  expect(await connectionRow(app, attackerId)).toBeUndefined()
  // The API key the attacker made calls nothing any more (D124).
  const withOldKey = await withKey(app, documentEndpoints.listDocuments, key)
  expect(withOldKey.statusCode).toBe(401)
  expect(errorOf(withOldKey)).toBe(REVOKED_API_KEY)
})
