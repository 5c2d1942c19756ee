/**
 * The API's answer quotas in the database (D130, on D119's pattern), so every instance counts the
 * same answers: an admission reads the counts and takes its place in one transaction, after
 * transaction-scoped advisory locks on the key, then on the person (the lock the app's claims
 * take too, D134). Two admissions, on one connection or two instances, never both see the last
 * place free. Finishing adds the tokens and gives the place back. A key's requests a minute are
 * counted before this, where the key is verified (api-keys/key-rate.ts).
 */
import { sql } from 'drizzle-orm'
import type { Db } from '../db/database.ts'
import { queryRows } from '../db/query-rows.ts'
import { apiKeyCounters } from '../db/schema.ts'
import {
  answersAtOnce,
  endApiAnswer,
  lockAnswersOf,
  takeApiAnswer,
} from '../usage/answers-at-once-repository.ts'
import { addUsage } from '../usage/usage-repository.ts'

/** Where an admission is counted: the app's clock already cut into its UTC windows. */
export type QuotaWindows = {
  keyId: string
  userId: string
  /** The assistant asked; null: the whole library. */
  assistantId: string | null
  /** The UTC day as `YYYY-MM-DD` (usage_days) and where it starts (api_key_counters). */
  day: string
  dayStart: Date
  /** The app's clock at admission, and how long the answer's place is held at most. */
  at: Date
  leaseUntil: Date
}

/** What the quotas are checked against, read under the locks. */
export type QuotaCounts = {
  keyTokensToday: number
  /** The person's tokens today, every source together (USAGE_TOKENS_PER_DAY). */
  personTokensToday: number
  /** The person's answers being written now, the app's and the API's (LLM_CONCURRENCY_PER_USER). */
  answersAtOnce: number
}

export type QuotasRepository = ReturnType<typeof createQuotasRepository>

export function createQuotasRepository(db: Db) {
  const c = apiKeyCounters

  async function readCounts(tx: Db, w: QuotaWindows): Promise<QuotaCounts> {
    const [row] = await queryRows<QuotaCounts>(
      tx,
      sql`select
        coalesce((select tokens from api_key_counters
          where key_id = ${w.keyId} and period = 'day'
            and window_start = ${w.dayStart.toISOString()}::timestamptz), 0)::float8 as "keyTokensToday",
        coalesce((select sum(tokens) from usage_days where user_id = ${w.userId} and day = ${w.day}::date), 0)::float8
          as "personTokensToday",
        ${answersAtOnce(w.userId, w.at)}::float8 as "answersAtOnce"`,
    )
    if (!row) throw new Error('Reading the API key quotas returned no row')
    return row
  }

  /** Counts the answer in the key's day (its row then holds the day's tokens). */
  async function countDay(tx: Db, w: QuotaWindows, requests: number, tokens: number) {
    await tx
      .insert(c)
      .values({ keyId: w.keyId, userId: w.userId, period: 'day', windowStart: w.dayStart, requests, tokens })
      .onConflictDoUpdate({
        target: [c.keyId, c.period, c.windowStart],
        set: { requests: sql`${c.requests} + ${requests}`, tokens: sql`${c.tokens} + ${tokens}` },
      })
  }

  const usageOf = (w: QuotaWindows, answers: number, tokens: number) => ({
    userId: w.userId,
    day: w.day,
    source: 'api' as const,
    answers,
    tokens,
    keyId: w.keyId,
    assistantId: w.assistantId,
  })

  return {
    /**
     * Reads the counts and, unless `decide` names a refusal, counts the answer (the key's day, the
     * person's, the key's and the assistant's API answers) and takes its place among the person's
     * answers at once: the lease's id.
     */
    async admit<R>(
      w: QuotaWindows,
      decide: (counts: QuotaCounts) => R | null,
    ): Promise<{ refused: R } | { refused: null; leaseId: string }> {
      return db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`api-key:${w.keyId}`}, 0))`)
        await lockAnswersOf(tx, w.userId)
        const refused = decide(await readCounts(tx, w))
        if (refused !== null) return { refused }
        await countDay(tx, w, 1, 0)
        await addUsage(tx, usageOf(w, 1, 0))
        return { refused: null, leaseId: await takeApiAnswer(tx, w.userId, w.at, w.leaseUntil) }
      })
    },

    /** Gives the answer's place back and adds what it spent to the day it was admitted on. */
    async finish(w: QuotaWindows, leaseId: string, tokens: number): Promise<void> {
      await db.transaction(async (tx) => {
        await endApiAnswer(tx, leaseId)
        if (tokens <= 0) return
        await countDay(tx, w, 0, tokens)
        await addUsage(tx, usageOf(w, 0, tokens))
      })
    },
  }
}
