/**
 * Visitor budgets in the database (D119), so every instance counts the same answers. An
 * admission reads the counts and takes its places in one transaction, after a transaction-scoped
 * advisory lock on the assistant (as the chat's claim does, D84): two admissions for one assistant,
 * on one connection or two instances, never both see the last place free. Finishing adds the
 * tokens and ends the lease; no lock is needed for that, a lease only ever frees places.
 */
import { and, eq, lt, lte, ne, or, sql } from 'drizzle-orm'
import type { Db } from '../db/database.ts'
import { queryRows } from '../db/query-rows.ts'
import { publishedAnswerLeases, publishedCounters } from '../db/schema.ts'
import { addUsage } from '../usage/usage-repository.ts'

/** Where an admission is counted: the app's clock already cut into its UTC windows. */
export type BudgetWindows = {
  ownerId: string
  assistantId: string
  visitorHash: string
  now: Date
  /** The UTC day as `YYYY-MM-DD` (usage_days) and where it starts (published_counters). */
  day: string
  dayStart: Date
  hourStart: Date
  leaseUntil: Date
}

/** What the budgets are checked against, read under the assistant's lock. */
export type BudgetCounts = {
  assistantAnswersToday: number
  assistantTokensToday: number
  visitorAnswersThisHour: number
  visitorAnswersToday: number
  /** Whether this visitor has an answer being written (a live lease). */
  visitorAnswering: boolean
  /** The assistant's answers being written (live leases). */
  answersAtOnce: number
  /** The owner's tokens today, every source together. */
  ownerTokensToday: number
}

export type AdmitOutcome<R> = { leaseId: string } | { refused: R }

export type BudgetsRepository = ReturnType<typeof createBudgetsRepository>

const ASSISTANT = ''

/** A published answer's usage: the owner's day and the assistant's (D134). */
const publishedUsage = (
  ownerId: string,
  assistantId: string,
  day: string,
  answers: number,
  tokens: number,
) => ({
  userId: ownerId,
  day,
  source: 'published' as const,
  answers,
  tokens,
  assistantId,
})

export function createBudgetsRepository(db: Db) {
  const c = publishedCounters
  const l = publishedAnswerLeases

  async function readCounts(tx: Db, w: BudgetWindows): Promise<BudgetCounts> {
    const counter = (visitor: string, period: 'day' | 'hour', start: Date, column: 'answers' | 'tokens') =>
      sql`coalesce((select ${sql.identifier(column)} from published_counters
        where assistant_id = ${w.assistantId} and visitor_hash = ${visitor} and period = ${period}
          and window_start = ${start.toISOString()}::timestamptz), 0)::float8`
    const now = sql`${w.now.toISOString()}::timestamptz`
    const [row] = await queryRows<BudgetCounts>(
      tx,
      sql`select
        ${counter(ASSISTANT, 'day', w.dayStart, 'answers')} as "assistantAnswersToday",
        ${counter(ASSISTANT, 'day', w.dayStart, 'tokens')} as "assistantTokensToday",
        ${counter(w.visitorHash, 'hour', w.hourStart, 'answers')} as "visitorAnswersThisHour",
        ${counter(w.visitorHash, 'day', w.dayStart, 'answers')} as "visitorAnswersToday",
        exists (select 1 from published_answer_leases where assistant_id = ${w.assistantId}
          and visitor_hash = ${w.visitorHash} and expires_at > ${now}) as "visitorAnswering",
        (select count(*) from published_answer_leases where assistant_id = ${w.assistantId}
          and expires_at > ${now})::int as "answersAtOnce",
        coalesce((select sum(tokens) from usage_days where user_id = ${w.ownerId} and day = ${w.day}::date), 0)::float8
          as "ownerTokensToday"`,
    )
    if (!row) throw new Error('Reading the visitor budgets returned no row')
    return row
  }

  async function countAnswer(tx: Db, w: BudgetWindows, visitor: string, period: 'day' | 'hour') {
    const windowStart = period === 'day' ? w.dayStart : w.hourStart
    await tx
      .insert(c)
      .values({ assistantId: w.assistantId, visitorHash: visitor, period, windowStart, answers: 1 })
      .onConflictDoUpdate({
        target: [c.assistantId, c.visitorHash, c.period, c.windowStart],
        set: { answers: sql`${c.answers} + 1` },
      })
  }

  return {
    /**
     * Reads the counts and, unless `decide` names a refusal, counts the answer (the assistant's
     * day, the visitor's hour and day, the owner's published answers) and takes a lease.
     */
    async admit<R>(w: BudgetWindows, decide: (counts: BudgetCounts) => R | null): Promise<AdmitOutcome<R>> {
      return db.transaction(async (tx) => {
        await tx.execute(
          sql`select pg_advisory_xact_lock(hashtextextended(${`published-answers:${w.assistantId}`}, 0))`,
        )
        const refused = decide(await readCounts(tx, w))
        if (refused !== null) return { refused }
        await countAnswer(tx, w, ASSISTANT, 'day')
        await countAnswer(tx, w, w.visitorHash, 'hour')
        await countAnswer(tx, w, w.visitorHash, 'day')
        await addUsage(tx, publishedUsage(w.ownerId, w.assistantId, w.day, 1, 0))
        const [lease] = await tx
          .insert(l)
          .values({ assistantId: w.assistantId, visitorHash: w.visitorHash, expiresAt: w.leaseUntil })
          .returning({ id: l.id })
        if (!lease) throw new Error('Taking an answer lease returned no row')
        return { leaseId: lease.id }
      })
    },

    /** Ends the lease and adds what the answer spent to the day it was admitted on. */
    async finish(input: {
      leaseId: string
      ownerId: string
      assistantId: string
      day: string
      dayStart: Date
      tokens: number
    }) {
      await db.transaction(async (tx) => {
        await tx.delete(l).where(eq(l.id, input.leaseId))
        if (input.tokens <= 0) return
        await tx
          .update(c)
          .set({ tokens: sql`${c.tokens} + ${input.tokens}` })
          .where(
            and(
              eq(c.assistantId, input.assistantId),
              eq(c.visitorHash, ASSISTANT),
              eq(c.period, 'day'),
              eq(c.windowStart, input.dayStart),
            ),
          )
        await addUsage(tx, publishedUsage(input.ownerId, input.assistantId, input.day, 0, input.tokens))
      })
    },

    /**
     * Deletes what no budget reads any more: leases past their expiry, visitors' windows that
     * have ended (those that started before `visitorWindowsBefore`), the assistants' own days
     * before `keepDaysFrom`.
     */
    async sweep(now: Date, visitorWindowsBefore: Date, keepDaysFrom: Date): Promise<void> {
      await db.delete(l).where(lte(l.expiresAt, now))
      await db
        .delete(c)
        .where(
          or(
            and(ne(c.visitorHash, ASSISTANT), lt(c.windowStart, visitorWindowsBefore)),
            lt(c.windowStart, keepDaysFrom),
          ),
        )
    },
  }
}
