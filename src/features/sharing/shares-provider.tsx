import { type ReactNode, useState } from 'react'
import { provideSharesMachine } from '#machines/shares/shares-machine.ts'
import { createSharingApi } from '#src/api/sharing.ts'
import { useAppDeps } from '#src/lib/app-deps.ts'
import { SharesActor } from './shares-actor.ts'

/** Starts the share links actor (it lists the person's shared conversations) while its screen is on show. */
export function SharesProvider({ children }: { children: ReactNode }) {
  const { http, inspect } = useAppDeps()
  const [logic] = useState(() => provideSharesMachine(createSharingApi(http)))
  return (
    <SharesActor.Provider logic={logic} options={{ inspect }}>
      {children}
    </SharesActor.Provider>
  )
}
