/**
 * Proof-of-work solutions already accepted (used_challenges, D119): marking one is a single
 * insert that only the first of any number of instances wins, so a solution counts once.
 */
import { lte } from 'drizzle-orm'
import type { Db } from '../db/database.ts'
import { usedChallenges } from '../db/schema.ts'

export type ChallengesRepository = ReturnType<typeof createChallengesRepository>

export function createChallengesRepository(db: Db) {
  const t = usedChallenges
  return {
    /** True the first time `signatureHash` is marked; false when it was already used. */
    async markUsed(signatureHash: string, expiresAt: Date): Promise<boolean> {
      const rows = await db
        .insert(t)
        .values({ signatureHash, expiresAt })
        .onConflictDoNothing({ target: t.signatureHash })
        .returning({ signatureHash: t.signatureHash })
      return rows.length > 0
    },

    /** Forgets solutions whose challenge has expired: they are refused as expired anyway. */
    async deleteExpired(now: Date): Promise<void> {
      await db.delete(t).where(lte(t.expiresAt, now))
    },
  }
}
