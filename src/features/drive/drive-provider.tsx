import { useState } from 'react'
import { provideDriveMachine } from '#machines/drive/drive-machine.ts'
import type { DriveInput } from '#machines/drive/drive-types.ts'
import { createAuthApi } from '#src/api/auth.ts'
import { createDriveApi } from '#src/api/drive.ts'
import { useCurrentUserEmail } from '#src/features/auth/use-signed-in.ts'
import { useAppDeps } from '#src/lib/app-deps.ts'
import { createBrowserDriveEffects } from './browser-drive-effects.ts'

/**
 * The drive's logic and input, for the signed-in user: the dashboard's wiring actor runs it for
 * the dashboard's lifetime (D112), so Documents and Integrations read the same file list and
 * connection flag, and it hears the connect popup's message whichever section is on screen. The
 * Drive API is built here, inside the dashboard chunk, from the app's one HTTP client, so its
 * contracts add nothing to /login.
 */
export function useDriveLogic() {
  const { http, log } = useAppDeps()
  // The dashboard renders only once the session check knows the user (product §2 guard).
  const email = useCurrentUserEmail() ?? ''
  const [drive] = useState(() => {
    const options = createAuthApi(http).options
    const effects = {
      ...createBrowserDriveEffects(window),
      ...createDriveApi(http),
      // One Google OAuth client serves sign-in and Drive alike (server/config), so its flag answers for both.
      driveConfigured: async () => (await options()).google,
    }
    const input: DriveInput = { email, origin: window.location.origin }
    return { logic: provideDriveMachine({ ...effects, log }), input }
  })
  return drive
}
