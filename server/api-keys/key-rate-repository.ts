/**
 * A key's requests in each UTC minute (D134), in `api_key_counters` (period `minute`), so every
 * instance counts the same calls. Counting is one conditional upsert: the row's lock orders
 * parallel requests, and a request past the limit changes nothing, so 50 at once on any number of
 * instances admit exactly the limit. The endpoint's daily rows (tokens, D130) share the table and
 * are swept here too: every call with a key passes here, whichever domain it calls.
 */
import { and, eq, lt, or, sql } from 'drizzle-orm'
import type { Db } from '../db/database.ts'
import { apiKeyCounters } from '../db/schema.ts'

export type KeyRateRepository = ReturnType<typeof createKeyRateRepository>

export function createKeyRateRepository(db: Db) {
  const c = apiKeyCounters
  return {
    /** Counts one request in the minute starting at `minuteStart` unless it holds `limit` already; whether it did. */
    async countRequest(keyId: string, userId: string, minuteStart: Date, limit: number): Promise<boolean> {
      if (limit <= 0) return false
      const counted = await db
        .insert(c)
        .values({ keyId, userId, period: 'minute', windowStart: minuteStart, requests: 1 })
        .onConflictDoUpdate({
          target: [c.keyId, c.period, c.windowStart],
          set: { requests: sql`${c.requests} + 1` },
          setWhere: sql`${c.requests} < ${limit}`,
        })
        .returning({ requests: c.requests })
      return counted.length > 0
    },

    /** Deletes ended windows: minutes before `minutesBefore`, days before `daysBefore`. */
    async sweep(minutesBefore: Date, daysBefore: Date): Promise<void> {
      await db
        .delete(c)
        .where(
          or(
            and(eq(c.period, 'minute'), lt(c.windowStart, minutesBefore)),
            and(eq(c.period, 'day'), lt(c.windowStart, daysBefore)),
          ),
        )
    },
  }
}
