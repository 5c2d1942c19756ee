/**
 * What the endpoint needs to know of the API key a request carries (issue 38's personal keys,
 * server/api-keys/, D124): whose it is, what it may do, which one assistant it is kept to, and its
 * own quotas. The keys domain decides whether the key is live; this domain only reads its answer.
 */
import type { FastifyRequest } from 'fastify'
import type { ApiKeyRefusal } from '../api-keys/api-key-errors.ts'
import type { ApiKeyPrincipal } from '../api-keys/api-keys-service.ts'

export type ApiCaller = {
  keyId: string
  userId: string
  scopes: readonly string[]
  /** The one assistant the key may ask; null: every assistant of the person's and the whole library. */
  assistantId: string | null
  /** The key's own lower limit; null: the operator's default. (Its requests a minute are the keys domain's, D134.) */
  tokensPerDay: number | null
}

/** Why a key was refused: its status (401; 403 for a key without `chat`; 400 beside a cookie), code and sentence. */
export type KeyRefusal = Pick<ApiKeyRefusal, 'refused' | 'status' | 'code' | 'message'>

export type VerifyKey = (request: FastifyRequest) => Promise<ApiCaller | KeyRefusal>

export function callerOf(principal: ApiKeyPrincipal): ApiCaller {
  return {
    keyId: principal.keyId,
    userId: principal.ownerId,
    scopes: principal.scopes,
    assistantId: principal.assistantId,
    tokensPerDay: principal.tokensPerDay,
  }
}
