/**
 * Personal API keys (issue 38, D124): the Settings calls (list, make, revoke) and `verify`, which
 * decides on the key a request carries. Nothing is cached: each request reads its key from the
 * table, so a key revoked, expired (on the injected clock) or whose account was deleted or
 * disabled is refused by the next request on every instance. The last use is written at most once
 * a minute per key.
 */
import type { ApiKey, ApiKeyScope, CreateApiKeyRequest, CreatedApiKey } from '#contracts/api-keys.ts'
import { API_KEYS_PER_PERSON } from '#contracts/api-keys.ts'
import type { CurrentUser } from '../auth/auth-service.ts'
import type { ApiKeyLimits } from '../config.ts'
import {
  ApiKeyNotFound,
  type ApiKeyRefusal,
  AssistantNotYours,
  expiredApiKey,
  INVALID_API_KEY,
  LimitAboveServer,
  missingScope,
  REVOKED_API_KEY,
  refusal,
  TooManyApiKeys,
  tooManyRequests,
} from './api-key-errors.ts'
import type { ApiKeyRecord, ApiKeysRepository } from './api-keys-repository.ts'
import { isKeyShaped, type KeyHasher, newKey } from './key-material.ts'
import type { KeyRate } from './key-rate.ts'

const DAY_MS = 24 * 60 * 60_000
/** Whose keys: the calls need only the person's id. */
type Owner = Pick<CurrentUser, 'id'>
/** A key's last use is written when the one recorded is older than this. */
export const LAST_USED_EVERY_MS = 60_000

/** Who a valid key speaks for and what it may do: what /api/v1 and /openai/v1 routes are handed. */
export type ApiKeyPrincipal = {
  keyId: string
  ownerId: string
  /** The owner as a signed-in request's `request.user` is, so a route's handler serves both alike. */
  owner: CurrentUser
  scopes: ApiKeyScope[]
  /** Only this assistant, or null: every assistant of the owner. */
  assistantId: string | null
  /** The key's own limit, else the operator's (API_KEY_REQUESTS_PER_MINUTE). */
  requestsPerMinute: number
  /** The key's own limit, else the operator's (API_KEY_TOKENS_PER_DAY). */
  tokensPerDay: number
}

export type ApiKeysDeps = {
  rows: ApiKeysRepository
  hash: KeyHasher
  now: () => Date
  /** The operator's limits: a key may set lower ones, never higher. */
  limits: ApiKeyLimits
  /** Counts every verified call against the key's requests a minute (D134). */
  rate: KeyRate
}

export class ApiKeysService {
  readonly #deps: ApiKeysDeps

  constructor(deps: ApiKeysDeps) {
    this.#deps = deps
  }

  async list(user: Owner): Promise<ApiKey[]> {
    return (await this.#deps.rows.listKeys(user.id)).map(toApiKey)
  }

  async create(user: Owner, request: CreateApiKeyRequest): Promise<CreatedApiKey> {
    const { rows, limits } = this.#deps
    const requestsPerMinute = request.requestsPerMinute ?? null
    const tokensPerDay = request.tokensPerDay ?? null
    if (requestsPerMinute !== null && requestsPerMinute > limits.requestsPerMinute)
      throw new LimitAboveServer('requestsPerMinute', limits.requestsPerMinute)
    if (tokensPerDay !== null && tokensPerDay > limits.tokensPerDay)
      throw new LimitAboveServer('tokensPerDay', limits.tokensPerDay)
    const assistantId = request.assistantId ?? null
    if (assistantId !== null && !(await rows.ownsAssistant(user.id, assistantId)))
      throw new AssistantNotYours(assistantId)
    const now = this.#deps.now()
    const { key, prefix } = newKey()
    const created = await rows.createKey({
      userId: user.id,
      name: request.name,
      prefix,
      keyHash: this.#deps.hash(key),
      scopes: request.scopes,
      assistantId,
      requestsPerMinute,
      tokensPerDay,
      createdAt: now,
      expiresAt:
        request.expiresInDays === null ? null : new Date(now.getTime() + request.expiresInDays * DAY_MS),
      limit: API_KEYS_PER_PERSON,
    })
    if (created === 'limit') throw new TooManyApiKeys()
    return { ...toApiKey(created), key }
  }

  async remove(user: Owner, id: string): Promise<void> {
    if (!(await this.#deps.rows.revokeKey(user.id, id, this.#deps.now()))) throw new ApiKeyNotFound()
  }

  /** Ends every key of the person (an account taken back by its owner, D99); how many. */
  revokeAll(userId: string): Promise<number> {
    return this.#deps.rows.revokeAllKeys(userId, this.#deps.now())
  }

  /**
   * The principal `key` speaks for, or why not: unknown, revoked, expired, its account disabled
   * or gone, (with `scope`) not allowed that, or its requests this minute spent (429): every
   * call made with a key is counted here, whichever route it calls (D134). Records the use.
   */
  async verify(key: string, scope?: ApiKeyScope): Promise<ApiKeyPrincipal | ApiKeyRefusal> {
    if (!isKeyShaped(key)) return refusal(401, 'invalid_api_key', INVALID_API_KEY)
    const { rows, now: clock, limits } = this.#deps
    const found = await rows.findByHash(this.#deps.hash(key))
    if (!found || found.owner.disabledAt !== null) return refusal(401, 'invalid_api_key', INVALID_API_KEY)
    if (found.revokedAt !== null) return refusal(401, 'invalid_api_key', REVOKED_API_KEY)
    const now = clock()
    if (found.expiresAt !== null && found.expiresAt.getTime() <= now.getTime())
      return refusal(401, 'invalid_api_key', expiredApiKey(found.expiresAt))
    if (scope !== undefined && !found.scopes.includes(scope))
      return refusal(403, 'insufficient_scope', missingScope(scope))
    if (found.lastUsedAt === null || now.getTime() - found.lastUsedAt.getTime() >= LAST_USED_EVERY_MS) {
      await rows.touchKey(found.id, now, new Date(now.getTime() - LAST_USED_EVERY_MS))
    }
    const requestsPerMinute = found.requestsPerMinute ?? limits.requestsPerMinute
    const wait = await this.#deps.rate.admit({
      keyId: found.id,
      userId: found.owner.id,
      requestsPerMinute,
      at: now,
    })
    if (wait !== null) return tooManyRequests(wait)
    const { id, email, createdAt } = found.owner
    return {
      keyId: found.id,
      ownerId: id,
      owner: { id, email, createdAt },
      scopes: found.scopes,
      assistantId: found.assistantId,
      requestsPerMinute,
      tokensPerDay: found.tokensPerDay ?? limits.tokensPerDay,
    }
  }
}

function toApiKey(row: ApiKeyRecord): ApiKey {
  return {
    _id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: row.scopes,
    assistantId: row.assistantId,
    requestsPerMinute: row.requestsPerMinute,
    tokensPerDay: row.tokensPerDay,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
  }
}
