/**
 * Authentication by personal API key (D124), for the routes that take one: the key travels only
 * as `Authorization: Bearer dc_…`; never in the address (refused on every route before this runs,
 * http/keys-in-urls.ts, and checked again here for routes declared elsewhere), never beside a
 * session cookie (a program calls with its key alone; a browser page holding both would let
 * whoever wrote the page act as the person), and it never sets a cookie (api-keys-plugin.ts).
 */
import type { FastifyRequest } from 'fastify'
import type { ApiKeyScope } from '#contracts/api-keys.ts'
import { ACCESS_COOKIE, REFRESH_COOKIE } from '../auth/cookies.ts'
import { API_KEY_IN_ADDRESS, carriesApiKey } from '../http/keys-in-urls.ts'
import { type ApiKeyRefusal, COOKIE_AND_API_KEY, MISSING_API_KEY, refusal } from './api-key-errors.ts'
import type { ApiKeyPrincipal, ApiKeysService } from './api-keys-service.ts'

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i

/** The bearer token of the Authorization header; undefined without one, null when malformed. */
export function bearerToken(request: FastifyRequest): string | null | undefined {
  const header = request.headers.authorization
  if (header === undefined) return undefined
  return BEARER.exec(header)?.[1] ?? null
}

/** Whether the request carries one of the browser session's cookies. */
export function hasSessionCookie(request: FastifyRequest): boolean {
  const cookies = request.cookies
  return Boolean(cookies[ACCESS_COOKIE] || cookies[REFRESH_COOKIE])
}

/**
 * The principal the request's key speaks for, or why it is refused. With `scope`, a key without
 * that scope is refused (403). Reads the key from the table every time: nothing here is cached.
 */
export async function authenticateApiKey(
  service: ApiKeysService,
  request: FastifyRequest,
  scope?: ApiKeyScope,
): Promise<ApiKeyPrincipal | ApiKeyRefusal> {
  if (carriesApiKey(request.url)) return refusal(400, 'api_key_in_query', API_KEY_IN_ADDRESS)
  const token = bearerToken(request)
  if (token === undefined) return refusal(401, 'missing_api_key', MISSING_API_KEY)
  if (hasSessionCookie(request)) return refusal(400, 'cookie_and_api_key', COOKIE_AND_API_KEY)
  if (token === null) return refusal(401, 'invalid_api_key', MISSING_API_KEY)
  return service.verify(token, scope)
}

export function isRefusal(result: ApiKeyPrincipal | ApiKeyRefusal): result is ApiKeyRefusal {
  return 'refused' in result
}
