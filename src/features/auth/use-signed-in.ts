/**
 * Facade over the app-wide auth actor for the signed-in app: who is signed in, logging out, a
 * session that ended. Apart from use-auth.ts so that they load with the dashboard, not /login.
 */
import { AuthActor } from './auth-actor.ts'

export function useCurrentUserEmail(): string | undefined {
  return AuthActor.useSelector((snapshot) => snapshot.context.user?.email)
}

export function useLogout() {
  const auth = AuthActor.useActorRef()
  const loggingOut = AuthActor.useSelector((snapshot) => snapshot.hasTag('busy'))
  return {
    loggingOut,
    logout() {
      auth.send({ type: 'auth.logout' })
    },
  }
}

/** Tells the app the session is over without a logout call (the account was just deleted). */
export function useSessionEnded(): () => void {
  const auth = AuthActor.useActorRef()
  return () => auth.send({ type: 'auth.ended' })
}
