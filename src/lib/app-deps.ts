/**
 * What the app injects into its machines: the API client functions, the logger and (in
 * development, opt-in) the XState inspector. main.tsx builds the real ones; view tests pass
 * their own through the same providers.
 */
import { createContext, use } from 'react'
import type { ActorOptions, AnyActorLogic } from 'xstate'
import type { Logger } from '#machines/shared/effects.ts'
import { type AuthApi, createAuthApi } from '#src/api/auth.ts'
import { createHttp, type Http, type HttpOptions } from '#src/api/client.ts'

export type Inspect = ActorOptions<AnyActorLogic>['inspect']

export type AppDeps = {
  authApi: AuthApi
  /**
   * The one HTTP client, for features that build their API in their own lazily loaded chunk
   * (chat, drive), so their contracts add nothing to /login.
   */
  http: Http
  /** Where `http` sends (base URL, fetch), for the chat's streamed calls built in its own chunk. */
  httpOptions?: HttpOptions
  log: Logger
  inspect?: Inspect
}

export function createAppDeps(http: HttpOptions = {}, inspect?: Inspect): AppDeps {
  const client = createHttp(http)
  return {
    authApi: createAuthApi(client),
    http: client,
    httpOptions: http,
    log: console,
    inspect,
  }
}

export const AppDepsContext = createContext<AppDeps | null>(null)

export function useAppDeps(): AppDeps {
  const deps = use(AppDepsContext)
  if (!deps) throw new Error('useAppDeps() needs <AppProviders> above it.')
  return deps
}
