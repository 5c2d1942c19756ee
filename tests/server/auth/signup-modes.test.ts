/**
 * Who may sign up (SIGNUP, SIGNUP_DOMAINS) and EMAIL_VERIFICATION=required: a refused sign-up
 * gets a sentence that says why; an unconfirmed account cannot sign in until the mailed link is
 * followed; the configuration is checked at start.
 */
import { afterAll, beforeAll, expect, test } from 'vitest'
import { accountLinkEndpoints } from '#contracts/account-links.ts'
import { authEndpoints } from '#contracts/auth.ts'
import { createSmtpCapture, linkIn, type SmtpCapture } from '#tests/fakes/smtp/smtp-capture.ts'
import { testConfig } from '#tests/server/support/helper.ts'
import { call, errorOf } from '../support/chat-helpers.ts'
import { buildTestApp, signIn, TEST_PASSWORD, uniqueEmail } from '../support/helper.ts'

const PUBLIC_URL = 'http://127.0.0.1:3998'
let smtp: SmtpCapture

beforeAll(async () => {
  smtp = await createSmtpCapture()
})
afterAll(async () => {
  await smtp.close()
})

const signUp = (app: Awaited<ReturnType<typeof buildTestApp>>, email: string) =>
  call(app, authEndpoints.register, {
    body: { email, password: TEST_PASSWORD, confirmPassword: TEST_PASSWORD },
  })

test('SIGNUP=closed refuses every sign-up with a sentence; existing accounts still sign in', async () => {
  const app = await buildTestApp({ env: { SIGNUP: 'closed' } })
  try {
    const existing = uniqueEmail('existing')
    await app.auth.register({ email: existing, password: TEST_PASSWORD }, app.log)
    const response = await signUp(app, uniqueEmail('closed'))
    expect(response.statusCode).toBe(403)
    expect((await signIn(app, existing)).user.email).toBe(existing)
    expect(errorOf(response)).toBe('Sign-up is closed on this server. Ask its operator for an account.')
    expect((await call(app, authEndpoints.options)).json().data).toMatchObject({ signup: 'closed' })
  } finally {
    await app.close()
  }
})

test('SIGNUP=domains lets in only the listed domains, whatever the letter case', async () => {
  const app = await buildTestApp({ env: { SIGNUP: 'domains', SIGNUP_DOMAINS: 'example.com, Example.org' } })
  try {
    expect((await signUp(app, `Ada-${Date.now()}@EXAMPLE.com`)).statusCode).toBe(201)
    expect((await signUp(app, `bob-${Date.now()}@example.org`)).statusCode).toBe(201)
    const refused = await signUp(app, `eve-${Date.now()}@example.net`)
    expect(refused.statusCode).toBe(403)
    expect(errorOf(refused)).toBe(
      'Sign-up here is open only to email addresses ending in @example.com or @example.org.',
    )
    // A look-alike domain is not the domain.
    expect((await signUp(app, `eve-${Date.now()}@evil-example.com`)).statusCode).toBe(403)
  } finally {
    await app.close()
  }
})

test('the signup settings are checked at start', () => {
  expect(() => testConfig({ SIGNUP: 'domains' })).toThrow(/SIGNUP_DOMAINS: required when SIGNUP=domains/)
  expect(() => testConfig({ SIGNUP: 'invite' })).toThrow(/SIGNUP must be open, domains or closed/)
  expect(() => testConfig({ SIGNUP_DOMAINS: 'not a domain' })).toThrow(/SIGNUP_DOMAINS must be/)
  expect(() => testConfig({ EMAIL_VERIFICATION: 'required', NODE_ENV: 'production' })).toThrow(
    /EMAIL_VERIFICATION: required needs mail/,
  )
  expect(() => testConfig({ SMTP_URL: 'http://mail.example.com' })).toThrow(/SMTP_URL must be/)
})

test('EMAIL_VERIFICATION=required: no sign-in until the mailed link is followed, once', async () => {
  const app = await buildTestApp({ env: { EMAIL_VERIFICATION: 'required', SMTP_URL: smtp.url, PUBLIC_URL } })
  try {
    const email = uniqueEmail('confirm')
    expect((await signUp(app, email)).statusCode).toBe(201)
    const mail = await smtp.waitFor((m) => m.to.includes(email))
    expect(mail.subject).toBe('Confirm your email for DocChat')
    const link = linkIn(mail, `${PUBLIC_URL}/confirm-email?token=`)

    const early = await call(app, authEndpoints.login, { body: { email, password: TEST_PASSWORD } })
    expect(early.statusCode).toBe(403)
    expect(errorOf(early)).toMatch(/^Confirm your email address first/)
    // A wrong password learns nothing about the account.
    const wrong = await call(app, authEndpoints.login, { body: { email, password: 'wrong password' } })
    expect(wrong.statusCode).toBe(401)

    const token = new URL(link).searchParams.get('token') ?? ''
    // The refused sign-in sent a newer link; the first one still works (D100), once.
    await smtp.waitFor((m) => m.to.includes(email) && m !== mail)
    expect((await call(app, accountLinkEndpoints.confirmEmail, { body: { token } })).statusCode).toBe(200)
    expect((await call(app, accountLinkEndpoints.confirmEmail, { body: { token } })).statusCode).toBe(400)
    expect((await signIn(app, email)).user.email).toBe(email)
  } finally {
    await app.close()
  }
})
