/**
 * Sign-up submission (product §2, §4, §8): idle → submitting → registered, or back to idle holding
 * the sentence to show. The register call and what success does (set the user, go to /login)
 * come from provideRegisterMachine(deps).
 */
import { assertEvent, assign, fromPromise, setup } from 'xstate'
import type { RegisterRequest, User } from '#contracts/auth.ts'
import { actionNotProvided, messageOf, notProvided, statusOf } from '#machines/shared/effects.ts'

export const REGISTER_ERRORS = {
  emailTaken: 'An account with this email already exists.',
  failed: 'Failed to create account. Please try again.',
  tooManyAttempts: 'Too many attempts. Please try again later.',
} as const

export type RegisterContext = { error: string | null }
export type RegisterEvent = { type: 'register.submit'; account: RegisterRequest }
export type RegisterDeps = {
  register: (account: RegisterRequest) => Promise<User>
  onRegistered: (user: User) => void
}

/**
 * 429 passes the server's wait time on: "try again" would be wrong advice while the limit holds;
 * 403 (sign-up closed, or not open to this email's domain: D79) passes the server's reason on.
 */
export function registerErrorMessage(error: unknown): string {
  const status = statusOf(error)
  if (status === 429) return messageOf(error) ?? REGISTER_ERRORS.tooManyAttempts
  if (status === 403) return messageOf(error) ?? REGISTER_ERRORS.failed
  return status === 409 ? REGISTER_ERRORS.emailTaken : REGISTER_ERRORS.failed
}

export const registerMachine = setup({
  types: { context: {} as RegisterContext, events: {} as RegisterEvent },
  actors: {
    register: notProvided<User, RegisterRequest>('register'),
  },
  actions: {
    clearError: assign({ error: null }),
    storeError: assign((_, params: { error: unknown }) => ({ error: registerErrorMessage(params.error) })),
    notifyRegistered: actionNotProvided<{ user: User }>('notifyRegistered'),
  },
}).createMachine({
  id: 'register',
  context: { error: null },
  initial: 'idle',
  states: {
    idle: {
      on: { 'register.submit': 'submitting' },
    },
    submitting: {
      tags: 'busy',
      entry: 'clearError',
      invoke: {
        src: 'register',
        input: ({ event }) => {
          assertEvent(event, 'register.submit')
          return event.account
        },
        onDone: {
          target: 'registered',
          actions: { type: 'notifyRegistered', params: ({ event }) => ({ user: event.output }) },
          description: 'product §4: any 200 or 201 answer is success.',
        },
        onError: {
          target: 'idle',
          actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    registered: { type: 'final' },
  },
})

export function provideRegisterMachine(deps: RegisterDeps) {
  return registerMachine.provide({
    actors: { register: fromPromise(({ input }) => deps.register(input)) },
    actions: { notifyRegistered: (_, { user }) => deps.onRegistered(user) },
  })
}
