import { expect, test, vi } from 'vitest'
import { createActor, waitFor } from 'xstate'
import type { RegisterRequest, User } from '#contracts/auth.ts'
import { provideRegisterMachine, REGISTER_ERRORS, type RegisterDeps } from './register-machine.ts'

const ada: User = { _id: 'u1', email: 'ada@example.com', createdAt: '2026-01-01T00:00:00.000Z' }
const account: RegisterRequest = { email: 'ada@example.com', password: 'secret1', confirmPassword: 'secret1' }

function httpError(status: number, message = `HTTP ${status}`): Error & { status: number } {
  return Object.assign(new Error(message), { status })
}

async function submitWith(register: RegisterDeps['register']) {
  const onRegistered = vi.fn()
  const actor = createActor(provideRegisterMachine({ register, onRegistered })).start()
  actor.send({ type: 'register.submit', account })
  const busy = actor.getSnapshot().hasTag('busy')
  const snapshot = await waitFor(actor, (s) => !s.hasTag('busy'))
  return { snapshot, busy, onRegistered }
}

test('is busy while submitting and reports the new user', async () => {
  const register = vi.fn<RegisterDeps['register']>().mockResolvedValue(ada)

  const { snapshot, busy, onRegistered } = await submitWith(register)

  expect(busy).toBe(true)
  expect(register).toHaveBeenCalledWith(account)
  expect(onRegistered).toHaveBeenCalledWith(ada)
  expect(snapshot.status).toBe('done')
})

test('a 409 answer says the email is taken', async () => {
  const { snapshot, onRegistered } = await submitWith(vi.fn().mockRejectedValue(httpError(409)))

  expect(snapshot.context.error).toBe('An account with this email already exists.')
  expect(onRegistered).not.toHaveBeenCalled()
})

test.each([
  ['a 400 answer', httpError(400)],
  ['a 500 answer', httpError(500)],
  ['a network error', httpError(0)],
])('%s reads "Failed to create account"', async (_, error) => {
  const { snapshot } = await submitWith(vi.fn().mockRejectedValue(error))

  expect(snapshot.context.error).toBe(REGISTER_ERRORS.failed)
  expect(snapshot.value).toBe('idle')
})

test('a 429 answer passes the server\'s "Too many attempts…" sentence on', async () => {
  const tooMany = httpError(429, 'Too many attempts. Try again in 15 minutes.')

  const { snapshot, onRegistered } = await submitWith(vi.fn().mockRejectedValue(tooMany))

  expect(snapshot.context.error).toBe('Too many attempts. Try again in 15 minutes.')
  expect(onRegistered).not.toHaveBeenCalled()
})

test('a 429 answer without a sentence still says to wait', async () => {
  const { snapshot } = await submitWith(vi.fn().mockRejectedValue(httpError(429, '')))

  expect(snapshot.context.error).toBe(REGISTER_ERRORS.tooManyAttempts)
})
