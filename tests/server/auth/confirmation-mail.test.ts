/**
 * D100, EMAIL_VERIFICATION=required: an address gets at most 3 confirmation mails an hour
 * (sign-up, then each sign-in refused for want of confirmation), and the refusal reads the same
 * whether or not it mailed one; every unexpired link mailed for the address confirms it, once
 * each, so a person who opens an older mail after signing in is not told it does not work.
 */
import { afterAll, beforeAll, expect, test } from 'vitest'
import { accountLinkEndpoints } from '#contracts/account-links.ts'
import { authEndpoints } from '#contracts/auth.ts'
import type { App } from '#server/app.ts'
import { DEFAULT_AUTH_RATE_LIMITS } from '#server/auth/rate-limits.ts'
import { createSmtpCapture, linkIn, type SmtpCapture } from '#tests/fakes/smtp/smtp-capture.ts'
import { call, errorOf } from '../support/chat-helpers.ts'
import { buildTestApp, register, signIn, TEST_PASSWORD, uniqueEmail } from '../support/helper.ts'

const PUBLIC_URL = 'http://127.0.0.1:3997'
const HOUR = 60 * 60_000
let smtp: SmtpCapture
let app: App
let clock = Date.now()

beforeAll(async () => {
  smtp = await createSmtpCapture()
  app = await buildTestApp({
    env: { EMAIL_VERIFICATION: 'required', SMTP_URL: smtp.url, PUBLIC_URL },
    now: () => new Date(clock),
    rateLimits: { confirmationMailPerAccount: DEFAULT_AUTH_RATE_LIMITS.confirmationMailPerAccount },
  })
})
afterAll(async () => {
  await app?.close()
  await smtp?.close()
})

const mailsTo = (email: string) => smtp.messages.filter((m) => m.to.includes(email))
const tokenIn = (mail: (typeof smtp.messages)[number]) =>
  new URL(linkIn(mail, `${PUBLIC_URL}/confirm-email?token=`)).searchParams.get('token') ?? ''
const confirm = (token: string) => call(app, accountLinkEndpoints.confirmEmail, { body: { token } })

/** A sign-in refused for want of confirmation: its sentence. Mail is sent before the answer. */
async function refusedSignIn(email: string): Promise<string> {
  const response = await call(app, authEndpoints.login, { body: { email, password: TEST_PASSWORD } })
  expect(response.statusCode).toBe(403)
  return errorOf(response)
}

test('the 4th confirmation mail within an hour is not sent, the answer is the same, and the allowance returns', async () => {
  const email = uniqueEmail('flood')
  await register(app, email)
  const answers = [await refusedSignIn(email), await refusedSignIn(email)]
  expect(mailsTo(email)).toHaveLength(3)
  answers.push(await refusedSignIn(email), await refusedSignIn(email))
  expect(mailsTo(email)).toHaveLength(3)
  expect(new Set(answers).size).toBe(1)
  expect(answers[0]).toMatch(/^Confirm your email address first/)

  clock += HOUR + 1000
  await refusedSignIn(email)
  expect(mailsTo(email)).toHaveLength(4)
})

test('an older unexpired confirmation link still confirms after a newer one was mailed, once', async () => {
  const email = uniqueEmail('older')
  await register(app, email)
  await refusedSignIn(email)
  const [older, newer] = mailsTo(email)
  if (!older || !newer) throw new Error('expected two confirmation mails')
  clock += HOUR

  expect((await confirm(tokenIn(older))).statusCode).toBe(200)
  expect((await signIn(app, email)).user.email).toBe(email)
  const used = await confirm(tokenIn(older))
  expect(used.statusCode).toBe(400)
  expect(errorOf(used)).toMatch(/^This confirmation link does not work/)
  // The newer link, mailed for the same address, works once too.
  expect((await confirm(tokenIn(newer))).statusCode).toBe(200)
  expect((await confirm(tokenIn(newer))).statusCode).toBe(400)
})

test('a confirmation link stops working after 48 hours', async () => {
  const email = uniqueEmail('expired')
  await register(app, email)
  const [mail] = mailsTo(email)
  if (!mail) throw new Error('expected a confirmation mail')
  clock += 48 * HOUR + 1000
  expect((await confirm(tokenIn(mail))).statusCode).toBe(400)
})
