import { MatchersV3 } from '@pact-foundation/pact'
import { expect, test } from 'vitest'
import { createAccountLinksApi } from '#src/api/account-links.ts'
import { createAuthApi } from '#src/api/auth.ts'
import { ApiError, createHttp } from '#src/api/client.ts'
import { createPact } from './pact.ts'

const { like, uuid, iso8601DateTimeWithMillis, string, nullValue, boolean, regex } = MatchersV3

// Matchers, not values: the provider picks ids and times; the consumer only needs their shape.
const userMatcher = (email: string) => ({
  _id: uuid('3f0e8a52-2f8a-4c55-8a86-9c2f4b1d2e11'),
  email: string(email),
  createdAt: iso8601DateTimeWithMillis('2026-11-22T10:00:00.000Z'),
})

const failure = (message: string) => ({ success: false, message: like(message) })

function api(url: string) {
  return createAuthApi(createHttp({ baseUrl: url }))
}

function linksApi(url: string) {
  return createAccountLinksApi(createHttp({ baseUrl: url }))
}

test('register creates an account and answers with the user', async () => {
  const body = { email: 'new@example.com', password: 'secret-password', confirmPassword: 'secret-password' }
  await createPact()
    .addInteraction()
    .given('no account exists for new@example.com')
    .uponReceiving('a sign-up with a new email')
    .withRequest('POST', '/api/v1/auth/register', (b) => b.jsonBody(body))
    .willRespondWith(201, (b) =>
      b.jsonBody({ success: true, data: { user: userMatcher('new@example.com') } }),
    )
    .executeTest(async (server) => {
      const user = await api(server.url).register(body)
      expect(user.email).toBe('new@example.com')
    })
})

test('register with a taken email is refused with 409', async () => {
  const body = { email: 'taken@example.com', password: 'secret-password', confirmPassword: 'secret-password' }
  await createPact()
    .addInteraction()
    .given('an account exists for taken@example.com')
    .uponReceiving('a sign-up with an email that is taken')
    .withRequest('POST', '/api/v1/auth/register', (b) => b.jsonBody(body))
    .willRespondWith(409, (b) => b.jsonBody(failure('An account with this email already exists.')))
    .executeTest(async (server) => {
      const error = await api(server.url)
        .register(body)
        .catch((e: unknown) => e)
      expect(error).toBeInstanceOf(ApiError)
      expect((error as ApiError).status).toBe(409)
    })
})

test('login with the right password answers with the user', async () => {
  const body = { email: 'alice@example.com', password: 'alice-password' }
  await createPact()
    .addInteraction()
    .given('an account exists for alice@example.com with password alice-password')
    .uponReceiving('a sign-in with the right password')
    .withRequest('POST', '/api/v1/auth/login', (b) => b.jsonBody(body))
    .willRespondWith(200, (b) =>
      b.jsonBody({ success: true, data: { user: userMatcher('alice@example.com') } }),
    )
    .executeTest(async (server) => {
      const user = await api(server.url).login(body)
      expect(user.email).toBe('alice@example.com')
    })
})

test('login with a wrong password is refused with 401 and the spec message', async () => {
  const body = { email: 'alice@example.com', password: 'not-her-password' }
  await createPact()
    .addInteraction()
    .given('an account exists for alice@example.com with password alice-password')
    .uponReceiving('a sign-in with a wrong password')
    .withRequest('POST', '/api/v1/auth/login', (b) => b.jsonBody(body))
    .willRespondWith(401, (b) =>
      // The exact text matters here: it is what a person reads (product §8).
      b.jsonBody({ success: false, message: 'Invalid email or password' }),
    )
    .executeTest(async (server) => {
      const error = await api(server.url)
        .login(body)
        .catch((e: unknown) => e)
      expect((error as ApiError).status).toBe(401)
      expect((error as ApiError).message).toBe('Invalid email or password')
    })
})

test('me answers the signed-in user', async () => {
  await createPact()
    .addInteraction()
    .given('alice@example.com is signed in')
    .uponReceiving('a request for the current user with a session')
    .withRequest('GET', '/api/v1/auth/me')
    .willRespondWith(200, (b) => b.jsonBody({ success: true, data: userMatcher('alice@example.com') }))
    .executeTest(async (server) => {
      const user = await api(server.url).fetchMe()
      expect(user.email).toBe('alice@example.com')
    })
})

test('me without a session is 401', async () => {
  await createPact()
    .addInteraction()
    .given('nobody is signed in')
    .uponReceiving('a request for the current user without a session')
    .withRequest('GET', '/api/v1/auth/me')
    .willRespondWith(401, (b) => b.jsonBody(failure('Not signed in')))
    .executeTest(async (server) => {
      const error = await api(server.url)
        .fetchMe()
        .catch((e: unknown) => e)
      expect((error as ApiError).status).toBe(401)
    })
})

test('refresh-token renews a live session', async () => {
  await createPact()
    .addInteraction()
    .given('alice@example.com holds a live refresh token')
    .uponReceiving('a token refresh with a live refresh token')
    .withRequest('POST', '/api/v1/auth/refresh-token')
    .willRespondWith(200, (b) =>
      b.jsonBody({ success: true, data: { user: userMatcher('alice@example.com') } }),
    )
    .executeTest(async (server) => {
      await expect(api(server.url).refreshToken()).resolves.toBeUndefined()
    })
})

test('refresh-token without a refresh token is 401', async () => {
  await createPact()
    .addInteraction()
    .given('nobody is signed in')
    .uponReceiving('a token refresh without a refresh token')
    .withRequest('POST', '/api/v1/auth/refresh-token')
    .willRespondWith(401, (b) => b.jsonBody(failure('Your session has expired.')))
    .executeTest(async (server) => {
      const error = await api(server.url)
        .refreshToken()
        .catch((e: unknown) => e)
      expect((error as ApiError).status).toBe(401)
    })
})

test('logout ends the session', async () => {
  await createPact()
    .addInteraction()
    .given('alice@example.com is signed in')
    .uponReceiving('a logout with a session')
    .withRequest('POST', '/api/v1/auth/logout')
    .willRespondWith(200, (b) => b.jsonBody({ success: true, data: nullValue() }))
    .executeTest(async (server) => {
      await expect(api(server.url).logout()).resolves.toBeUndefined()
    })
})

test('options say what the account screens offer on this server', async () => {
  await createPact()
    .addInteraction()
    .given('nobody is signed in')
    .uponReceiving('a request for the account screens’ options')
    .withRequest('GET', '/api/v1/auth/options')
    .willRespondWith(200, (b) =>
      b.jsonBody({
        success: true,
        data: {
          google: boolean(true),
          passwordReset: boolean(true),
          signup: regex('open|domains|closed', 'open'),
          emailVerification: boolean(false),
        },
      }),
    )
    .executeTest(async (server) => {
      const options = await api(server.url).options()
      expect(options.signup).toBe('open')
    })
})

test('forgot-password answers the same null for any well-formed email', async () => {
  await createPact()
    .addInteraction()
    .given('no account exists for new@example.com')
    .uponReceiving('a reset link asked for an email without an account')
    .withRequest('POST', '/api/v1/auth/forgot-password', (b) => b.jsonBody({ email: 'new@example.com' }))
    .willRespondWith(200, (b) => b.jsonBody({ success: true, data: nullValue() }))
    .executeTest(async (server) => {
      await expect(linksApi(server.url).forgotPassword('new@example.com')).resolves.toBeUndefined()
    })
})

test('reset-password with a link that does not work is a 400 with a sentence', async () => {
  const body = { token: 'A'.repeat(43), password: 'new-password', confirmPassword: 'new-password' }
  await createPact()
    .addInteraction()
    .given('nobody is signed in')
    .uponReceiving('a new password with an unknown reset link')
    .withRequest('POST', '/api/v1/auth/reset-password', (b) => b.jsonBody(body))
    .willRespondWith(400, (b) => b.jsonBody(failure('This reset link does not work.')))
    .executeTest(async (server) => {
      const error = await linksApi(server.url)
        .resetPassword(body)
        .catch((e: unknown) => e)
      expect((error as ApiError).status).toBe(400)
    })
})

test('confirm-email with a link that does not work is a 400 with a sentence', async () => {
  await createPact()
    .addInteraction()
    .given('nobody is signed in')
    .uponReceiving('an email confirmation with an unknown link')
    .withRequest('POST', '/api/v1/auth/confirm-email', (b) => b.jsonBody({ token: 'B'.repeat(43) }))
    .willRespondWith(400, (b) => b.jsonBody(failure('This confirmation link does not work.')))
    .executeTest(async (server) => {
      const error = await linksApi(server.url)
        .confirmEmail('B'.repeat(43))
        .catch((e: unknown) => e)
      expect((error as ApiError).status).toBe(400)
    })
})
