/**
 * Personal API keys at rest (D124): every read and write names the owner, so another person's key
 * behaves like a missing one; the key's text never arrives here, only its keyed hash. A key is
 * read from the table on every request it authenticates (no cache), so a revocation, an expiry or
 * a deleted account ends it on every instance at once.
 */
import { and, desc, eq, isNull, lt, or, sql } from 'drizzle-orm'
import type { ApiKeyScope } from '#contracts/api-keys.ts'
import { bindDb } from '../db/bind-db.ts'
import type { Db } from '../db/database.ts'
import { queryRows } from '../db/query-rows.ts'
import { apiKeys, assistants, users } from '../db/schema.ts'

export type ApiKeyRecord = {
  id: string
  name: string
  prefix: string
  scopes: ApiKeyScope[]
  assistantId: string | null
  requestsPerMinute: number | null
  tokensPerDay: number | null
  createdAt: Date
  lastUsedAt: Date | null
  expiresAt: Date | null
}

export type NewApiKey = Omit<ApiKeyRecord, 'id' | 'lastUsedAt'> & { userId: string; keyHash: string }

/** A key found by its hash, with what deciding on it needs: its state and its owner's. */
export type ApiKeyHolder = ApiKeyRecord & {
  revokedAt: Date | null
  owner: { id: string; email: string; createdAt: Date; disabledAt: Date | null }
}

const recordColumns = {
  id: apiKeys.id,
  name: apiKeys.name,
  prefix: apiKeys.prefix,
  scopes: apiKeys.scopes,
  assistantId: apiKeys.assistantId,
  requestsPerMinute: apiKeys.requestsPerMinute,
  tokensPerDay: apiKeys.tokensPerDay,
  createdAt: apiKeys.createdAt,
  lastUsedAt: apiKeys.lastUsedAt,
  expiresAt: apiKeys.expiresAt,
}

/** Live: not revoked, and not expired at `now`. */
const live = (now: Date) =>
  and(isNull(apiKeys.revokedAt), or(isNull(apiKeys.expiresAt), sql`${apiKeys.expiresAt} > ${now}`))

/** The person's keys not revoked (expired ones too, so they see why a program stopped), newest first. */
export async function listKeys(db: Db, userId: string): Promise<ApiKeyRecord[]> {
  return db
    .select(recordColumns)
    .from(apiKeys)
    .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id))
}

/** Whether `assistantId` is one of the person's assistants. */
export async function ownsAssistant(db: Db, userId: string, assistantId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: assistants.id })
    .from(assistants)
    .where(and(eq(assistants.id, assistantId), eq(assistants.userId, userId)))
  return row !== undefined
}

/**
 * Stores a new key; 'limit' when the person already has `limit` live keys (counted under a lock
 * on the person, so two at once cannot both take the last place).
 */
export async function createKey(
  db: Db,
  input: NewApiKey & { limit: number },
): Promise<ApiKeyRecord | 'limit'> {
  const { limit, ...values } = input
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`api-keys:${values.userId}`}, 0))`)
    const [count] = await queryRows<{ n: number }>(
      tx,
      sql`select count(*)::int as n from api_keys where user_id = ${values.userId}
          and revoked_at is null and (expires_at is null or expires_at > ${values.createdAt})`,
    )
    if (Number(count?.n ?? 0) >= limit) return 'limit' as const
    const [row] = await tx.insert(apiKeys).values(values).returning(recordColumns)
    if (!row) throw new Error('Inserting an API key returned no row')
    return row
  })
}

/** Revokes one of the person's keys; false when it is not theirs or already revoked. */
export async function revokeKey(db: Db, userId: string, id: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(apiKeys)
    .set({ revokedAt: now })
    .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id })
  return rows.length > 0
}

/** Revokes every live key of the person (an account taken back, D99); how many. */
export async function revokeAllKeys(db: Db, userId: string, now: Date): Promise<number> {
  const rows = await db
    .update(apiKeys)
    .set({ revokedAt: now })
    .where(and(eq(apiKeys.userId, userId), live(now)))
    .returning({ id: apiKeys.id })
  return rows.length
}

/** The key with this hash and its owner, whatever its state; null when none (or its account is gone). */
export async function findByHash(db: Db, keyHash: string): Promise<ApiKeyHolder | null> {
  const [row] = await db
    .select({
      ...recordColumns,
      revokedAt: apiKeys.revokedAt,
      ownerId: users.id,
      email: users.email,
      ownerCreatedAt: users.createdAt,
      disabledAt: users.disabledAt,
    })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .where(eq(apiKeys.keyHash, keyHash))
  if (!row) return null
  const { ownerId, email, ownerCreatedAt, disabledAt, ...key } = row
  return { ...key, owner: { id: ownerId, email, createdAt: ownerCreatedAt, disabledAt } }
}

/** Records a use at `now` unless one was recorded since `since`: at most one write a key per interval. */
export async function touchKey(db: Db, id: string, now: Date, since: Date): Promise<void> {
  await db
    .update(apiKeys)
    .set({ lastUsedAt: now })
    .where(and(eq(apiKeys.id, id), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, since))))
}

export const apiKeyQueries = {
  listKeys,
  ownsAssistant,
  createKey,
  revokeKey,
  revokeAllKeys,
  findByHash,
  touchKey,
}

export type ApiKeysRepository = ReturnType<typeof createApiKeysRepository>

export function createApiKeysRepository(db: Db) {
  return bindDb(db, apiKeyQueries)
}
