/**
 * API keys' quotas in the database (D130, on D119's pattern), so every instance counts the same
 * requests: an admission reads the counts and takes its place in one transaction, after a
 * transaction-scoped advisory lock on the key. Two admissions for one key, on one connection or
 * two instances, never both see the last place free. Finishing adds the tokens; no lock is
 * needed for that.
 */
import { and, eq, lt, or, sql } from 'drizzle-orm'
import type { Db } from '../db/database.ts'
import { queryRows } from '../db/query-rows.ts'
import { apiKeyCounters } from '../db/schema.ts'
import { addUsage } from '../usage/usage-repository.ts'

/** Where an admission is counted: the app's clock already cut into its UTC windows. */
export type QuotaWindows = {
  keyId: string
  userId: string
  /** The UTC day as `YYYY-MM-DD` (usage_days) and where it starts (api_key_counters). */
  day: string
  dayStart: Date
  minuteStart: Date
}

/** What the quotas are checked against, read under the key's lock. */
export type QuotaCounts = {
  keyRequestsThisMinute: number
  keyTokensToday: number
  /** The person's tokens today, every source together (USAGE_TOKENS_PER_DAY). */
  personTokensToday: number
}

export type QuotasRepository = ReturnType<typeof createQuotasRepository>

export function createQuotasRepository(db: Db) {
  const c = apiKeyCounters

  async function readCounts(tx: Db, w: QuotaWindows): Promise<QuotaCounts> {
    const counter = (period: 'minute' | 'day', start: Date, column: 'requests' | 'tokens') =>
      sql`coalesce((select ${sql.identifier(column)} from api_key_counters
        where key_id = ${w.keyId} and period = ${period}
          and window_start = ${start.toISOString()}::timestamptz), 0)::float8`
    const [row] = await queryRows<QuotaCounts>(
      tx,
      sql`select
        ${counter('minute', w.minuteStart, 'requests')} as "keyRequestsThisMinute",
        ${counter('day', w.dayStart, 'tokens')} as "keyTokensToday",
        coalesce((select sum(tokens) from usage_days where user_id = ${w.userId} and day = ${w.day}::date), 0)::float8
          as "personTokensToday"`,
    )
    if (!row) throw new Error('Reading the API key quotas returned no row')
    return row
  }

  async function countRequest(tx: Db, w: QuotaWindows, period: 'minute' | 'day') {
    const windowStart = period === 'day' ? w.dayStart : w.minuteStart
    await tx
      .insert(c)
      .values({ keyId: w.keyId, userId: w.userId, period, windowStart, requests: 1 })
      .onConflictDoUpdate({
        target: [c.keyId, c.period, c.windowStart],
        set: { requests: sql`${c.requests} + 1` },
      })
  }

  return {
    /**
     * Reads the counts and, unless `decide` names a refusal, counts the request (the key's minute
     * and day, the person's API answers).
     */
    async admit<R>(
      w: QuotaWindows,
      decide: (counts: QuotaCounts) => R | null,
    ): Promise<{ refused: R | null }> {
      return db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`api-key:${w.keyId}`}, 0))`)
        const refused = decide(await readCounts(tx, w))
        if (refused !== null) return { refused }
        await countRequest(tx, w, 'minute')
        await countRequest(tx, w, 'day')
        await addUsage(tx, { userId: w.userId, day: w.day, source: 'api', answers: 1, tokens: 0 })
        return { refused: null }
      })
    },

    /** Adds what the answer spent to the key's day and the person's, the day it was admitted on. */
    async finish(w: QuotaWindows, tokens: number): Promise<void> {
      if (tokens <= 0) return
      await db.transaction(async (tx) => {
        await tx
          .update(c)
          .set({ tokens: sql`${c.tokens} + ${tokens}` })
          .where(and(eq(c.keyId, w.keyId), eq(c.period, 'day'), eq(c.windowStart, w.dayStart)))
        await addUsage(tx, { userId: w.userId, day: w.day, source: 'api', answers: 0, tokens })
      })
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
