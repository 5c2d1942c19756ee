import { expect, test, vi } from 'vitest'
import { createActor, waitFor } from 'xstate'
import type { LoginRequest, User } from '#contracts/auth.ts'
import { LOGIN_ERRORS, type LoginDeps, provideLoginMachine } from './login-machine.ts'

const ada: User = { _id: 'u1', email: 'ada@example.com', createdAt: '2026-01-01T00:00:00.000Z' }
const credentials: LoginRequest = { email: 'ada@example.com', password: 'correct horse' }

function httpError(status: number, message = `HTTP ${status}`): Error & { status: number } {
  return Object.assign(new Error(message), { status })
}

async function submitWith(login: LoginDeps['login']) {
  const onSignedIn = vi.fn()
  const actor = createActor(provideLoginMachine({ login, onSignedIn })).start()
  actor.send({ type: 'login.submit', credentials })
  const busy = actor.getSnapshot().hasTag('busy')
  const snapshot = await waitFor(actor, (s) => !s.hasTag('busy'))
  return { snapshot, busy, onSignedIn }
}

test('is busy while submitting and reports the signed-in user', async () => {
  const login = vi.fn<LoginDeps['login']>().mockResolvedValue(ada)

  const { snapshot, busy, onSignedIn } = await submitWith(login)

  expect(busy).toBe(true)
  expect(login).toHaveBeenCalledWith(credentials)
  expect(onSignedIn).toHaveBeenCalledWith(ada)
  expect(snapshot.status).toBe('done')
})

test.each([400, 401])('a %i answer reads "Invalid email or password"', async (status) => {
  const { snapshot, onSignedIn } = await submitWith(vi.fn().mockRejectedValue(httpError(status)))

  expect(snapshot.context.error).toBe(LOGIN_ERRORS.invalidCredentials)
  expect(snapshot.value).toBe('idle')
  expect(onSignedIn).not.toHaveBeenCalled()
})

test('a 429 answer shows the server message', async () => {
  const message = 'Too many attempts. Try again in 15 minutes.'

  const { snapshot } = await submitWith(vi.fn().mockRejectedValue(httpError(429, message)))

  expect(snapshot.context.error).toBe(message)
})

test.each([
  ['a network error', httpError(0, 'Failed to fetch')],
  ['a 500 answer', httpError(500)],
  ['an error without a status', new Error('boom')],
])('%s reads "Something went wrong"', async (_, error) => {
  const { snapshot } = await submitWith(vi.fn().mockRejectedValue(error))

  expect(snapshot.context.error).toBe('Something went wrong. Please try again later.')
})

test('a new attempt clears the previous error', async () => {
  const login = vi.fn<LoginDeps['login']>().mockRejectedValueOnce(httpError(401)).mockResolvedValue(ada)
  const actor = createActor(provideLoginMachine({ login, onSignedIn: vi.fn() })).start()
  actor.send({ type: 'login.submit', credentials })
  await waitFor(actor, (s) => s.context.error !== null)

  actor.send({ type: 'login.submit', credentials })

  expect(actor.getSnapshot().context.error).toBeNull()
})

test('a 403 (a disabled or unconfirmed account, with the right password) shows the server’s reason', async () => {
  const reason = 'This account is disabled. Ask the operator of this server.'
  const { snapshot } = await submitWith(vi.fn().mockRejectedValue(httpError(403, reason)))
  expect(snapshot.context.error).toBe(reason)
})
