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

export type RateLimitRepository = ReturnType<typeof createRateLimitRepository>

export function createRateLimitRepository(db: Db) {
  const t = rateLimitCounters
  return {
    /** Counts one more attempt for `key`; a window that has ended starts again at 1. */
    async increment(key: string, windowMs: number, now: Date): Promise<Counter> {
      const ended = sql`${t.windowEndsAt} <= ${now}`
      const [row] = await db
        .insert(t)
        .values({ keyHash: hashKey(key), count: 1, windowEndsAt: new Date(now.getTime() + windowMs) })
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

    /** Deletes counters whose window ended before `now`. */
    async deleteEnded(now: Date): Promise<void> {
      await db.delete(t).where(lt(t.windowEndsAt, now))
    },
  }
}

function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex')
}
