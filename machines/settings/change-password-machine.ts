/**
 * Changing the password in Settings (D81): idle → submitting → changed (with how many other
 * sessions were signed out), or back to idle with the server's sentence (a wrong current
 * password, too many tries). 'password.edit' leaves `changed` for another change. `changes`
 * counts the changes that worked: the form empties its fields then, and only then (a wrong
 * current password keeps what was typed).
 */
import { assertEvent, assign, fromPromise, setup } from 'xstate'
import type { ChangePasswordRequest } from '#contracts/account.ts'
import { notProvided, serverSentence } from '#machines/shared/effects.ts'

export const CHANGE_PASSWORD_FAILED = 'Could not change the password. Try again in a minute.'

export type ChangePasswordContext = { error: string | null; signedOut: number; changes: number }
export type ChangePasswordEvent =
  | { type: 'password.submit'; request: ChangePasswordRequest }
  | { type: 'password.edit' }
export type ChangePasswordDeps = {
  changePassword: (request: ChangePasswordRequest) => Promise<{ signedOut: number }>
}

export const changePasswordMachine = setup({
  types: { context: {} as ChangePasswordContext, events: {} as ChangePasswordEvent },
  actors: { changePassword: notProvided<{ signedOut: number }, ChangePasswordRequest>('changePassword') },
  actions: {
    clearError: assign({ error: null }),
    storeResult: assign(({ context }, params: { signedOut: number }) => ({
      signedOut: params.signedOut,
      changes: context.changes + 1,
    })),
    storeError: assign((_, params: { error: unknown }) => ({
      error: serverSentence(params.error, CHANGE_PASSWORD_FAILED),
    })),
  },
}).createMachine({
  id: 'changePassword',
  context: { error: null, signedOut: 0, changes: 0 },
  initial: 'idle',
  states: {
    idle: { on: { 'password.submit': 'submitting' } },
    submitting: {
      tags: 'busy',
      entry: 'clearError',
      invoke: {
        src: 'changePassword',
        input: ({ event }) => {
          assertEvent(event, 'password.submit')
          return event.request
        },
        onDone: {
          target: 'changed',
          actions: { type: 'storeResult', params: ({ event }) => ({ signedOut: event.output.signedOut }) },
        },
        onError: {
          target: 'idle',
          actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    changed: {
      tags: 'changed',
      on: { 'password.edit': 'idle', 'password.submit': 'submitting' },
    },
  },
})

export function provideChangePasswordMachine(deps: ChangePasswordDeps) {
  return changePasswordMachine.provide({
    actors: { changePassword: fromPromise(({ input }) => deps.changePassword(input)) },
  })
}
