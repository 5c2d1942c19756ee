/** Facade for the sign-up screen: submit the new account, read busy and the error to show. */
import { useActorRef, useSelector } from '@xstate/react'
import { useLocation } from 'wouter'
import type { RegisterRequest } from '#contracts/auth.ts'
import { provideRegisterMachine } from '#machines/register/register-machine.ts'
import { useAppDeps } from '#src/lib/app-deps.ts'
import { paths } from '#src/lib/paths.ts'
import { AuthActor } from './auth-actor.ts'

export function useRegister() {
  const { authApi, inspect } = useAppDeps()
  const auth = AuthActor.useActorRef()
  const [, navigate] = useLocation()
  const register = useActorRef(
    provideRegisterMachine({
      register: authApi.register,
      onRegistered(user) {
        // product §4: register sets the user, and the person signs in next.
        auth.send({ type: 'auth.register', user })
        navigate(paths.login)
      },
    }),
    { inspect },
  )
  return {
    busy: useSelector(register, (snapshot) => snapshot.hasTag('busy')),
    error: useSelector(register, (snapshot) => snapshot.context.error),
    createAccount(account: RegisterRequest) {
      register.send({ type: 'register.submit', account })
    },
  }
}
