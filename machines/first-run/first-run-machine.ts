/**
 * The empty chat's first run (D86): loads, once each time the empty chat is shown, how many
 * documents are ready and the starter questions drawn from their headings. A failed load shows
 * nothing more than the spec's empty state (it is an offer, not a screen of its own).
 */
import { assign, fromPromise, setup } from 'xstate'
import type { FirstRun } from '#contracts/documents.ts'
import { notProvided } from '../shared/effects.ts'

export type FirstRunDeps = { firstRun: () => Promise<FirstRun> }

export const firstRunMachine = setup({
  types: { context: {} as { firstRun: FirstRun | null } },
  actors: { loadFirstRun: notProvided<FirstRun>('loadFirstRun') },
}).createMachine({
  id: 'firstRun',
  context: { firstRun: null },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'loadFirstRun',
        onDone: { target: 'shown', actions: assign({ firstRun: ({ event }) => event.output }) },
        onError: 'unavailable',
      },
    },
    shown: {},
    unavailable: {},
  },
})

export function provideFirstRunMachine(deps: FirstRunDeps) {
  return firstRunMachine.provide({ actors: { loadFirstRun: fromPromise(() => deps.firstRun()) } })
}
