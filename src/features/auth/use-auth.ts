/**
 * Facade over the app-wide auth actor for the guard and the sign-in screen (the signed-in app's
 * intents are in use-signed-in.ts, so they load with it). Views call these; they never send raw events.
 */
import { useEffect } from 'react'
import { useLocation } from 'wouter'
import { AuthActor } from './auth-actor.ts'

export type GuardStatus = 'loading' | 'ready' | 'redirect'

/**
 * product §4: the session check runs on every path change. The URL lives outside the machine, so
 * the guard reports each new path to it; what the check means stays in the machine.
 */
export function useSessionGuard(): GuardStatus {
  const auth = AuthActor.useActorRef()
  const [path] = useLocation()
  useEffect(() => {
    auth.send({ type: 'auth.check', path })
  }, [auth, path])
  return AuthActor.useSelector((snapshot) => {
    // signedOut first: after sign-up the user is known (product §4) but has no session yet.
    if (snapshot.hasTag('signedOut')) return 'redirect'
    return snapshot.context.user ? 'ready' : 'loading'
  })
}

/**
 * product §4: sign-up sets the user without a session. While that holds, /login greets the new
 * account and fills its email in; after a logout the user is cleared, so nothing shows.
 */
export function useRegisteredEmail(): string | undefined {
  return AuthActor.useSelector((snapshot) =>
    snapshot.hasTag('signedOut') ? snapshot.context.user?.email : undefined,
  )
}

/** The session check cannot reach the server and is retrying (a network error or a 5xx, §8). */
export function useServerUnreachable(): boolean {
  return AuthActor.useSelector((snapshot) => snapshot.context.unreachable)
}
