/**
 * What a person's answers spent, per UTC day and source (usage_days, D119, D126):
 * USAGE_TOKENS_PER_DAY is checked against the day's sum, and Settings → Usage reads the same rows.
 * The same write adds the answer to its API key's and its assistant's day (usage_subject_days,
 * D134), which only the usage report reads.
 * The published source is recorded by the visitor budgets inside their own transaction
 * (`addUsage`); the app's answers and the API's through the usage service (usage-service.ts).
 */
import { and, eq, gte, sql } from 'drizzle-orm'
import type { Db } from '../db/database.ts'
import { apiKeys, assistants, usageDays, usageSubjectDays } from '../db/schema.ts'

export type UsageSource = 'app' | 'published' | 'api'

export type UsageEntry = {
  userId: string
  day: string
  source: UsageSource
  answers: number
  tokens: number
  /** The API key that asked, when one did. */
  keyId?: string | null
  /** The assistant that answered, when one did. */
  assistantId?: string | null
}

/** One key's or assistant's figures for a month: its name (null once deleted) and key prefix. */
export type SubjectTotal = {
  kind: 'key' | 'assistant'
  id: string
  name: string | null
  prefix: string | null
  answers: number
  tokens: number
}

/**
 * Adds answers and tokens to a person's day, and to the day of the key and the assistant named
 * (inside the caller's transaction when given one, else in one of its own).
 */
export async function addUsage(db: Db, entry: UsageEntry): Promise<void> {
  const { keyId, assistantId, ...day } = entry
  const { userId, answers, tokens } = entry
  const subjects = [
    ...(keyId ? [{ kind: 'key' as const, subjectId: keyId }] : []),
    ...(assistantId ? [{ kind: 'assistant' as const, subjectId: assistantId }] : []),
  ]
  if (subjects.length === 0) return addDay(db, day)
  await db.transaction(async (tx) => {
    await addDay(tx, day)
    const s = usageSubjectDays
    await tx
      .insert(s)
      .values(subjects.map((subject) => ({ ...subject, userId, day: day.day, answers, tokens })))
      .onConflictDoUpdate({
        target: [s.userId, s.day, s.kind, s.subjectId],
        set: { answers: sql`${s.answers} + ${answers}`, tokens: sql`${s.tokens} + ${tokens}` },
      })
  })
}

async function addDay(db: Db, entry: Omit<UsageEntry, 'keyId' | 'assistantId'>): Promise<void> {
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

    /** A person's figures per key and per assistant from `fromDay` on, with their names as now. */
    async subjects(userId: string, fromDay: string): Promise<SubjectTotal[]> {
      const s = usageSubjectDays
      const rows = await db
        .select({
          kind: s.kind,
          id: s.subjectId,
          keyName: apiKeys.name,
          prefix: apiKeys.prefix,
          assistantName: assistants.name,
          answers: sql<number>`sum(${s.answers})::float8`,
          tokens: sql<number>`sum(${s.tokens})::float8`,
        })
        .from(s)
        .leftJoin(apiKeys, and(eq(s.kind, 'key'), eq(apiKeys.id, s.subjectId), eq(apiKeys.userId, userId)))
        .leftJoin(
          assistants,
          and(eq(s.kind, 'assistant'), eq(assistants.id, s.subjectId), eq(assistants.userId, userId)),
        )
        .where(and(eq(s.userId, userId), gte(s.day, fromDay)))
        .groupBy(s.kind, s.subjectId, apiKeys.name, apiKeys.prefix, assistants.name)
      return rows.map(({ keyName, assistantName, ...row }) => ({
        ...row,
        name: (row.kind === 'key' ? keyName : assistantName) ?? null,
        prefix: row.kind === 'key' ? (row.prefix ?? null) : null,
        answers: Number(row.answers),
        tokens: Number(row.tokens),
      }))
    },
  }
}
