/**
 * What a person's answers spent, per UTC day and source (usage_days, D119, D126):
 * USAGE_TOKENS_PER_DAY is checked against the day's sum, and Settings → Usage reads the same rows.
 * The published source is recorded by the visitor budgets inside their own transaction
 * (`addUsage`); the app's answers and the API's through the usage service (usage-service.ts).
 */
import { and, eq, sql } from 'drizzle-orm'
import type { Db } from '../db/database.ts'
import { usageDays } from '../db/schema.ts'

export type UsageSource = 'app' | 'published' | 'api'

export type UsageEntry = { userId: string; day: string; source: UsageSource; answers: number; tokens: number }

/** Adds answers and tokens to a person's day (inside the caller's transaction when given one). */
export async function addUsage(db: Db, entry: UsageEntry): Promise<void> {
  const t = usageDays
  await db
    .insert(t)
    .values(entry)
    .onConflictDoUpdate({
      target: [t.userId, t.day, t.source],
      set: { answers: sql`${t.answers} + ${entry.answers}`, tokens: sql`${t.tokens} + ${entry.tokens}` },
    })
}

export type UsageRepository = ReturnType<typeof createUsageRepository>

export function createUsageRepository(db: Db) {
  const t = usageDays
  return {
    record: (entry: UsageEntry) => addUsage(db, entry),

    /** A person's tokens on `day` (`YYYY-MM-DD`), every source together. */
    async tokensOn(userId: string, day: string): Promise<number> {
      const [row] = await db
        .select({ tokens: sql<number>`coalesce(sum(${t.tokens}), 0)::float8` })
        .from(t)
        .where(and(eq(t.userId, userId), eq(t.day, day)))
      return row?.tokens ?? 0
    },

    /** A person's days from `fromDay` on, per source, oldest first (what the usage view draws). */
    async days(userId: string, fromDay: string) {
      return db
        .select({ day: t.day, source: t.source, answers: t.answers, tokens: t.tokens })
        .from(t)
        .where(and(eq(t.userId, userId), sql`${t.day} >= ${fromDay}::date`))
        .orderBy(t.day, t.source)
    },
  }
}
