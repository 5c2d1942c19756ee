/** Facade for the sign-in screen: submit credentials, read busy and the error to show. */
import { useActorRef, useSelector } from '@xstate/react'
import { useLocation } from 'wouter'
import type { LoginRequest } from '#contracts/auth.ts'
import { provideLoginMachine } from '#machines/login/login-machine.ts'
import { useAppDeps } from '#src/lib/app-deps.ts'
import { paths } from '#src/lib/paths.ts'
import { AuthActor } from './auth-actor.ts'

export function useLogin() {
  const { authApi, inspect } = useAppDeps()
  const auth = AuthActor.useActorRef()
  const [, navigate] = useLocation()
  const login = useActorRef(
    provideLoginMachine({
      login: authApi.login,
      onSignedIn(user) {
        auth.send({ type: 'auth.login', user })
        navigate(paths.dashboard)
      },
    }),
    { inspect },
  )
  return {
    busy: useSelector(login, (snapshot) => snapshot.hasTag('busy')),
    error: useSelector(login, (snapshot) => snapshot.context.error),
    signIn(credentials: LoginRequest) {
      login.send({ type: 'login.submit', credentials })
    },
  }
}
