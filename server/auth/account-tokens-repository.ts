/**
 * The single-use links mailed to a person (D76): a password reset or an email confirmation.
 * Only the token's sha-256 is stored; taking a token marks it used in the same statement, so two
 * requests racing with one link cannot both succeed.
 */
import { and, eq, isNull, lt } from 'drizzle-orm'
import type { Db } from '../db/database.ts'
import { accountTokens } from '../db/schema.ts'

export type AccountTokenPurpose = 'reset-password' | 'confirm-email'

/** What presenting a token found: the account it is for, or why it does not work. */
export type TakenToken = { userId: string } | { refused: 'unknown' | 'used' | 'expired' }

export type AccountTokensRepository = ReturnType<typeof createAccountTokensRepository>

export function createAccountTokensRepository(db: Db) {
  const t = accountTokens
  return {
    /**
     * Stores a new token. With `replaceEarlier` the account's earlier unused tokens for the same
     * purpose stop working (a reset: only the newest link sets a password); without, they keep
     * working until they expire or are used (a confirmation, D100: the mail opened first may be
     * an older one).
     */
    async issue(input: {
      tokenHash: string
      userId: string
      purpose: AccountTokenPurpose
      now: Date
      expiresAt: Date
      replaceEarlier: boolean
    }): Promise<void> {
      await db.transaction(async (tx) => {
        if (input.replaceEarlier)
          await tx
            .delete(t)
            .where(and(eq(t.userId, input.userId), eq(t.purpose, input.purpose), isNull(t.usedAt)))
        // Spent and expired tokens of anyone are of no further use.
        await tx.delete(t).where(lt(t.expiresAt, input.now))
        await tx.insert(t).values({
          tokenHash: input.tokenHash,
          userId: input.userId,
          purpose: input.purpose,
          createdAt: input.now,
          expiresAt: input.expiresAt,
        })
      })
    },

    /** Marks the token used if it is unused and unexpired; says why not otherwise. */
    async take(tokenHash: string, purpose: AccountTokenPurpose, now: Date): Promise<TakenToken> {
      const [row] = await db
        .select({ userId: t.userId, usedAt: t.usedAt, expiresAt: t.expiresAt })
        .from(t)
        .where(and(eq(t.tokenHash, tokenHash), eq(t.purpose, purpose)))
        .limit(1)
      if (!row) return { refused: 'unknown' }
      if (row.usedAt !== null) return { refused: 'used' }
      if (row.expiresAt <= now) return { refused: 'expired' }
      const taken = await db
        .update(t)
        .set({ usedAt: now })
        .where(and(eq(t.tokenHash, tokenHash), isNull(t.usedAt)))
        .returning({ userId: t.userId })
      return taken[0] ? { userId: taken[0].userId } : { refused: 'used' }
    },
  }
}
