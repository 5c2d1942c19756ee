/**
 * Forgotten password, end to end with a real SMTP server (tests/fakes/smtp): the mail arrives with
 * a link, the link works once and for 30 minutes, the old password stops working, every session
 * ends; an unknown email gets the same answer and no mail.
 */
import { afterAll, beforeAll, expect, test } from 'vitest'
import { accountLinkEndpoints } from '#contracts/account-links.ts'
import { authEndpoints } from '#contracts/auth.ts'
import type { App } from '#server/app.ts'
import { createSmtpCapture, linkIn, type SmtpCapture } from '#tests/fakes/smtp/smtp-capture.ts'
import { call, errorOf } from '../support/chat-helpers.ts'
import { buildTestApp, register, signIn, TEST_PASSWORD, uniqueEmail } from '../support/helper.ts'

const PUBLIC_URL = 'http://127.0.0.1:3999'
const NEW_PASSWORD = 'a brand new passphrase'
let smtp: SmtpCapture
let app: App
let clock = Date.now()

beforeAll(async () => {
  smtp = await createSmtpCapture()
  app = await buildTestApp({
    env: { SMTP_URL: smtp.url, MAIL_FROM: 'DocChat <docchat@example.com>', PUBLIC_URL },
    now: () => new Date(clock),
  })
})
afterAll(async () => {
  await app.close()
  await smtp.close()
})

async function askForReset(email: string) {
  const response = await call(app, accountLinkEndpoints.forgotPassword, { body: { email } })
  await app.mailLinks.settled()
  return response
}

async function resetLinkFor(email: string): Promise<string> {
  const before = smtp.messages.length
  expect((await askForReset(email)).statusCode).toBe(200)
  const mail = await smtp.waitFor((m, i = smtp.messages.indexOf(m)) => i >= before && m.to.includes(email))
  expect(mail.subject).toBe('Reset your DocChat password')
  expect(mail.html).toContain('Choose a new password')
  return linkIn(mail, `${PUBLIC_URL}/reset-password?token=`)
}

const tokenOf = (link: string) => new URL(link).searchParams.get('token') ?? ''

function reset(token: string, password = NEW_PASSWORD) {
  return call(app, accountLinkEndpoints.resetPassword, {
    body: { token, password, confirmPassword: password },
  })
}

test('a reset link arrives by mail, sets a new password once, and ends every session', async () => {
  const email = uniqueEmail('forgot')
  await register(app, email)
  const first = await signIn(app, email)
  const second = await signIn(app, email)
  const link = await resetLinkFor(email)
  expect(smtp.messages.at(-1)?.from).toBe('docchat@example.com')

  const done = await reset(tokenOf(link))
  expect(done.statusCode).toBe(200)
  expect(done.json()).toEqual({ success: true, data: null })

  // Both sessions ended at once; the old password is refused, the new one works.
  for (const session of [first, second])
    expect((await call(app, authEndpoints.me, { cookie: session.cookie })).statusCode).toBe(401)
  const old = await call(app, authEndpoints.login, { body: { email, password: TEST_PASSWORD } })
  expect(old.statusCode).toBe(401)
  expect((await signIn(app, email, NEW_PASSWORD)).user.email).toBe(email)

  // The same link a second time does nothing.
  const again = await reset(tokenOf(link), 'yet another password')
  expect(again.statusCode).toBe(400)
  expect(errorOf(again)).toMatch(/^This reset link does not work: .* Ask for a new one\.$/)
  expect((await signIn(app, email, NEW_PASSWORD)).user.email).toBe(email)
})

test('an unknown email gets the same answer and no mail', async () => {
  const known = uniqueEmail('known')
  await register(app, known)
  const unknown = uniqueEmail('nobody')
  const before = smtp.messages.length
  const forUnknown = await askForReset(unknown)
  const forKnown = await askForReset(known)
  expect(forUnknown.statusCode).toBe(forKnown.statusCode)
  expect(forUnknown.body).toBe(forKnown.body)
  await smtp.waitFor((m) => m.to.includes(known))
  // Give a stray mail to the unknown address every chance to arrive before saying there is none.
  await new Promise((resolve) => setTimeout(resolve, 300))
  expect(smtp.messages.slice(before).some((m) => m.to.includes(unknown))).toBe(false)
})

test('asking answers before any mail is sent, so an existing account answers as fast as an unknown one', async () => {
  const known = uniqueEmail('timing')
  await register(app, known)
  // The SMTP server holds the mail: the answer must not wait for it (nor for the account look-up).
  const { release } = smtp.hold()
  try {
    const answered = await call(app, accountLinkEndpoints.forgotPassword, { body: { email: known } })
    expect(answered.statusCode).toBe(200)
    expect(smtp.messages.some((m) => m.to.includes(known))).toBe(false)
  } finally {
    release()
  }
  await app.mailLinks.settled()
  await smtp.waitFor((m) => m.to.includes(known))
})

test('a link older than 30 minutes is refused, and so is an unknown one', async () => {
  const email = uniqueEmail('late')
  await register(app, email)
  const link = await resetLinkFor(email)
  clock += 30 * 60_000 + 1000
  const late = await reset(tokenOf(link))
  expect(late.statusCode).toBe(400)
  expect(errorOf(late)).toContain('has expired (links last 30 minutes)')
  expect((await reset('A'.repeat(43))).statusCode).toBe(400)
  expect((await signIn(app, email)).user.email).toBe(email)
})

test('a newer link replaces the older one', async () => {
  const email = uniqueEmail('twice')
  await register(app, email)
  const older = await resetLinkFor(email)
  const newer = await resetLinkFor(email)
  expect((await reset(tokenOf(older))).statusCode).toBe(400)
  expect((await reset(tokenOf(newer))).statusCode).toBe(200)
})

test('the new password follows the sign-up rules and texts', async () => {
  const short = await call(app, accountLinkEndpoints.resetPassword, {
    body: { token: 'A'.repeat(43), password: 'short', confirmPassword: 'other' },
  })
  expect(short.statusCode).toBe(400)
  expect(errorOf(short)).toMatch(/Password must be at least 6 characters|Passwords must match/)
})

test('asking for many resets of one email is limited, whatever the address', async () => {
  const limited = await buildTestApp({
    env: { SMTP_URL: smtp.url, PUBLIC_URL },
    rateLimits: { forgotPasswordPerAccount: { max: 2, timeWindowMs: 60 * 60_000 } },
  })
  try {
    const email = uniqueEmail('flood')
    const ask = (ip: string) =>
      limited.inject({
        method: 'POST',
        url: accountLinkEndpoints.forgotPassword.path,
        remoteAddress: ip,
        payload: { email },
      })
    expect((await ask('192.0.2.1')).statusCode).toBe(200)
    expect((await ask('192.0.2.2')).statusCode).toBe(200)
    expect((await ask('192.0.2.3')).statusCode).toBe(429)
  } finally {
    await limited.close()
  }
})

test('in production without SMTP_URL the call says mail is off (503), and the options say so', async () => {
  const off = await buildTestApp({ env: { NODE_ENV: 'production', PUBLIC_URL } })
  try {
    const response = await call(off, accountLinkEndpoints.forgotPassword, { body: { email: uniqueEmail() } })
    expect(response.statusCode).toBe(503)
    expect(errorOf(response)).toContain('cannot send mail')
    const options = await call(off, authEndpoints.options)
    expect(options.json().data.passwordReset).toBe(false)
  } finally {
    await off.close()
  }
})

test('in development without SMTP_URL the mail, with its link, goes to the log', async () => {
  const lines: string[] = []
  const dev = await buildTestApp({
    env: { NODE_ENV: 'development', PUBLIC_URL },
    logger: { level: 'info', stream: { write: (line) => lines.push(line) } },
  })
  try {
    const email = uniqueEmail('devmail')
    await register(dev, email)
    await call(dev, accountLinkEndpoints.forgotPassword, { body: { email } })
    await dev.mailLinks.settled()
    const logged = lines.find((line) => line.includes('"mail.logged"'))
    expect(logged).toContain(`${PUBLIC_URL}/reset-password?token=`)
  } finally {
    await dev.close()
  }
})
