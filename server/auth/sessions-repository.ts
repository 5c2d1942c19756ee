/**
 * Sign-ins as refresh-token families: a family is one sign-in, each rotation adds a token to it
 * and marks the previous one used, and revocation ends the family as a whole.
 */
import { and, eq, isNull } from 'drizzle-orm'
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

export type RevokeReason = 'logout' | 'reuse'

export type SessionsRepository = ReturnType<typeof createSessionsRepository>

const familyColumns = {
  id: refreshTokenFamilies.id,
  userId: refreshTokenFamilies.userId,
  expiresAt: refreshTokenFamilies.expiresAt,
  revokedAt: refreshTokenFamilies.revokedAt,
}

export function createSessionsRepository(db: Db) {
  return {
    async startFamily(input: {
      userId: string
      now: Date
      familyExpiresAt: Date
      tokenHash: string
      tokenExpiresAt: Date
    }): Promise<FamilyRecord> {
      return db.transaction(async (tx) => {
        const [family] = await tx
          .insert(refreshTokenFamilies)
          .values({ userId: input.userId, createdAt: input.now, expiresAt: input.familyExpiresAt })
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
    },

    async findToken(tokenHash: string): Promise<{ token: RefreshTokenRecord; family: FamilyRecord } | null> {
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
    },

    /**
     * Marks `usedTokenId` used and adds its successor, atomically. False when the token had
     * already been used (a concurrent rotation won): the caller treats that as reuse.
     */
    async rotate(input: {
      usedTokenId: string
      familyId: string
      now: Date
      tokenHash: string
      tokenExpiresAt: Date
    }): Promise<boolean> {
      return db.transaction(async (tx) => {
        const used = await tx
          .update(refreshTokens)
          .set({ usedAt: input.now })
          .where(and(eq(refreshTokens.id, input.usedTokenId), isNull(refreshTokens.usedAt)))
          .returning({ id: refreshTokens.id })
        if (used.length === 0) return false
        await tx.insert(refreshTokens).values({
          familyId: input.familyId,
          tokenHash: input.tokenHash,
          createdAt: input.now,
          expiresAt: input.tokenExpiresAt,
        })
        return true
      })
    },

    async findFamily(id: string): Promise<FamilyRecord | null> {
      const rows = await db
        .select(familyColumns)
        .from(refreshTokenFamilies)
        .where(eq(refreshTokenFamilies.id, id))
        .limit(1)
      return rows[0] ?? null
    },

    /** Idempotent: the first reason recorded stays. */
    async revokeFamily(id: string, reason: RevokeReason, now: Date): Promise<void> {
      await db
        .update(refreshTokenFamilies)
        .set({ revokedAt: now, revokeReason: reason })
        .where(and(eq(refreshTokenFamilies.id, id), isNull(refreshTokenFamilies.revokedAt)))
    },
  }
}
