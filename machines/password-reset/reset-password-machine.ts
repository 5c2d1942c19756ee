/**
 * Setting a new password from a mailed link (D76): idle → submitting → done, where the view
 * sends the person to sign in. A link that does not work (used, expired, unknown: 400) ends in
 * `linkRefused` with the server's sentence and a way to ask again; any other failure returns to
 * idle with its sentence. The token comes from the page's address; the call is injected.
 */
import { assertEvent, assign, fromPromise, setup } from 'xstate'
import type { ResetPasswordRequest } from '#contracts/account-links.ts'
import { notProvided, serverSentence, statusOf } from '#machines/shared/effects.ts'

export const RESET_PASSWORD_FAILED = 'Could not set the new password. Try again in a minute.'

export type ResetPasswordContext = { error: string | null }
export type ResetPasswordEvent = { type: 'reset.submit'; request: ResetPasswordRequest }
export type ResetPasswordDeps = {
  resetPassword: (request: ResetPasswordRequest) => Promise<void>
  onReset: () => void
}

export const resetPasswordMachine = setup({
  types: { context: {} as ResetPasswordContext, events: {} as ResetPasswordEvent },
  actors: { resetPassword: notProvided<void, ResetPasswordRequest>('resetPassword') },
  actions: {
    clearError: assign({ error: null }),
    storeError: assign((_, params: { error: unknown }) => ({
      error: serverSentence(params.error, RESET_PASSWORD_FAILED),
    })),
    notifyReset: () => undefined,
  },
  guards: {
    isLinkRefused: (_, params: { error: unknown }) => statusOf(params.error) === 400,
  },
}).createMachine({
  id: 'resetPassword',
  context: { error: null },
  initial: 'idle',
  states: {
    idle: { on: { 'reset.submit': 'submitting' } },
    submitting: {
      tags: 'busy',
      entry: 'clearError',
      invoke: {
        src: 'resetPassword',
        input: ({ event }) => {
          assertEvent(event, 'reset.submit')
          return event.request
        },
        onDone: { target: 'done', actions: 'notifyReset' },
        onError: [
          {
            guard: { type: 'isLinkRefused', params: ({ event }) => ({ error: event.error }) },
            target: 'linkRefused',
            actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
            description: 'The form was checked already: a 400 here is the link itself.',
          },
          {
            target: 'idle',
            actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
          },
        ],
      },
    },
    linkRefused: { tags: 'linkRefused', type: 'final' },
    done: { type: 'final' },
  },
})

export function provideResetPasswordMachine(deps: ResetPasswordDeps) {
  return resetPasswordMachine.provide({
    actors: { resetPassword: fromPromise(({ input }) => deps.resetPassword(input)) },
    actions: { notifyReset: () => deps.onReset() },
  })
}
