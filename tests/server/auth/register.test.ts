import { afterAll, beforeAll, expect, test } from 'vitest'
import { authEndpoints, UserPayloadSchema } from '#contracts/auth.ts'
import { ErrorEnvelopeSchema } from '#contracts/endpoint.ts'
import type { App } from '#server/app.ts'
import { buildTestApp, TEST_PASSWORD, uniqueEmail } from '../support/helper.ts'

const { register } = authEndpoints
let app: App

beforeAll(async () => {
  app = await buildTestApp()
})
afterAll(async () => {
  await app.close()
})

function post(payload: unknown) {
  return app.inject({ method: register.method, url: register.path, payload: payload as object })
}

function errorOf(response: { json: () => unknown }) {
  return ErrorEnvelopeSchema.parse(response.json()).message
}

test('sign-up answers 201 with the user (id, email as typed, creation time) and sets no cookie', async () => {
  const email = uniqueEmail('New.Person')
  const response = await post({ email, password: TEST_PASSWORD, confirmPassword: TEST_PASSWORD })
  expect(response.statusCode).toBe(201)
  const { user } = UserPayloadSchema.parse(response.json()).data
  expect(user.email).toBe(email)
  expect(user._id).toMatch(/^[0-9a-f-]{36}$/)
  expect(Number.isNaN(Date.parse(user.createdAt))).toBe(false)
  expect(response.headers['set-cookie']).toBeUndefined()
})

test('the sign-up answer carries no password hash and nothing beyond the user fields', async () => {
  const response = await post({
    email: uniqueEmail(),
    password: TEST_PASSWORD,
    confirmPassword: TEST_PASSWORD,
  })
  expect(response.body).not.toContain('argon2')
  expect(response.body).not.toContain(TEST_PASSWORD)
  const body = response.json() as { data: { user: Record<string, unknown> } }
  expect(Object.keys(body.data.user).sort()).toEqual(['_id', 'createdAt', 'email'])
})

test('an email is stored trimmed', async () => {
  const email = uniqueEmail()
  const response = await post({
    email: `  ${email} `,
    password: TEST_PASSWORD,
    confirmPassword: TEST_PASSWORD,
  })
  expect(UserPayloadSchema.parse(response.json()).data.user.email).toBe(email)
})

test('a taken email answers 409 "An account with this email already exists."', async () => {
  const email = uniqueEmail()
  await post({ email, password: TEST_PASSWORD, confirmPassword: TEST_PASSWORD })
  const again = await post({ email, password: 'another password', confirmPassword: 'another password' })
  expect(again.statusCode).toBe(409)
  expect(errorOf(again)).toBe('An account with this email already exists.')
})

test('the same email in another letter case is taken too', async () => {
  const email = uniqueEmail('casey')
  await post({ email, password: TEST_PASSWORD, confirmPassword: TEST_PASSWORD })
  const upper = await post({
    email: email.toUpperCase(),
    password: TEST_PASSWORD,
    confirmPassword: TEST_PASSWORD,
  })
  expect(upper.statusCode).toBe(409)
  expect(errorOf(upper)).toBe('An account with this email already exists.')
})

test('two sign-ups racing for one email: one 201, one 409', async () => {
  const email = uniqueEmail('race')
  const body = { email, password: TEST_PASSWORD, confirmPassword: TEST_PASSWORD }
  const statuses = (await Promise.all([post(body), post({ ...body, email: email.toUpperCase() })])).map(
    (r) => r.statusCode,
  )
  expect(statuses.sort()).toEqual([201, 409])
})

test.each([
  ['no email', { password: 'secret1', confirmPassword: 'secret1' }, 'Email is required'],
  ['an empty email', { email: '', password: 'secret1', confirmPassword: 'secret1' }, 'Email is required'],
  [
    'a malformed email',
    { email: 'not-an-email', password: 'secret1', confirmPassword: 'secret1' },
    'Invalid email',
  ],
  ['no password', { email: 'a@example.com', confirmPassword: 'secret1' }, 'Password is required'],
  [
    'an empty password',
    { email: 'a@example.com', password: '', confirmPassword: '' },
    'Password is required',
  ],
  [
    'a 5-character password',
    { email: 'a@example.com', password: '12345', confirmPassword: '12345' },
    'Password must be at least 6 characters',
  ],
  ['no confirmation', { email: 'a@example.com', password: 'secret1' }, 'Confirm Password is required'],
  [
    'an empty confirmation',
    { email: 'a@example.com', password: 'secret1', confirmPassword: '' },
    'Confirm Password is required',
  ],
  [
    'a confirmation that differs',
    { email: 'a@example.com', password: 'secret1', confirmPassword: 'secret2' },
    'Passwords must match',
  ],
  [
    'a 257-character password',
    { email: 'a@example.com', password: 'x'.repeat(257), confirmPassword: 'x'.repeat(257) },
    'Password is too long',
  ],
])('sign-up with %s answers 400 "%s"', async (_case, payload, message) => {
  const response = await post(payload)
  expect(response.statusCode).toBe(400)
  expect(errorOf(response)).toBe(message)
})

test('an unknown field answers 400 and creates no account', async () => {
  const email = uniqueEmail()
  const response = await post({
    email,
    password: TEST_PASSWORD,
    confirmPassword: TEST_PASSWORD,
    isAdmin: true,
  })
  expect(response.statusCode).toBe(400)
  expect(errorOf(response)).toBe('Unknown field: isAdmin')
  const retry = await post({ email, password: TEST_PASSWORD, confirmPassword: TEST_PASSWORD })
  expect(retry.statusCode).toBe(201)
})

test('a body that is not an object answers 400', async () => {
  for (const payload of [[1, 2], 'text', null]) {
    const response = await app.inject({
      method: 'POST',
      url: register.path,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(payload),
    })
    expect(response.statusCode).toBe(400)
    expect(errorOf(response)).toBe('The request body must be a JSON object')
  }
})

test('a sign-up with no body at all answers 400, not 500', async () => {
  const response = await app.inject({ method: 'POST', url: register.path })
  expect(response.statusCode).toBe(400)
  expect(errorOf(response)).toBe('The request body must be a JSON object')
})
