/** The one app-wide auth actor (product §3); <AppProviders> fills its effects. */
import { createActorContext } from '@xstate/react'
import { authMachine } from '#machines/auth/auth-machine.ts'

export const AuthActor = createActorContext(authMachine)
