/**
 * App-wide auth state (product §3, §4): the current user and a loading flag. 'auth.check' (sent on
 * each path change under the guard) runs the session machine as a child; login and register set
 * the user; 'auth.logout' calls the API and clears the user only on success (a failure is only
 * logged, §8). Effects are injected with provideAuthMachine(deps).
 */
import { assign, fromPromise, setup } from 'xstate'
import type { User } from '#contracts/auth.ts'
import {
  provideSessionMachine,
  type SessionDeps,
  type SessionOutput,
  sessionMachine,
} from '#machines/session/session-machine.ts'
import { actionNotProvided, notProvided } from '#machines/shared/effects.ts'

/** `unreachable`: the session check cannot reach the server and is retrying (§8: not a sign-out). */
export type AuthContext = { user: User | null; loading: boolean; unreachable: boolean }

export type AuthEvent =
  /** `path` only labels the check in the inspector: every path is checked the same way. */
  | { type: 'auth.check'; path?: string }
  | { type: 'auth.login'; user: User }
  | { type: 'auth.register'; user: User }
  | { type: 'auth.logout' }
  /** The session ended without a logout call (the account was deleted): signed out at once. */
  | { type: 'auth.ended' }
  | { type: 'auth.setLoading'; loading: boolean }

export type AuthDeps = SessionDeps & { logout: () => Promise<void> }

export const authMachine = setup({
  types: { context: {} as AuthContext, events: {} as AuthEvent },
  actors: {
    session: sessionMachine,
    logout: notProvided<void>('logout'),
  },
  actions: {
    storeUser: assign((_, params: { user: User }) => ({ user: params.user })),
    storeCheckedUser: assign((_, params: { user: SessionOutput }) => ({ user: params.user })),
    clearUser: assign({ user: null }),
    storeLoading: assign((_, params: { loading: boolean }) => ({ loading: params.loading })),
    storeUnreachable: assign((_, params: { unreachable: boolean }) => ({ unreachable: params.unreachable })),
    logLogoutFailure: actionNotProvided<{ error: unknown }>('logLogoutFailure'),
  },
  guards: {
    hasUser: ({ context }) => context.user !== null,
    isUser: (_, params: { user: SessionOutput }) => params.user !== null,
  },
}).createMachine({
  id: 'auth',
  context: { user: null, loading: false, unreachable: false },
  initial: 'unknown',
  on: {
    'auth.login': {
      target: '.signedIn',
      actions: { type: 'storeUser', params: ({ event }) => ({ user: event.user }) },
    },
    'auth.register': {
      target: '.signedOut',
      actions: { type: 'storeUser', params: ({ event }) => ({ user: event.user }) },
      description:
        'product §4: register sets the user, but sign-up opens no session (the screen goes to /login), ' +
        'so the guard still sends this person to sign in.',
    },
    'auth.ended': {
      target: '.signedOut',
      actions: 'clearUser',
      description: 'The server ended the session already (account deleted): nothing to call.',
    },
    'auth.setLoading': {
      actions: { type: 'storeLoading', params: ({ event }) => ({ loading: event.loading }) },
    },
  },
  states: {
    unknown: {
      on: { 'auth.check': 'checking' },
    },
    checking: {
      tags: 'checking',
      entry: { type: 'storeLoading', params: { loading: true } },
      exit: [
        { type: 'storeLoading', params: { loading: false } },
        { type: 'storeUnreachable', params: { unreachable: false } },
      ],
      invoke: {
        src: 'session',
        onSnapshot: {
          actions: {
            type: 'storeUnreachable',
            params: ({ event }) => ({ unreachable: event.snapshot.hasTag('unreachable') }),
          },
          description: 'The check is waiting for the server: say so, keep the person where they are.',
        },
        onDone: [
          {
            guard: { type: 'isUser', params: ({ event }) => ({ user: event.output }) },
            target: 'signedIn',
            actions: { type: 'storeCheckedUser', params: ({ event }) => ({ user: event.output }) },
          },
          { target: 'signedOut', actions: 'clearUser' },
        ],
      },
      on: { 'auth.logout': { guard: 'hasUser', target: 'loggingOut' } },
    },
    signedIn: {
      on: {
        'auth.check': {
          target: 'checking',
          description: 'Re-check on every path change; the known user stays on screen meanwhile.',
        },
        'auth.logout': 'loggingOut',
      },
    },
    signedOut: {
      tags: 'signedOut',
      description:
        'Known to have no session (a check gave up, or logout succeeded): the guard redirects to /login ' +
        'without asking again; only login or register leave this state.',
    },
    loggingOut: {
      tags: 'busy',
      invoke: {
        src: 'logout',
        onDone: { target: 'signedOut', actions: 'clearUser' },
        onError: {
          target: 'signedIn',
          actions: { type: 'logLogoutFailure', params: ({ event }) => ({ error: event.error }) },
          description: 'product §8: a failed logout is logged only; the user stays signed in.',
        },
      },
    },
  },
})

export function provideAuthMachine(deps: AuthDeps) {
  return authMachine.provide({
    actors: {
      session: provideSessionMachine(deps),
      logout: fromPromise(() => deps.logout()),
    },
    actions: {
      logLogoutFailure: (_, { error }) => {
        deps.log.error('Logout failed', error)
      },
    },
  })
}
