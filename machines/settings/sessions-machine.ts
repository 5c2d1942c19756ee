/**
 * Where the account is signed in (D81): loading → ready with the sessions; signing out one
 * ('sessions.revoke') or every other ('sessions.revokeOthers') runs, then the list is read again.
 * A failed list can be tried again; a failed sign-out leaves the list with a sentence. The calls
 * are injected with provideSessionsMachine(deps).
 */
import { assertEvent, assign, fromPromise, setup } from 'xstate'
import type { Session } from '#contracts/account.ts'
import { notProvided, serverSentence } from '#machines/shared/effects.ts'

export const SESSIONS_ERRORS = {
  load: 'Could not load your sessions.',
  revoke: 'Could not sign that session out. Try again.',
} as const

export type SessionsContext = { sessions: Session[]; error: string | null }
export type SessionsEvent =
  | { type: 'sessions.revoke'; id: string }
  | { type: 'sessions.revokeOthers' }
  | { type: 'sessions.retry' }
export type SessionsDeps = {
  listSessions: () => Promise<Session[]>
  revokeSession: (id: string) => Promise<void>
  revokeOtherSessions: () => Promise<unknown>
}

/** A sign-out that failed: the sentence, then the list read again (the session may have ended meanwhile). */
const readAgainSaying = (fallback: string) => ({
  target: 'loading' as const,
  actions: {
    type: 'storeError' as const,
    params: ({ event }: { event: { error: unknown } }) => ({ error: event.error, fallback }),
  },
})

export const sessionsMachine = setup({
  types: { context: {} as SessionsContext, events: {} as SessionsEvent },
  actors: {
    listSessions: notProvided<Session[]>('listSessions'),
    revokeSession: notProvided<void, string>('revokeSession'),
    revokeOtherSessions: notProvided<unknown>('revokeOtherSessions'),
  },
  actions: {
    storeSessions: assign((_, params: { sessions: Session[] }) => ({ sessions: params.sessions })),
    clearError: assign({ error: null }),
    storeError: assign((_, params: { error: unknown; fallback: string }) => ({
      error: serverSentence(params.error, params.fallback),
    })),
  },
}).createMachine({
  id: 'sessions',
  context: { sessions: [], error: null },
  initial: 'loading',
  states: {
    loading: {
      tags: 'loading',
      invoke: {
        src: 'listSessions',
        onDone: {
          target: 'ready',
          actions: { type: 'storeSessions', params: ({ event }) => ({ sessions: event.output }) },
        },
        onError: {
          target: 'failed',
          actions: {
            type: 'storeError',
            params: ({ event }) => ({ error: event.error, fallback: SESSIONS_ERRORS.load }),
          },
        },
      },
    },
    failed: { on: { 'sessions.retry': { target: 'loading', actions: 'clearError' } } },
    ready: {
      on: {
        'sessions.revoke': { target: 'revoking', actions: 'clearError' },
        'sessions.revokeOthers': { target: 'revokingOthers', actions: 'clearError' },
      },
    },
    revoking: {
      tags: 'busy',
      invoke: {
        src: 'revokeSession',
        input: ({ event }) => {
          assertEvent(event, 'sessions.revoke')
          return event.id
        },
        onDone: 'loading',
        onError: readAgainSaying(SESSIONS_ERRORS.revoke),
      },
    },
    revokingOthers: {
      tags: 'busy',
      invoke: {
        src: 'revokeOtherSessions',
        onDone: 'loading',
        onError: readAgainSaying(SESSIONS_ERRORS.revoke),
      },
    },
  },
})

export function provideSessionsMachine(deps: SessionsDeps) {
  return sessionsMachine.provide({
    actors: {
      listSessions: fromPromise(() => deps.listSessions()),
      revokeSession: fromPromise(({ input }) => deps.revokeSession(input)),
      revokeOtherSessions: fromPromise(() => deps.revokeOtherSessions()),
    },
  })
}
