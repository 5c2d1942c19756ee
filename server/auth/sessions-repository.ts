/**
 * Sign-ins as refresh-token families: a family is one sign-in, each rotation adds a token to it
 * and marks the previous one used, and revocation ends the family as a whole.
 */
import { and, desc, eq, gt, isNull, ne, type SQL } from 'drizzle-orm'
import { bindDb } from '../db/bind-db.ts'
import type { Db } from '../db/database.ts'
import { refreshTokenFamilies, refreshTokens } from '../db/schema.ts'

export type FamilyRecord = {
  id: string
  userId: string
  expiresAt: Date
  revokedAt: Date | null
}

export type RefreshTokenRecord = {
  id: string
  familyId: string
  expiresAt: Date
  usedAt: Date | null
}

export type RevokeReason =
  | 'logout'
  | 'reuse'
  | 'password-reset'
  | 'password-changed'
  | 'signed-out-remotely'
  | 'disabled'
  | 'account-deleted'
  /** The address's owner signed in with Google; the account's address had never been proven (D99). */
  | 'claimed-by-google'

/** A live sign-in as the sessions list shows it. */
export type LiveFamilyRecord = {
  id: string
  userAgent: string | null
  address: string | null
  createdAt: Date
  lastUsedAt: Date | null
}

export type SessionsRepository = ReturnType<typeof createSessionsRepository>

const familyColumns = {
  id: refreshTokenFamilies.id,
  userId: refreshTokenFamilies.userId,
  expiresAt: refreshTokenFamilies.expiresAt,
  revokedAt: refreshTokenFamilies.revokedAt,
}

async function startFamily(
  db: Db,
  input: {
    userId: string
    now: Date
    familyExpiresAt: Date
    tokenHash: string
    tokenExpiresAt: Date
    userAgent: string | null
    address: string | null
  },
): Promise<FamilyRecord> {
  return db.transaction(async (tx) => {
    const [family] = await tx
      .insert(refreshTokenFamilies)
      .values({
        userId: input.userId,
        createdAt: input.now,
        expiresAt: input.familyExpiresAt,
        userAgent: input.userAgent,
        address: input.address,
        lastUsedAt: input.now,
      })
      .returning(familyColumns)
    if (!family) throw new Error('Inserting a refresh-token family returned no row')
    await tx.insert(refreshTokens).values({
      familyId: family.id,
      tokenHash: input.tokenHash,
      createdAt: input.now,
      expiresAt: input.tokenExpiresAt,
    })
    return family
  })
}

async function findToken(
  db: Db,
  tokenHash: string,
): Promise<{ token: RefreshTokenRecord; family: FamilyRecord } | null> {
  const rows = await db
    .select({
      token: {
        id: refreshTokens.id,
        familyId: refreshTokens.familyId,
        expiresAt: refreshTokens.expiresAt,
        usedAt: refreshTokens.usedAt,
      },
      family: familyColumns,
    })
    .from(refreshTokens)
    .innerJoin(refreshTokenFamilies, eq(refreshTokens.familyId, refreshTokenFamilies.id))
    .where(eq(refreshTokens.tokenHash, tokenHash))
    .limit(1)
  return rows[0] ?? null
}

/**
 * Marks `usedTokenId` used and adds its successor, atomically. False when the token had
 * already been used (a concurrent rotation won): the caller treats that as reuse.
 */
async function rotate(
  db: Db,
  input: {
    usedTokenId: string
    familyId: string
    now: Date
    tokenHash: string
    tokenExpiresAt: Date
  },
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const used = await tx
      .update(refreshTokens)
      .set({ usedAt: input.now })
      .where(and(eq(refreshTokens.id, input.usedTokenId), isNull(refreshTokens.usedAt)))
      .returning({ id: refreshTokens.id })
    if (used.length === 0) return false
    await tx
      .update(refreshTokenFamilies)
      .set({ lastUsedAt: input.now })
      .where(eq(refreshTokenFamilies.id, input.familyId))
    await tx.insert(refreshTokens).values({
      familyId: input.familyId,
      tokenHash: input.tokenHash,
      createdAt: input.now,
      expiresAt: input.tokenExpiresAt,
    })
    return true
  })
}

async function findFamily(db: Db, id: string): Promise<FamilyRecord | null> {
  const rows = await db
    .select(familyColumns)
    .from(refreshTokenFamilies)
    .where(eq(refreshTokenFamilies.id, id))
    .limit(1)
  return rows[0] ?? null
}

/** The account's sign-ins that are neither revoked nor past their cap, most recently used first. */
async function listLive(db: Db, userId: string, now: Date): Promise<LiveFamilyRecord[]> {
  const f = refreshTokenFamilies
  return db
    .select({
      id: f.id,
      userAgent: f.userAgent,
      address: f.address,
      createdAt: f.createdAt,
      lastUsedAt: f.lastUsedAt,
    })
    .from(f)
    .where(and(eq(f.userId, userId), isNull(f.revokedAt), gt(f.expiresAt, now)))
    .orderBy(desc(f.lastUsedAt), desc(f.createdAt))
}

/** Revokes every live sign-in of the account (but `exceptId`); answers the ids it revoked. */
async function revokeAllOf(
  db: Db,
  userId: string,
  reason: RevokeReason,
  now: Date,
  exceptId?: string,
): Promise<string[]> {
  const f = refreshTokenFamilies
  const conditions: SQL[] = [eq(f.userId, userId), isNull(f.revokedAt)]
  if (exceptId) conditions.push(ne(f.id, exceptId))
  const rows = await db
    .update(f)
    .set({ revokedAt: now, revokeReason: reason })
    .where(and(...conditions))
    .returning({ id: f.id })
  return rows.map((row) => row.id)
}

/** Idempotent: the first reason recorded stays. */
async function revokeFamily(db: Db, id: string, reason: RevokeReason, now: Date): Promise<void> {
  await db
    .update(refreshTokenFamilies)
    .set({ revokedAt: now, revokeReason: reason })
    .where(and(eq(refreshTokenFamilies.id, id), isNull(refreshTokenFamilies.revokedAt)))
}

/** Each query a function of its own, taking the database first (D108), bound to one database. */
export function createSessionsRepository(db: Db) {
  return bindDb(db, { startFamily, findToken, rotate, findFamily, listLive, revokeAllOf, revokeFamily })
}
