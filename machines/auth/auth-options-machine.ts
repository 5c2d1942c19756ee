/**
 * What the account screens offer on this server (D77, D79): read once, then `ready` with the
 * options. Until they arrive, or when they cannot be read, the screens show only what always
 * works (the spec's form); the options only add (Google, 'Forgot password?').
 */
import { assign, fromPromise, setup } from 'xstate'
import type { AuthOptions } from '#contracts/auth.ts'
import { notProvided } from '#machines/shared/effects.ts'

export type AuthOptionsContext = { options: AuthOptions | null }
export type AuthOptionsDeps = { options: () => Promise<AuthOptions> }

export const authOptionsMachine = setup({
  types: { context: {} as AuthOptionsContext },
  actors: { loadOptions: notProvided<AuthOptions>('loadOptions') },
  actions: { storeOptions: assign((_, params: { options: AuthOptions }) => ({ options: params.options })) },
}).createMachine({
  id: 'authOptions',
  context: { options: null },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'loadOptions',
        onDone: {
          target: 'ready',
          actions: { type: 'storeOptions', params: ({ event }) => ({ options: event.output }) },
        },
        onError: 'unavailable',
      },
    },
    ready: { type: 'final' },
    unavailable: { type: 'final', description: 'The spec’s screens work without the options.' },
  },
})

export function provideAuthOptionsMachine(deps: AuthOptionsDeps) {
  return authOptionsMachine.provide({ actors: { loadOptions: fromPromise(() => deps.options()) } })
}
