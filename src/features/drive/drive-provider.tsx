import { type ReactNode, useState } from 'react'
import { provideDriveMachine } from '#machines/drive/drive-machine.ts'
import { useCurrentUserEmail } from '#src/features/auth/use-auth.ts'
import { useAppDeps } from '#src/lib/app-deps.ts'
import { createBrowserDriveEffects } from './browser-drive-effects.ts'
import { DriveActor } from './drive-actor.ts'

/**
 * Starts the drive actor for the dashboard's lifetime, for the signed-in user: Documents and
 * Integrations read the same file list and connection flag, and it hears the connect popup's
 * message whichever section is on screen.
 */
export function DriveProvider({ children }: { children: ReactNode }) {
  const { driveApi, log, inspect } = useAppDeps()
  // The dashboard renders only once the session check knows the user (SPEC §2 guard).
  const email = useCurrentUserEmail() ?? ''
  const [browser] = useState(() => createBrowserDriveEffects(window))
  const logic = provideDriveMachine({ ...driveApi, ...browser, log })
  return (
    <DriveActor.Provider
      logic={logic}
      options={{ inspect, input: { email, origin: window.location.origin } }}
    >
      {children}
    </DriveActor.Provider>
  )
}
