/**
 * Attempt counters in the database (D34): fixed windows, counted with one atomic upsert
 * so several app instances on one PostgreSQL share them, and nothing an attacker sends can push
 * another key out (there is no size-bounded table to evict from). Keys are stored hashed.
 */
import { createHash } from 'node:crypto'
import { eq, lt, sql } from 'drizzle-orm'
import type { Db } from '../db/database.ts'
import { rateLimitCounters } from '../db/schema.ts'

export type Counter = { count: number; windowEndsAt: Date }

/** Between a key and the account it is about (`accountScopedKey`); never in an email or an address. */
const SUBJECT_MARK = '\u001fsubject='

/**
 * The key of a counter about one account (its email, lowercased): the account's hash is stored
 * beside the counter, so deleting the account deletes its counters (D78).
 */
export function accountScopedKey(key: string, account: string): string {
  return `${key}${SUBJECT_MARK}${account.trim().toLowerCase()}`
}

/** What `subject_hash` holds for an account. */
export function subjectHash(account: string): string {
  return hashKey(`subject:${account.trim().toLowerCase()}`)
}

function subjectHashOf(key: string): string | null {
  const at = key.lastIndexOf(SUBJECT_MARK)
  return at === -1 ? null : subjectHash(key.slice(at + SUBJECT_MARK.length))
}

export type RateLimitRepository = ReturnType<typeof createRateLimitRepository>

export function createRateLimitRepository(db: Db) {
  const t = rateLimitCounters
  return {
    /** Counts one more attempt for `key`; a window that has ended starts again at 1. */
    async increment(key: string, windowMs: number, now: Date): Promise<Counter> {
      const ended = sql`${t.windowEndsAt} <= ${now}`
      const [row] = await db
        .insert(t)
        .values({
          keyHash: hashKey(key),
          count: 1,
          windowEndsAt: new Date(now.getTime() + windowMs),
          subjectHash: subjectHashOf(key),
        })
        .onConflictDoUpdate({
          target: t.keyHash,
          set: {
            count: sql`case when ${ended} then 1 else ${t.count} + 1 end`,
            windowEndsAt: sql`case when ${ended} then excluded.window_ends_at else ${t.windowEndsAt} end`,
          },
        })
        .returning({ count: t.count, windowEndsAt: t.windowEndsAt })
      if (!row) throw new Error('Counting an attempt returned no row')
      return row
    },

    /** The live count for `key` (0 when none or its window has ended), without counting. */
    async read(key: string, now: Date): Promise<Counter | null> {
      const [row] = await db
        .select({ count: t.count, windowEndsAt: t.windowEndsAt })
        .from(t)
        .where(eq(t.keyHash, hashKey(key)))
        .limit(1)
      return row && row.windowEndsAt > now ? row : null
    },

    /** Deletes every counter about one account (its email). */
    async deleteSubject(account: string): Promise<void> {
      await db.delete(t).where(eq(t.subjectHash, subjectHash(account)))
    },

    /** Deletes counters whose window ended before `now`. */
    async deleteEnded(now: Date): Promise<void> {
      await db.delete(t).where(lt(t.windowEndsAt, now))
    },
  }
}

function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex')
}
