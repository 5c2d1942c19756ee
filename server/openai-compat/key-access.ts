/**
 * What the endpoint needs to know of the API key a request carries (issue 38's personal keys,
 * server/api-keys/): whose it is, what it may do, which one assistant it is kept to, and its own
 * quotas. The keys domain decides whether the key is live; this domain only reads the answer.
 */
import type { FastifyRequest } from 'fastify'

export type ApiCaller = {
  keyId: string
  userId: string
  scopes: readonly string[]
  /** The one assistant the key may ask; null: every assistant of the person's and the whole library. */
  assistantId: string | null
  /** The key's own lower limits; null: the operator's defaults. */
  requestsPerMinute: number | null
  tokensPerDay: number | null
}

/** Why a key was refused: its status (401 or 403 for a key that cannot be used here) and a sentence. */
export type KeyRefusal = { refused: true; status: number; message: string }

export type VerifyKey = (request: FastifyRequest) => Promise<ApiCaller | KeyRefusal>
