import { expect, test, vi } from 'vitest'
import { createActor, toPromise } from 'xstate'
import type { User } from '#contracts/auth.ts'
import { MAX_REFRESH_ATTEMPTS, provideSessionMachine, type SessionDeps } from './session-machine.ts'

const ada: User = { _id: 'u1', email: 'ada@example.com', createdAt: '2026-01-01T00:00:00.000Z' }

function httpError(status: number): Error & { status: number } {
  return Object.assign(new Error(`HTTP ${status}`), { status })
}

function fakeDeps(overrides: Partial<SessionDeps> = {}) {
  return {
    fetchMe: vi.fn<SessionDeps['fetchMe']>().mockResolvedValue(ada),
    refreshToken: vi.fn<SessionDeps['refreshToken']>().mockResolvedValue(undefined),
    log: { error: vi.fn(), warn: vi.fn() },
    ...overrides,
  }
}

function runCheck(deps: SessionDeps) {
  return toPromise(createActor(provideSessionMachine(deps)).start())
}

test('a valid session yields the current user without refreshing', async () => {
  const deps = fakeDeps()

  await expect(runCheck(deps)).resolves.toEqual(ada)
  expect(deps.refreshToken).not.toHaveBeenCalled()
})

test('gives up with no user after three failed refreshes', async () => {
  const deps = fakeDeps({
    fetchMe: vi.fn().mockRejectedValue(httpError(401)),
    refreshToken: vi.fn().mockRejectedValue(httpError(401)),
  })

  await expect(runCheck(deps)).resolves.toBeNull()
  expect(deps.refreshToken).toHaveBeenCalledTimes(MAX_REFRESH_ATTEMPTS)
  expect(deps.fetchMe).toHaveBeenCalledTimes(1)
  expect(deps.log.warn).toHaveBeenCalledTimes(MAX_REFRESH_ATTEMPTS)
})

test('stops after three refreshes that succeed while the user still cannot be fetched', async () => {
  const deps = fakeDeps({ fetchMe: vi.fn().mockRejectedValue(httpError(401)) })

  await expect(runCheck(deps)).resolves.toBeNull()
  expect(deps.refreshToken).toHaveBeenCalledTimes(MAX_REFRESH_ATTEMPTS)
  expect(deps.fetchMe).toHaveBeenCalledTimes(MAX_REFRESH_ATTEMPTS + 1)
})

test('yields the user when the second refresh succeeds', async () => {
  const deps = fakeDeps({
    fetchMe: vi.fn().mockRejectedValueOnce(httpError(401)).mockResolvedValue(ada),
    refreshToken: vi.fn().mockRejectedValueOnce(httpError(401)).mockResolvedValue(undefined),
  })

  await expect(runCheck(deps)).resolves.toEqual(ada)
  expect(deps.refreshToken).toHaveBeenCalledTimes(2)
  expect(deps.log.warn).toHaveBeenCalledTimes(1)
})

test('does not log 401 or 403 from the current-user call, but logs other failures', async () => {
  const quiet = fakeDeps({
    fetchMe: vi
      .fn()
      .mockRejectedValueOnce(httpError(401))
      .mockRejectedValueOnce(httpError(403))
      .mockResolvedValue(ada),
  })
  await runCheck(quiet)
  expect(quiet.log.error).not.toHaveBeenCalled()

  const loud = fakeDeps({ fetchMe: vi.fn().mockRejectedValueOnce(httpError(500)).mockResolvedValue(ada) })
  await runCheck(loud)
  expect(loud.log.error).toHaveBeenCalledTimes(1)
})
