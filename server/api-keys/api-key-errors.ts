/**
 * What the key calls refuse (D108 domain errors, the sentences the person reads) and why a request
 * with a key is refused (`ApiKeyRefusal`: a status, a code for the OpenAI-shaped errors of
 * /openai/v1, and the sentence), D124.
 */
import { API_KEYS_PER_PERSON, type ApiKeyScope } from '#contracts/api-keys.ts'
import { Invalid, NotFound } from '../http/domain-errors.ts'

export const API_KEY_NOT_FOUND = 'API key not found'
export const TOO_MANY_API_KEYS = `You already have ${API_KEYS_PER_PERSON} API keys, the most one person can have. Revoke one to make another.`
export const assistantNotYours = (id: string) => `Assistant ${id} is not one of your assistants.`
export const limitAboveServer = (field: string, max: number) =>
  `${field} can be at most ${max} on this server; leave it empty to use that.`

export class ApiKeyNotFound extends NotFound {
  constructor() {
    super(API_KEY_NOT_FOUND)
  }
}

export class TooManyApiKeys extends Invalid {
  constructor() {
    super(TOO_MANY_API_KEYS)
  }
}

export class AssistantNotYours extends Invalid {
  constructor(id: string) {
    super(assistantNotYours(id))
  }
}

export class LimitAboveServer extends Invalid {
  constructor(field: string, max: number) {
    super(limitAboveServer(field, max))
  }
}

/** Codes as OpenAI's SDKs know them where there is one (`invalid_api_key`). */
export type ApiKeyRefusalCode =
  | 'missing_api_key'
  | 'invalid_api_key'
  | 'api_key_in_query'
  | 'cookie_and_api_key'
  | 'insufficient_scope'
  | 'rate_limit_exceeded'

export type ApiKeyRefusal = {
  refused: true
  status: 400 | 401 | 403 | 429
  code: ApiKeyRefusalCode
  message: string
  /** A 429's wait: the seconds until the key's minute ends (Retry-After). */
  retryAfterSeconds?: number
}

export const MISSING_API_KEY = 'This call needs an API key: send it as "Authorization: Bearer dc_…".'
export const INVALID_API_KEY =
  'This API key is not valid. Make a new one in DocChat under Settings → API keys.'
export const REVOKED_API_KEY =
  'This API key was revoked. Make a new one in DocChat under Settings → API keys.'
export const expiredApiKey = (at: Date) =>
  `This API key expired on ${at.toISOString().slice(0, 10)}. Make a new one in DocChat under Settings → API keys.`
export { API_KEY_IN_ADDRESS } from '../http/keys-in-urls.ts'
export const COOKIE_AND_API_KEY =
  'Send either an API key or a browser session, not both: a program calls with its key alone.'
export const missingScope = (scope: ApiKeyScope) =>
  scope === 'library'
    ? 'This API key may not use the library. Make a key with the "library" permission in Settings → API keys.'
    : 'This API key may not chat with your assistants. Make a key with the "chat" permission in Settings → API keys.'

export const KEY_REQUESTS_SPENT =
  'This API key has made as many requests this minute as it may. Try again in a moment.'

/** The key's requests this minute are spent (D134): 429 until the minute ends. */
export function tooManyRequests(retryAfterSeconds: number): ApiKeyRefusal {
  return { ...refusal(429, 'rate_limit_exceeded', KEY_REQUESTS_SPENT), retryAfterSeconds }
}

export function refusal(
  status: ApiKeyRefusal['status'],
  code: ApiKeyRefusalCode,
  message: string,
): ApiKeyRefusal {
  return { refused: true, status, code, message }
}
