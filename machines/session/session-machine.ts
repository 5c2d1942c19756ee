/**
 * Session check behind the guard (product §4, §8, §9): fetch the current user; on failure refresh
 * the token and fetch again, at most MAX_REFRESH_ATTEMPTS refreshes (a failed refresh counts too);
 * then give up. Ends with output `User | null`. fetchMe, refreshToken and log are injected with
 * provideSessionMachine(deps).
 * Only a *rejected* session (401/403) spends refresh attempts (§8). A server that cannot be reached
 * (network error: status 0) or fails (5xx) is not a rejection: the check waits (tag 'unreachable':
 * "Can't reach the server — retrying…") and asks again with backoff, never signing anyone out.
 */
import { assign, fromPromise, setup } from 'xstate'
import type { User } from '#contracts/auth.ts'
import { actionNotProvided, type Logger, notProvided, statusOf } from '#machines/shared/effects.ts'

export const MAX_REFRESH_ATTEMPTS = 3
/** The wait before asking an unreachable server again: doubling from the first, up to the last. */
export const RETRY_FIRST_MS = 1000
export const RETRY_MAX_MS = 30_000

export type SessionContext = { user: User | null; refreshAttempts: number; outages: number }
export type SessionOutput = User | null
export type SessionDeps = {
  fetchMe: () => Promise<User>
  refreshToken: () => Promise<void>
  log: Logger
}

/** product §8: 401 and 403 from the current-user call are the expected "signed out" answer. */
function isExpectedAuthFailure(error: unknown): boolean {
  const status = statusOf(error)
  return status === 401 || status === 403
}

/** §8's "other errors": the server was not reached (status 0) or failed (5xx). Not a rejection. */
function isOutage(error: unknown): boolean {
  const status = statusOf(error)
  return status === undefined || status === 0 || status >= 500
}

export const sessionMachine = setup({
  types: {
    context: {} as SessionContext,
    output: {} as SessionOutput,
  },
  actors: {
    fetchMe: notProvided<User>('fetchMe'),
    refreshToken: notProvided<void>('refreshToken'),
  },
  actions: {
    storeUser: assign((_, params: { user: User }) => ({ user: params.user })),
    countRefreshAttempt: assign(({ context }) => ({ refreshAttempts: context.refreshAttempts + 1 })),
    countOutage: assign(({ context }) => ({ outages: context.outages + 1 })),
    // Filled by provideSessionMachine: logging is an effect like any other.
    logFetchFailure: actionNotProvided<{ error: unknown }>('logFetchFailure'),
    logRefreshFailure: actionNotProvided<{ error: unknown }>('logRefreshFailure'),
  },
  guards: {
    canRefreshAgain: ({ context }) => context.refreshAttempts < MAX_REFRESH_ATTEMPTS,
    isOutage: (_, params: { error: unknown }) => isOutage(params.error),
  },
  delays: {
    retryDelay: ({ context }) => Math.min(RETRY_FIRST_MS * 2 ** (context.outages - 1), RETRY_MAX_MS),
  },
}).createMachine({
  id: 'session',
  context: { user: null, refreshAttempts: 0, outages: 0 },
  initial: 'fetchingUser',
  states: {
    fetchingUser: {
      invoke: {
        src: 'fetchMe',
        onDone: {
          target: 'authenticated',
          actions: { type: 'storeUser', params: ({ event }) => ({ user: event.output }) },
        },
        onError: [
          {
            guard: { type: 'isOutage', params: ({ event }) => ({ error: event.error }) },
            target: 'unreachable',
            actions: { type: 'logFetchFailure', params: ({ event }) => ({ error: event.error }) },
            description: 'Not a rejection (§8): ask again later, spending no refresh attempt.',
          },
          {
            guard: 'canRefreshAgain',
            target: 'refreshingToken',
            actions: { type: 'logFetchFailure', params: ({ event }) => ({ error: event.error }) },
          },
          {
            target: 'unauthenticated',
            actions: { type: 'logFetchFailure', params: ({ event }) => ({ error: event.error }) },
            description: 'Every refresh attempt is spent: give up.',
          },
        ],
      },
    },
    refreshingToken: {
      entry: 'countRefreshAttempt',
      invoke: {
        src: 'refreshToken',
        onDone: { target: 'fetchingUser' },
        onError: [
          {
            guard: { type: 'isOutage', params: ({ event }) => ({ error: event.error }) },
            target: 'unreachable',
            actions: { type: 'logRefreshFailure', params: ({ event }) => ({ error: event.error }) },
            description:
              'The refresh did not reach the server: it is not counted; the user is asked for again later.',
          },
          {
            guard: 'canRefreshAgain',
            target: 'refreshingToken',
            reenter: true,
            actions: { type: 'logRefreshFailure', params: ({ event }) => ({ error: event.error }) },
            description: 'A failed refresh counts as an attempt and is retried while attempts remain.',
          },
          {
            target: 'unauthenticated',
            actions: { type: 'logRefreshFailure', params: ({ event }) => ({ error: event.error }) },
          },
        ],
      },
    },
    unreachable: {
      tags: 'unreachable',
      entry: 'countOutage',
      after: { retryDelay: 'fetchingUser' },
    },
    authenticated: { type: 'final' },
    unauthenticated: { type: 'final' },
  },
  output: ({ context }) => context.user,
})

export function provideSessionMachine(deps: SessionDeps) {
  return sessionMachine.provide({
    actors: {
      fetchMe: fromPromise(() => deps.fetchMe()),
      refreshToken: fromPromise(() => deps.refreshToken()),
    },
    actions: {
      logFetchFailure: (_, { error }) => {
        if (!isExpectedAuthFailure(error))
          deps.log.error('Session check: fetching the current user failed', error)
      },
      logRefreshFailure: (_, { error }) => {
        deps.log.warn('Session check: token refresh failed', error)
      },
    },
  })
}
