import { useActorRef, useSelector } from '@xstate/react'
import { provideAppearanceMachine, type Theme } from '#machines/appearance/appearance-machine.ts'
import { useAppDeps } from '#src/lib/app-deps.ts'
import { readTheme, saveTheme } from '#src/lib/theme.ts'

/** Facade for Settings → Appearance (D136): the choice on screen and the intent to change it. */
export function useAppearance() {
  const { inspect } = useAppDeps()
  const actor = useActorRef(provideAppearanceMachine({ saveTheme }), {
    inspect,
    input: { theme: readTheme() },
  })
  return {
    theme: useSelector(actor, (s) => s.context.theme),
    choose(theme: Theme) {
      actor.send({ type: 'appearance.choose', theme })
    },
  }
}
