/** What the account screens offer on this server (Google, 'Forgot password?', who may sign up). */
import { useActorRef, useSelector } from '@xstate/react'
import type { AuthOptions } from '#contracts/auth.ts'
import { provideAuthOptionsMachine } from '#machines/auth/auth-options-machine.ts'
import { useAppDeps } from '#src/lib/app-deps.ts'

/** Null until the options are read (and when they cannot be): only the spec's form shows then. */
export function useAuthOptions(): AuthOptions | null {
  const { authApi, inspect } = useAppDeps()
  const actor = useActorRef(provideAuthOptionsMachine({ options: authApi.options }), { inspect })
  return useSelector(actor, (snapshot) => snapshot.context.options)
}
