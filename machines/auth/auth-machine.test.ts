import { expect, type Mock, test, vi } from 'vitest'
import { createActor, waitFor } from 'xstate'
import type { User } from '#contracts/auth.ts'
import { MAX_REFRESH_ATTEMPTS } from '#machines/session/session-machine.ts'
import { type AuthDeps, provideAuthMachine } from './auth-machine.ts'

const ada: User = { _id: 'u1', email: 'ada@example.com', createdAt: '2026-01-01T00:00:00.000Z' }

function unauthorized(): Error & { status: number } {
  return Object.assign(new Error('Unauthorized'), { status: 401 })
}

type FakeDeps = AuthDeps & {
  fetchMe: Mock<AuthDeps['fetchMe']>
  refreshToken: Mock<AuthDeps['refreshToken']>
  logout: Mock<AuthDeps['logout']>
  log: { error: Mock; warn: Mock }
}

function fakeDeps(overrides: Partial<FakeDeps> = {}): FakeDeps {
  return {
    fetchMe: vi.fn<AuthDeps['fetchMe']>().mockResolvedValue(ada),
    refreshToken: vi.fn<AuthDeps['refreshToken']>().mockResolvedValue(undefined),
    logout: vi.fn<AuthDeps['logout']>().mockResolvedValue(undefined),
    log: { error: vi.fn(), warn: vi.fn() },
    ...overrides,
  }
}

function startAuth(deps: AuthDeps) {
  return createActor(provideAuthMachine(deps)).start()
}

function settled(actor: ReturnType<typeof startAuth>) {
  return waitFor(actor, (s) => !s.hasTag('checking') && !s.hasTag('busy'))
}

test('a path change runs the session check and stores the user', async () => {
  const auth = startAuth(fakeDeps())

  auth.send({ type: 'auth.check' })
  expect(auth.getSnapshot().context.loading).toBe(true)
  const snapshot = await settled(auth)

  expect(snapshot.context).toEqual({ user: ada, loading: false, unreachable: false })
  expect(snapshot.value).toBe('signedIn')
})

test('ends with no user after three failed refreshes', async () => {
  const deps = fakeDeps({
    fetchMe: vi.fn().mockRejectedValue(unauthorized()),
    refreshToken: vi.fn().mockRejectedValue(unauthorized()),
  })
  const auth = startAuth(deps)

  auth.send({ type: 'auth.check' })
  const snapshot = await settled(auth)

  expect(snapshot.context.user).toBeNull()
  expect(snapshot.hasTag('signedOut')).toBe(true)
  expect(deps.refreshToken).toHaveBeenCalledTimes(MAX_REFRESH_ATTEMPTS)
})

test('stores the user when the second refresh succeeds', async () => {
  const deps = fakeDeps({
    fetchMe: vi.fn().mockRejectedValueOnce(unauthorized()).mockResolvedValue(ada),
    refreshToken: vi.fn().mockRejectedValueOnce(unauthorized()).mockResolvedValue(undefined),
  })
  const auth = startAuth(deps)

  auth.send({ type: 'auth.check' })
  const snapshot = await settled(auth)

  expect(snapshot.context.user).toEqual(ada)
  expect(deps.refreshToken).toHaveBeenCalledTimes(2)
})

test('another path change runs the check again and keeps the known user meanwhile', async () => {
  const deps = fakeDeps()
  const auth = startAuth(deps)
  auth.send({ type: 'auth.check' })
  await settled(auth)

  auth.send({ type: 'auth.check' })
  expect(auth.getSnapshot().hasTag('checking')).toBe(true)
  expect(auth.getSnapshot().context.user).toEqual(ada)
  await settled(auth)

  expect(deps.fetchMe).toHaveBeenCalledTimes(2)
})

test('a failed re-check clears the known user', async () => {
  const deps = fakeDeps()
  const auth = startAuth(deps)
  auth.send({ type: 'auth.check' })
  await settled(auth)
  deps.fetchMe.mockRejectedValue(unauthorized())
  deps.refreshToken.mockRejectedValue(unauthorized())

  auth.send({ type: 'auth.check' })
  const snapshot = await settled(auth)

  expect(snapshot.context.user).toBeNull()
  expect(snapshot.hasTag('signedOut')).toBe(true)
})

test('login and register set the user; setLoading sets the flag', () => {
  const auth = startAuth(fakeDeps())

  auth.send({ type: 'auth.login', user: ada })
  expect(auth.getSnapshot().context.user).toEqual(ada)

  const bob = { ...ada, _id: 'u2', email: 'bob@example.com' }
  auth.send({ type: 'auth.register', user: bob })
  expect(auth.getSnapshot().context.user).toEqual(bob)
  // Sign-up opens no session: the guard must still send this person to /login.
  expect(auth.getSnapshot().hasTag('signedOut')).toBe(true)

  auth.send({ type: 'auth.setLoading', loading: true })
  expect(auth.getSnapshot().context.loading).toBe(true)
})

test('a successful logout clears the user', async () => {
  const deps = fakeDeps()
  const auth = startAuth(deps)
  auth.send({ type: 'auth.login', user: ada })

  auth.send({ type: 'auth.logout' })
  const snapshot = await settled(auth)

  expect(deps.logout).toHaveBeenCalledTimes(1)
  expect(snapshot.context.user).toBeNull()
  expect(snapshot.hasTag('signedOut')).toBe(true)
})

test('a failed logout keeps the user and is only logged', async () => {
  const deps = fakeDeps({ logout: vi.fn().mockRejectedValue(new Error('Network error')) })
  const auth = startAuth(deps)
  auth.send({ type: 'auth.login', user: ada })

  auth.send({ type: 'auth.logout' })
  const snapshot = await settled(auth)

  expect(snapshot.context.user).toEqual(ada)
  expect(snapshot.value).toBe('signedIn')
  expect(deps.log.error).toHaveBeenCalledTimes(1)
})

test('auth.ended (the account was deleted) signs out at once, with no logout call', async () => {
  const logout = vi.fn().mockResolvedValue(undefined)
  const actor = createActor(
    provideAuthMachine({
      fetchMe: vi.fn(),
      refreshToken: vi.fn(),
      log: { error: vi.fn(), warn: vi.fn() },
      logout,
    }),
  ).start()
  actor.send({
    type: 'auth.login',
    user: { _id: 'u1', email: 'ada@example.com', createdAt: '2026-01-01T00:00:00.000Z' },
  })
  actor.send({ type: 'auth.ended' })
  expect(actor.getSnapshot().hasTag('signedOut')).toBe(true)
  expect(actor.getSnapshot().context.user).toBeNull()
  expect(logout).not.toHaveBeenCalled()
})

test('a server that cannot be reached keeps the signed-in person, says so, and checks again (§8)', async () => {
  vi.useFakeTimers()
  try {
    const deps = fakeDeps()
    const auth = startAuth(deps)
    auth.send({ type: 'auth.check' })
    await vi.waitFor(() => expect(auth.getSnapshot().value).toBe('signedIn'))
    const offline = Object.assign(new TypeError('Failed to fetch'), { status: 0 })
    deps.fetchMe.mockRejectedValueOnce(offline).mockRejectedValueOnce(offline)

    auth.send({ type: 'auth.check' })
    await vi.waitFor(() => expect(auth.getSnapshot().context.unreachable).toBe(true))
    expect(auth.getSnapshot().context.user).toEqual(ada)
    expect(auth.getSnapshot().hasTag('signedOut')).toBe(false)
    await vi.advanceTimersByTimeAsync(1000 + 2000)
    await vi.waitFor(() => expect(auth.getSnapshot().value).toBe('signedIn'))

    expect(auth.getSnapshot().context).toEqual({ user: ada, loading: false, unreachable: false })
    expect(deps.refreshToken).not.toHaveBeenCalled()
  } finally {
    vi.useRealTimers()
  }
})
