import { expect, test, vi } from 'vitest'
import { createActor, toPromise } from 'xstate'
import type { User } from '#contracts/auth.ts'
import {
  MAX_REFRESH_ATTEMPTS,
  provideSessionMachine,
  RETRY_FIRST_MS,
  RETRY_MAX_MS,
  type SessionDeps,
} from './session-machine.ts'

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

  const loud = fakeDeps({ fetchMe: vi.fn().mockRejectedValueOnce(httpError(400)).mockResolvedValue(ada) })
  await runCheck(loud)
  expect(loud.log.error).toHaveBeenCalledTimes(1)
})

test('a network error or a 5xx is not a rejection: no refresh is spent, the check waits and asks again with backoff', async () => {
  vi.useFakeTimers()
  try {
    const offline = Object.assign(new TypeError('Failed to fetch'), { status: 0 })
    const deps = fakeDeps({
      fetchMe: vi
        .fn()
        .mockRejectedValueOnce(offline)
        .mockRejectedValueOnce(httpError(502))
        .mockRejectedValueOnce(offline)
        .mockResolvedValue(ada),
    })
    const actor = createActor(provideSessionMachine(deps)).start()
    await vi.advanceTimersByTimeAsync(0)
    expect(actor.getSnapshot().hasTag('unreachable')).toBe(true)
    expect(deps.fetchMe).toHaveBeenCalledTimes(1)

    // 1 s, then 2 s, then 4 s: the second ask comes after the first wait, not before.
    await vi.advanceTimersByTimeAsync(RETRY_FIRST_MS - 1)
    expect(deps.fetchMe).toHaveBeenCalledTimes(1)
    await vi.advanceTimersByTimeAsync(1)
    expect(deps.fetchMe).toHaveBeenCalledTimes(2)
    await vi.advanceTimersByTimeAsync(2 * RETRY_FIRST_MS)
    expect(deps.fetchMe).toHaveBeenCalledTimes(3)
    await vi.advanceTimersByTimeAsync(4 * RETRY_FIRST_MS)

    await expect(toPromise(actor)).resolves.toEqual(ada)
    expect(deps.refreshToken).not.toHaveBeenCalled()
  } finally {
    vi.useRealTimers()
  }
})

test('a refresh that cannot reach the server is not counted: the user is asked for again later', async () => {
  vi.useFakeTimers()
  try {
    const deps = fakeDeps({
      fetchMe: vi.fn().mockRejectedValueOnce(httpError(401)).mockResolvedValue(ada),
      refreshToken: vi.fn().mockRejectedValueOnce(Object.assign(new Error('offline'), { status: 0 })),
    })
    const actor = createActor(provideSessionMachine(deps)).start()
    await vi.advanceTimersByTimeAsync(RETRY_MAX_MS)

    await expect(toPromise(actor)).resolves.toEqual(ada)
    expect(actor.getSnapshot().context.refreshAttempts).toBe(1)
  } finally {
    vi.useRealTimers()
  }
})
