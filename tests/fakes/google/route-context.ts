/**
 * What every emulator route receives, and the shape of a route table entry. Routes match on the
 * path alone (query strings never decide), exactly as Google's hosts do.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { SigningKey } from './id-token.ts'
import type { EmulatorEndpoint, EmulatorStore } from './store.ts'

export type RouteContext = {
  req: IncomingMessage
  res: ServerResponse
  url: URL
  /** Captures of the route's pattern (already URI-decoded). */
  params: string[]
  store: EmulatorStore
  baseUrl: string
  signingKey: SigningKey
  /** Names the request in the log when the route only knows it late (the token grant type). */
  setEndpoint(endpoint: EmulatorEndpoint): void
  /** Records whose access token the request used. */
  setAccount(email: string): void
}

export type Route = {
  methods: readonly string[]
  pattern: RegExp
  endpoint: EmulatorEndpoint
  handle(ctx: RouteContext): Promise<void> | void
}
