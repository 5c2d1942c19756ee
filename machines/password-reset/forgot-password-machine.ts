/**
 * 'Forgot password?' (D76): idle → sending → sent. The server answers the same for any email, so
 * `sent` always says "if an account exists…"; a refusal (too many asks, mail off) goes back to
 * idle with the server's sentence. The call is injected with provideForgotPasswordMachine(deps).
 */
import { assertEvent, assign, fromPromise, setup } from 'xstate'
import { notProvided, serverSentence } from '#machines/shared/effects.ts'

export const FORGOT_PASSWORD_FAILED = 'Could not send the link. Try again in a minute.'

export type ForgotPasswordContext = { error: string | null; email: string }
export type ForgotPasswordEvent = { type: 'forgot.submit'; email: string } | { type: 'forgot.again' }
export type ForgotPasswordDeps = { forgotPassword: (email: string) => Promise<void> }

export const forgotPasswordMachine = setup({
  types: { context: {} as ForgotPasswordContext, events: {} as ForgotPasswordEvent },
  actors: { forgotPassword: notProvided<void, string>('forgotPassword') },
  actions: {
    storeEmail: assign((_, params: { email: string }) => ({ email: params.email, error: null })),
    storeError: assign((_, params: { error: unknown }) => ({
      error: serverSentence(params.error, FORGOT_PASSWORD_FAILED),
    })),
  },
}).createMachine({
  id: 'forgotPassword',
  context: { error: null, email: '' },
  initial: 'idle',
  states: {
    idle: {
      on: {
        'forgot.submit': {
          target: 'sending',
          actions: { type: 'storeEmail', params: ({ event }) => ({ email: event.email }) },
        },
      },
    },
    sending: {
      tags: 'busy',
      invoke: {
        src: 'forgotPassword',
        input: ({ event }) => {
          assertEvent(event, 'forgot.submit')
          return event.email
        },
        onDone: 'sent',
        onError: {
          target: 'idle',
          actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    sent: {
      tags: 'sent',
      on: { 'forgot.again': { target: 'idle', description: 'Another address, or the mail did not come.' } },
    },
  },
})

export function provideForgotPasswordMachine(deps: ForgotPasswordDeps) {
  return forgotPasswordMachine.provide({
    actors: { forgotPassword: fromPromise(({ input }) => deps.forgotPassword(input)) },
  })
}
