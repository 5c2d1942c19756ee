import type { ReactNode } from 'react'
import type { BaseLocationHook } from 'wouter'
import { Router } from 'wouter'
import { provideAuthMachine } from '#machines/auth/auth-machine.ts'
import { AuthActor } from '#src/features/auth/auth-actor.ts'
import { type AppDeps, AppDepsContext } from '#src/lib/app-deps.ts'

type AppProvidersProps = {
  deps: AppDeps
  /** Tests pass wouter's memoryLocation().hook; the browser location is the default. */
  locationHook?: BaseLocationHook
  children: ReactNode
}

/** Everything a screen needs above it: injected deps, the router and the root auth actor. */
export function AppProviders({ deps, locationHook, children }: AppProvidersProps) {
  const authLogic = provideAuthMachine({
    fetchMe: deps.authApi.fetchMe,
    refreshToken: deps.authApi.refreshToken,
    logout: deps.authApi.logout,
    log: deps.log,
  })
  return (
    <AppDepsContext value={deps}>
      <Router hook={locationHook}>
        <AuthActor.Provider logic={authLogic} options={{ inspect: deps.inspect }}>
          {children}
        </AuthActor.Provider>
      </Router>
    </AppDepsContext>
  )
}
