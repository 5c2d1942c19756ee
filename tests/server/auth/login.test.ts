import { afterAll, beforeAll, expect, test } from 'vitest'
import { authEndpoints, UserPayloadSchema } from '#contracts/auth.ts'
import { ErrorEnvelopeSchema } from '#contracts/endpoint.ts'
import type { App } from '#server/app.ts'
import { createUsersRepository } from '#server/auth/users-repository.ts'
import { buildTestApp, register, TEST_PASSWORD, uniqueEmail } from '../support/helper.ts'

const { login } = authEndpoints
let app: App

beforeAll(async () => {
  app = await buildTestApp()
})
afterAll(async () => {
  await app.close()
})

function post(payload: object, target = app) {
  return target.inject({ method: login.method, url: login.path, payload })
}

test('sign-in answers 200 with the user and sets both session cookies', async () => {
  const email = uniqueEmail()
  const registered = await register(app, email)
  const response = await post({ email, password: TEST_PASSWORD })
  expect(response.statusCode).toBe(200)
  expect(UserPayloadSchema.parse(response.json()).data.user).toEqual(registered)
  expect(response.cookies.map((c) => c.name).sort()).toEqual(['docchat_access', 'docchat_refresh'])
})

test('the session cookies are HttpOnly, SameSite=Lax, scoped to /api and /api/v1/auth, not Secure on http', async () => {
  const email = uniqueEmail()
  await register(app, email)
  const response = await post({ email, password: TEST_PASSWORD })
  const raw = response.headers['set-cookie'] as string[]
  const access = raw.find((c) => c.startsWith('docchat_access='))
  const refresh = raw.find((c) => c.startsWith('docchat_refresh='))
  expect(access).toMatch(/; HttpOnly/)
  expect(access).toMatch(/; SameSite=Lax/)
  expect(access).toMatch(/; Path=\/api(;|$)/)
  expect(access).not.toMatch(/; Secure/)
  expect(refresh).toMatch(/; HttpOnly/)
  expect(refresh).toMatch(/; SameSite=Lax/)
  expect(refresh).toMatch(/; Path=\/api\/v1\/auth(;|$)/)
  expect(refresh).not.toMatch(/; Secure/)
})

test('the access cookie lasts 15 minutes and the refresh cookie 7 days', async () => {
  const email = uniqueEmail()
  await register(app, email)
  const response = await post({ email, password: TEST_PASSWORD })
  const byName = new Map(response.cookies.map((c) => [c.name, c]))
  // Lifetimes, not instants: the browser counts them on its own clock.
  expect(byName.get('docchat_access')?.maxAge).toBe(15 * 60)
  expect(byName.get('docchat_refresh')?.maxAge).toBe(7 * 24 * 60 * 60)
  expect(byName.get('docchat_access')?.expires).toBeUndefined()
})

test('with an https PUBLIC_URL both session cookies are Secure', async () => {
  const secureApp = await buildTestApp({ env: { PUBLIC_URL: 'https://docchat.example.com' } })
  try {
    const email = uniqueEmail()
    await register(secureApp, email)
    const response = await post({ email, password: TEST_PASSWORD }, secureApp)
    const raw = response.headers['set-cookie'] as string[]
    expect(raw).toHaveLength(2)
    for (const cookie of raw) expect(cookie).toMatch(/; Secure/)
  } finally {
    await secureApp.close()
  }
})

test('sign-in ignores the letter case of the email', async () => {
  const email = uniqueEmail('MixedCase')
  await register(app, email)
  const response = await post({ email: email.toLowerCase(), password: TEST_PASSWORD })
  expect(response.statusCode).toBe(200)
  expect(UserPayloadSchema.parse(response.json()).data.user.email).toBe(email)
})

test('a wrong password answers 401 "Invalid email or password" and sets no cookie', async () => {
  const email = uniqueEmail()
  await register(app, email)
  const response = await post({ email, password: 'wrong password' })
  expect(response.statusCode).toBe(401)
  expect(ErrorEnvelopeSchema.parse(response.json()).message).toBe('Invalid email or password')
  expect(response.headers['set-cookie']).toBeUndefined()
})

test('an unknown email and a wrong password get the same status and the same body', async () => {
  const email = uniqueEmail()
  await register(app, email)
  const wrongPassword = await post({ email, password: 'wrong password' })
  const unknownEmail = await post({ email: uniqueEmail('nobody'), password: 'wrong password' })
  expect(unknownEmail.statusCode).toBe(wrongPassword.statusCode)
  expect(unknownEmail.body).toBe(wrongPassword.body)
  expect(unknownEmail.headers['set-cookie']).toBe(wrongPassword.headers['set-cookie'])
})

test('an unknown email still costs an argon2 verify, so timing does not tell who has an account', async () => {
  const email = uniqueEmail()
  await register(app, email)
  const median = async (payload: object) => {
    const times: number[] = []
    for (let i = 0; i < 5; i++) {
      const start = performance.now()
      await post(payload)
      times.push(performance.now() - start)
    }
    return times.sort((a, b) => a - b)[2] ?? 0
  }
  const wrongPassword = await median({ email, password: 'wrong password' })
  const unknownEmail = await median({ email: uniqueEmail('nobody'), password: 'wrong password' })
  // Without the dummy verify the unknown email answers ~15x faster (no argon2 at all).
  expect(unknownEmail / wrongPassword).toBeGreaterThan(0.5)
})

test('passwords are stored as argon2id with m=19456, t=2, p=1', async () => {
  const email = uniqueEmail()
  await register(app, email)
  const record = await createUsersRepository(app.db).findByEmail(email)
  expect(record?.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/)
})

test.each([
  ['no email', { password: 'x' }, 'Email is required'],
  ['a malformed email', { email: 'nope', password: 'x' }, 'Invalid email'],
  ['no password', { email: 'a@example.com' }, 'Password is required'],
  ['an empty password', { email: 'a@example.com', password: '' }, 'Password is required'],
  ['an unknown field', { email: 'a@example.com', password: 'x', remember: true }, 'Unknown field: remember'],
])('sign-in with %s answers 400 "%s"', async (_case, payload, message) => {
  const response = await post(payload)
  expect(response.statusCode).toBe(400)
  expect(ErrorEnvelopeSchema.parse(response.json()).message).toBe(message)
})
