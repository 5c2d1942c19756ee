/**
 * A person's answers being written at once, the app's and the API's together, held to
 * LLM_CONCURRENCY_PER_USER (D84, D134). The app's are its conversations' claims
 * (chat_sessions.answering_until), the API's their leases (api_answer_leases): both are counted,
 * and taken, under one transaction-scoped advisory lock on the person, so two instances never both
 * take the last place. Here, below the chat and the API, so both read one count.
 */
import { and, eq, lte, type SQL, sql } from 'drizzle-orm'
import type { Db } from '../db/database.ts'
import { apiAnswerLeases } from '../db/schema.ts'

/** Takes the person's answers lock until the caller's transaction ends. */
export async function lockAnswersOf(tx: Db, userId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`chat-answers:${userId}`}, 0))`)
}

/** The person's answers being written at `now`, everywhere (an SQL number, read under the lock). */
export function answersAtOnce(userId: string, now: Date): SQL<number> {
  const at = now.toISOString()
  return sql<number>`((
    select count(*) from chat_sessions
    where user_id = ${userId} and answering_until > ${at}::timestamptz
  ) + (
    select count(*) from api_answer_leases
    where user_id = ${userId} and until > ${at}::timestamptz
  ))`
}

/** Takes a place for one API answer until `until` (under the lock); lapsed leases of the person go. */
export async function takeApiAnswer(tx: Db, userId: string, now: Date, until: Date): Promise<string> {
  const l = apiAnswerLeases
  await tx.delete(l).where(and(eq(l.userId, userId), lte(l.until, now)))
  const [lease] = await tx.insert(l).values({ userId, until }).returning({ id: l.id })
  if (!lease) throw new Error('Taking an API answer lease returned no row')
  return lease.id
}

/** Gives the place back when the answer ends. */
export async function endApiAnswer(db: Db, leaseId: string): Promise<void> {
  await db.delete(apiAnswerLeases).where(eq(apiAnswerLeases.id, leaseId))
}
