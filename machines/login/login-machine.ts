/**
 * Sign-in submission (product §2, §4, §8): idle → submitting → signedIn, or back to idle holding the
 * sentence to show. The form validates input; this machine decides what submitting means. The
 * login call and what success does (store the user, go to /dashboard) come from provideLoginMachine(deps).
 */
import { assertEvent, assign, fromPromise, setup } from 'xstate'
import type { LoginRequest, User } from '#contracts/auth.ts'
import { actionNotProvided, messageOf, notProvided, statusOf } from '#machines/shared/effects.ts'

export const LOGIN_ERRORS = {
  invalidCredentials: 'Invalid email or password',
  tooManyAttempts: 'Too many attempts. Please try again later.',
  unexpected: 'Something went wrong. Please try again later.',
} as const

export type LoginContext = { error: string | null }
export type LoginEvent = { type: 'login.submit'; credentials: LoginRequest }
export type LoginDeps = {
  login: (credentials: LoginRequest) => Promise<User>
  onSignedIn: (user: User) => void
}

/**
 * product §8: a refused sign-in reads the same whatever the reason; 429 passes the server's wait
 * time on, and 403 its reason for an account that may not sign in although the password was
 * right (disabled by the operator, email not confirmed yet: D79, D76).
 */
export function loginErrorMessage(error: unknown): string {
  const status = statusOf(error)
  if (status === 429) return messageOf(error) ?? LOGIN_ERRORS.tooManyAttempts
  if (status === 403) return messageOf(error) ?? LOGIN_ERRORS.invalidCredentials
  if (status !== undefined && status >= 400 && status < 500) return LOGIN_ERRORS.invalidCredentials
  return LOGIN_ERRORS.unexpected
}

export const loginMachine = setup({
  types: { context: {} as LoginContext, events: {} as LoginEvent },
  actors: {
    login: notProvided<User, LoginRequest>('login'),
  },
  actions: {
    clearError: assign({ error: null }),
    storeError: assign((_, params: { error: unknown }) => ({ error: loginErrorMessage(params.error) })),
    notifySignedIn: actionNotProvided<{ user: User }>('notifySignedIn'),
  },
}).createMachine({
  id: 'login',
  context: { error: null },
  initial: 'idle',
  states: {
    idle: {
      on: { 'login.submit': 'submitting' },
    },
    submitting: {
      tags: 'busy',
      entry: 'clearError',
      invoke: {
        src: 'login',
        input: ({ event }) => {
          assertEvent(event, 'login.submit')
          return event.credentials
        },
        onDone: {
          target: 'signedIn',
          actions: { type: 'notifySignedIn', params: ({ event }) => ({ user: event.output }) },
        },
        onError: {
          target: 'idle',
          actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    signedIn: { type: 'final' },
  },
})

export function provideLoginMachine(deps: LoginDeps) {
  return loginMachine.provide({
    actors: { login: fromPromise(({ input }) => deps.login(input)) },
    actions: { notifySignedIn: (_, { user }) => deps.onSignedIn(user) },
  })
}
