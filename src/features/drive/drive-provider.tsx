import { type ReactNode, useState } from 'react'
import { provideDriveMachine } from '#machines/drive/drive-machine.ts'
import { createDriveApi } from '#src/api/drive.ts'
import { useCurrentUserEmail } from '#src/features/auth/use-auth.ts'
import { useAppDeps } from '#src/lib/app-deps.ts'
import { createBrowserDriveEffects } from './browser-drive-effects.ts'
import { DriveActor } from './drive-actor.ts'

/**
 * Starts the drive actor for the dashboard's lifetime, for the signed-in user: Documents and
 * Integrations read the same file list and connection flag, and it hears the connect popup's
 * message whichever section is on screen. The Drive API is built here, inside the dashboard
 * chunk, from the app's one HTTP client, so its contracts add nothing to /login.
 */
export function DriveProvider({ children }: { children: ReactNode }) {
  const { http, log, inspect } = useAppDeps()
  // The dashboard renders only once the session check knows the user (product §2 guard).
  const email = useCurrentUserEmail() ?? ''
  const [effects] = useState(() => ({ ...createBrowserDriveEffects(window), ...createDriveApi(http) }))
  const logic = provideDriveMachine({ ...effects, log })
  return (
    <DriveActor.Provider
      logic={logic}
      options={{ inspect, input: { email, origin: window.location.origin } }}
    >
      {children}
    </DriveActor.Provider>
  )
}
