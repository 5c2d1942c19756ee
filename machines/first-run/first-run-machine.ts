/**
 * The empty chat's first run (D86): loads, once each time the empty chat is shown, how many
 * documents are ready and the starter questions drawn from their headings. A failed load shows
 * nothing more than the spec's empty state (it is an offer, not a screen of its own).
 */
import { assign, fromPromise, setup } from 'xstate'
import type { FirstRun } from '#contracts/documents.ts'
import { notProvided } from '../shared/effects.ts'

export type FirstRunDeps = {
  firstRun: () => Promise<FirstRun>
  /** Whether this server has a Google OAuth client (GET /auth/options `google`). */
  driveConfigured: () => Promise<boolean>
}

/** The first run as the empty chat shows it: `drive` false on a server without Google (D133). */
export type FirstRunOffer = FirstRun & { drive: boolean }

export const firstRunMachine = setup({
  types: { context: {} as { firstRun: FirstRunOffer | null } },
  actors: { loadFirstRun: notProvided<FirstRunOffer>('loadFirstRun') },
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
  return firstRunMachine.provide({
    actors: {
      loadFirstRun: fromPromise(async (): Promise<FirstRunOffer> => {
        // Not knowing whether Drive is there is no reason to hide the count: offer it, as before.
        const [firstRun, drive] = await Promise.all([
          deps.firstRun(),
          deps.driveConfigured().catch(() => true),
        ])
        return { ...firstRun, drive }
      }),
    },
  })
}
