import { MatchersV3 } from '@pact-foundation/pact'
import { expect, test } from 'vitest'
import { createAccountApi } from '#src/api/account.ts'
import { type ApiError, createHttp } from '#src/api/client.ts'
import { createPact } from './pact.ts'

const {
  like,
  uuid,
  iso8601DateTimeWithMillis,
  string,
  boolean,
  integer,
  nullValue,
  eachLike,
  fromProviderState,
} = MatchersV3

const failure = (message: string) => ({ success: false, message: like(message) })
const api = (url: string) => createAccountApi(createHttp({ baseUrl: url }))

test('account answers what Settings shows of the signed-in person', async () => {
  await createPact()
    .addInteraction()
    .given('alice@example.com is signed in')
    .uponReceiving('a request for the signed-in account')
    .withRequest('GET', '/api/v1/auth/account')
    .willRespondWith(200, (b) =>
      b.jsonBody({
        success: true,
        data: {
          email: string('alice@example.com'),
          createdAt: iso8601DateTimeWithMillis('2026-11-22T10:00:00.000Z'),
          hasPassword: boolean(true),
          googleLinked: boolean(false),
        },
      }),
    )
    .executeTest(async (server) => {
      expect((await api(server.url).account()).email).toBe('alice@example.com')
    })
})

test('change-password with a wrong current password is a 400 with a sentence', async () => {
  const body = {
    currentPassword: 'not-her-password',
    password: 'another-password',
    confirmPassword: 'another-password',
  }
  await createPact()
    .addInteraction()
    .given('alice@example.com is signed in')
    .uponReceiving('a password change with a wrong current password')
    .withRequest('POST', '/api/v1/auth/account/password', (b) => b.jsonBody(body))
    .willRespondWith(400, (b) => b.jsonBody(failure('The current password is not right.')))
    .executeTest(async (server) => {
      const error = await api(server.url)
        .changePassword(body)
        .catch((e: unknown) => e)
      expect((error as ApiError).status).toBe(400)
    })
})

test('change-password with the current password signs the other sessions out', async () => {
  const body = {
    currentPassword: 'dora-password',
    password: 'dora-password',
    confirmPassword: 'dora-password',
  }
  await createPact()
    .addInteraction()
    .given('dora@example.com is signed in with password dora-password, and on one other device')
    .uponReceiving('a password change with the right current password')
    .withRequest('POST', '/api/v1/auth/account/password', (b) => b.jsonBody(body))
    .willRespondWith(200, (b) => b.jsonBody({ success: true, data: { signedOut: integer(1) } }))
    .executeTest(async (server) => {
      expect((await api(server.url).changePassword(body)).signedOut).toBe(1)
    })
})

test('sessions lists where the account is signed in', async () => {
  await createPact()
    .addInteraction()
    .given('dora@example.com is signed in with password dora-password, and on one other device')
    .uponReceiving('a request for the sessions')
    .withRequest('GET', '/api/v1/auth/sessions')
    .willRespondWith(200, (b) =>
      b.jsonBody({
        success: true,
        data: {
          sessions: eachLike({
            id: uuid('6f1f2a4e-1111-4c55-8a86-9c2f4b1d2e11'),
            device: string('Chrome on Linux'),
            address: string('127.0.0.1'),
            createdAt: iso8601DateTimeWithMillis('2026-11-22T10:00:00.000Z'),
            lastUsedAt: iso8601DateTimeWithMillis('2026-11-22T10:00:00.000Z'),
            current: boolean(true),
          }),
        },
      }),
    )
    .executeTest(async (server) => {
      expect((await api(server.url).listSessions()).length).toBeGreaterThan(0)
    })
})

test('signing out one other session', async () => {
  await createPact()
    .addInteraction()
    .given('dora@example.com is signed in with password dora-password, and on one other device')
    .uponReceiving('a sign-out of another session')
    .withRequest(
      'DELETE',
      fromProviderState(
        // The provider's state handler names the other device's session (a Pact expression).
        // biome-ignore lint/suspicious/noTemplateCurlyInString: Pact's provider-state placeholder
        '/api/v1/auth/sessions/${otherSessionId}',
        '/api/v1/auth/sessions/6f1f2a4e-2222-4c55-8a86-9c2f4b1d2e11',
      ),
    )
    .willRespondWith(200, (b) => b.jsonBody({ success: true, data: nullValue() }))
    .executeTest(async (server) => {
      await expect(
        api(server.url).revokeSession('6f1f2a4e-2222-4c55-8a86-9c2f4b1d2e11'),
      ).resolves.toBeUndefined()
    })
})

test('signing out a session that is not one of mine is a 404', async () => {
  await createPact()
    .addInteraction()
    .given('alice@example.com is signed in')
    .uponReceiving('a sign-out of an unknown session')
    .withRequest('DELETE', '/api/v1/auth/sessions/00000000-0000-4000-8000-000000000000')
    .willRespondWith(404, (b) => b.jsonBody(failure('That session has ended already.')))
    .executeTest(async (server) => {
      const error = await api(server.url)
        .revokeSession('00000000-0000-4000-8000-000000000000')
        .catch((e: unknown) => e)
      expect((error as ApiError).status).toBe(404)
    })
})

test('signing out every other session', async () => {
  await createPact()
    .addInteraction()
    .given('dora@example.com is signed in with password dora-password, and on one other device')
    .uponReceiving('a sign-out of every other session')
    .withRequest('POST', '/api/v1/auth/sessions/sign-out-others')
    .willRespondWith(200, (b) => b.jsonBody({ success: true, data: { signedOut: integer(1) } }))
    .executeTest(async (server) => {
      expect((await api(server.url).revokeOtherSessions()).signedOut).toBe(1)
    })
})

test('export answers the account as one JSON document', async () => {
  await createPact()
    .addInteraction()
    .given('erin@example.com, a new account, is signed in with one answered chat session')
    .uponReceiving('an export of the account')
    .withRequest('GET', '/api/v1/auth/account/export')
    .willRespondWith(200, (b) =>
      b.jsonBody({
        format: 'docchat-account-export/1',
        exportedAt: iso8601DateTimeWithMillis('2026-11-22T10:00:00.000Z'),
        account: {
          email: string('erin@example.com'),
          createdAt: iso8601DateTimeWithMillis('2026-11-22T10:00:00.000Z'),
          googleLinked: boolean(false),
        },
        conversations: eachLike({
          id: uuid('3f0e8a52-2f8a-4c55-8a86-9c2f4b1d2e11'),
          title: string('Hello'),
          createdAt: iso8601DateTimeWithMillis('2026-11-22T10:00:00.000Z'),
          updatedAt: iso8601DateTimeWithMillis('2026-11-22T10:00:00.000Z'),
          documents: nullValue(),
          messages: eachLike({
            role: string('user'),
            content: string('Hello'),
            createdAt: iso8601DateTimeWithMillis('2026-11-22T10:00:00.000Z'),
            feedback: nullValue(),
            stopped: boolean(false),
            sources: [],
          }),
        }),
        library: like([]),
        googleDrive: { connected: boolean(false), email: nullValue() },
      }),
    )
    .executeTest(async (server) => {
      const data = await api(server.url).exportAccount()
      expect(data.conversations.length).toBeGreaterThan(0)
    })
})

test('delete with the wrong password deletes nothing: 400', async () => {
  await createPact()
    .addInteraction()
    .given('alice@example.com is signed in')
    .uponReceiving('an account deletion with a wrong password')
    .withRequest('POST', '/api/v1/auth/account/delete', (b) => b.jsonBody({ password: 'not-her-password' }))
    .willRespondWith(400, (b) => b.jsonBody(failure('The password is not right, so nothing was deleted.')))
    .executeTest(async (server) => {
      const error = await api(server.url)
        .deleteAccount({ password: 'not-her-password' })
        .catch((e: unknown) => e)
      expect((error as ApiError).status).toBe(400)
    })
})

test('delete with the password deletes the account', async () => {
  await createPact()
    .addInteraction()
    .given('dora@example.com is signed in with password dora-password, and on one other device')
    .uponReceiving('an account deletion with the password')
    .withRequest('POST', '/api/v1/auth/account/delete', (b) => b.jsonBody({ password: 'dora-password' }))
    .willRespondWith(200, (b) => b.jsonBody({ success: true, data: nullValue() }))
    .executeTest(async (server) => {
      await expect(api(server.url).deleteAccount({ password: 'dora-password' })).resolves.toBeUndefined()
    })
})
