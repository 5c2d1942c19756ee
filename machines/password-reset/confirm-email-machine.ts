/**
 * Following an email confirmation link (D76): confirming starts at once with the token from the
 * address, then confirmed (the view offers to sign in) or refused with the server's sentence.
 * The call is injected with provideConfirmEmailMachine(deps).
 */
import { assign, fromPromise, setup } from 'xstate'
import { notProvided, serverSentence } from '#machines/shared/effects.ts'

export const CONFIRM_EMAIL_FAILED = 'Could not confirm the email just now. Open the link again in a minute.'

export type ConfirmEmailContext = { token: string; error: string | null }
export type ConfirmEmailDeps = { confirmEmail: (token: string) => Promise<void> }

export const confirmEmailMachine = setup({
  types: { context: {} as ConfirmEmailContext, input: {} as { token: string } },
  actors: { confirmEmail: notProvided<void, string>('confirmEmail') },
  actions: {
    storeError: assign((_, params: { error: unknown }) => ({
      error: serverSentence(params.error, CONFIRM_EMAIL_FAILED),
    })),
  },
}).createMachine({
  id: 'confirmEmail',
  context: ({ input }) => ({ token: input.token, error: null }),
  initial: 'confirming',
  states: {
    confirming: {
      tags: 'busy',
      invoke: {
        src: 'confirmEmail',
        input: ({ context }) => context.token,
        onDone: 'confirmed',
        onError: {
          target: 'refused',
          actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    confirmed: { tags: 'confirmed', type: 'final' },
    refused: { type: 'final' },
  },
})

export function provideConfirmEmailMachine(deps: ConfirmEmailDeps) {
  return confirmEmailMachine.provide({
    actors: { confirmEmail: fromPromise(({ input }) => deps.confirmEmail(input)) },
  })
}
