/**
 * The light/dark/system choice of Settings → Appearance (D136): one resting state holding the
 * choice; choosing another stores it and hands it to the injected `saveTheme` (the app keeps it in
 * localStorage and applies it to the page). The first choice comes in as input (what was stored).
 */
import { assign, setup } from 'xstate'
import { actionNotProvided } from '#machines/shared/effects.ts'

export const THEMES = ['system', 'light', 'dark'] as const
export type Theme = (typeof THEMES)[number]

export type AppearanceContext = { theme: Theme }
export type AppearanceEvent = { type: 'appearance.choose'; theme: Theme }
export type AppearanceDeps = { saveTheme: (theme: Theme) => void }

export const appearanceMachine = setup({
  types: {
    context: {} as AppearanceContext,
    events: {} as AppearanceEvent,
    input: {} as { theme: Theme },
  },
  actions: {
    storeTheme: assign((_, params: { theme: Theme }) => ({ theme: params.theme })),
    saveTheme: actionNotProvided<{ theme: Theme }>('saveTheme'),
  },
  guards: {
    isAnotherTheme: ({ context, event }) => event.theme !== context.theme,
  },
}).createMachine({
  id: 'appearance',
  context: ({ input }) => ({ theme: input.theme }),
  initial: 'chosen',
  states: {
    chosen: {
      on: {
        'appearance.choose': {
          guard: 'isAnotherTheme',
          actions: [
            { type: 'storeTheme', params: ({ event }) => ({ theme: event.theme }) },
            { type: 'saveTheme', params: ({ event }) => ({ theme: event.theme }) },
          ],
        },
      },
    },
  },
})

export function provideAppearanceMachine(deps: AppearanceDeps) {
  return appearanceMachine.provide({
    actions: { saveTheme: (_, params: { theme: Theme }) => deps.saveTheme(params.theme) },
  })
}
