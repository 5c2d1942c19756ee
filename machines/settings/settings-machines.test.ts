import { expect, test, vi } from 'vitest'
import { createActor, waitFor } from 'xstate'
import type { Account, AccountExport, Session } from '#contracts/account.ts'
import {
  ACCOUNT_DATA_ERRORS,
  type AccountDataDeps,
  provideAccountDataMachine,
} from './account-data-machine.ts'
import { provideChangePasswordMachine } from './change-password-machine.ts'
import { provideSessionsMachine, SESSIONS_ERRORS } from './sessions-machine.ts'

function httpError(status: number, message = `HTTP ${status}`): Error & { status: number } {
  return Object.assign(new Error(message), { status })
}

const session = (id: string, current = false): Session => ({
  id,
  device: 'Firefox on Linux',
  address: '192.0.2.1',
  createdAt: '2026-01-01T00:00:00.000Z',
  lastUsedAt: '2026-01-01T00:00:00.000Z',
  current,
})
const account: Account = {
  email: 'ada@example.com',
  createdAt: '2026-01-01T00:00:00.000Z',
  hasPassword: true,
  googleLinked: false,
}
const change = { currentPassword: 'old password', password: 'new password', confirmPassword: 'new password' }

test('changing the password reports how many other sessions were signed out', async () => {
  const actor = createActor(
    provideChangePasswordMachine({ changePassword: vi.fn().mockResolvedValue({ signedOut: 2 }) }),
  ).start()
  actor.send({ type: 'password.submit', request: change })
  const changed = await waitFor(actor, (s) => s.hasTag('changed'))
  expect(changed.context.signedOut).toBe(2)
})

test('a wrong current password shows the server’s sentence and stays editable', async () => {
  const actor = createActor(
    provideChangePasswordMachine({
      changePassword: vi.fn().mockRejectedValue(httpError(400, 'The current password is not right.')),
    }),
  ).start()
  actor.send({ type: 'password.submit', request: change })
  const back = await waitFor(actor, (s) => s.value === 'idle')
  expect(back.context.error).toBe('The current password is not right.')
})

test('signing out a session reads the list again', async () => {
  const listSessions = vi
    .fn<() => Promise<Session[]>>()
    .mockResolvedValueOnce([session('here', true), session('laptop')])
    .mockResolvedValueOnce([session('here', true)])
  const revokeSession = vi.fn().mockResolvedValue(undefined)
  const actor = createActor(
    provideSessionsMachine({ listSessions, revokeSession, revokeOtherSessions: vi.fn() }),
  ).start()
  await waitFor(actor, (s) => s.value === 'ready')
  actor.send({ type: 'sessions.revoke', id: 'laptop' })
  expect(actor.getSnapshot().hasTag('busy')).toBe(true)
  const after = await waitFor(actor, (s) => s.value === 'ready' && s.context.sessions.length === 1)
  expect(revokeSession).toHaveBeenCalledWith('laptop')
  expect(after.context.error).toBeNull()
})

test('every other session, and a failure that keeps the list with a sentence', async () => {
  const listSessions = vi
    .fn<() => Promise<Session[]>>()
    .mockResolvedValue([session('here', true), session('b')])
  const revokeOtherSessions = vi.fn().mockRejectedValue(httpError(500))
  const actor = createActor(
    provideSessionsMachine({ listSessions, revokeSession: vi.fn(), revokeOtherSessions }),
  ).start()
  await waitFor(actor, (s) => s.value === 'ready')
  actor.send({ type: 'sessions.revokeOthers' })
  const after = await waitFor(actor, (s) => s.value === 'ready' && listSessions.mock.calls.length === 2)
  expect(after.context.error).toBe(SESSIONS_ERRORS.revoke)
})

function accountData(overrides: Partial<AccountDataDeps> = {}) {
  const deps: AccountDataDeps = {
    account: vi.fn().mockResolvedValue(account),
    exportAccount: vi.fn().mockResolvedValue({ format: 'docchat-account-export/1' } as AccountExport),
    deleteAccount: vi.fn().mockResolvedValue(undefined),
    saveFile: vi.fn(),
    onDeleted: vi.fn(),
    ...overrides,
  }
  return { deps, actor: createActor(provideAccountDataMachine(deps)).start() }
}

test('export hands the file over to be saved', async () => {
  const { deps, actor } = accountData()
  await waitFor(actor, (s) => s.value === 'ready')
  actor.send({ type: 'account.export' })
  await waitFor(actor, (s) => s.value === 'ready' && !s.hasTag('busy'))
  expect(deps.saveFile).toHaveBeenCalledWith({ format: 'docchat-account-export/1' })
})

test('deletion with the password ends in deleted and tells the app', async () => {
  const { deps, actor } = accountData()
  await waitFor(actor, (s) => s.value === 'ready')
  actor.send({ type: 'account.delete', confirmation: { password: 'secret' } })
  await waitFor(actor, (s) => s.status === 'done')
  expect(deps.deleteAccount).toHaveBeenCalledWith({ password: 'secret' })
  expect(deps.onDeleted).toHaveBeenCalledTimes(1)
})

test('a refused deletion says why and deletes nothing', async () => {
  const { deps, actor } = accountData({
    deleteAccount: vi
      .fn()
      .mockRejectedValue(httpError(400, 'The password is not right, so nothing was deleted.')),
  })
  await waitFor(actor, (s) => s.value === 'ready')
  actor.send({ type: 'account.delete', confirmation: { password: 'wrong' } })
  const back = await waitFor(actor, (s) => s.value === 'ready' && s.context.error !== null)
  expect(back.context.error).toBe('The password is not right, so nothing was deleted.')
  expect(deps.onDeleted).not.toHaveBeenCalled()
  const { actor: broken } = accountData({ account: vi.fn().mockRejectedValue(httpError(500)) })
  expect((await waitFor(broken, (s) => s.value === 'failed')).context.error).toBe(ACCOUNT_DATA_ERRORS.load)
})
