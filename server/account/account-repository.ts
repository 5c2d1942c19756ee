/**
 * The rows an account is deleted with (D78): its attempt counters, keyed by a hash of its email
 * and so not tied to it by a foreign key, and the account row, whose foreign keys (all `on delete
 * cascade`) take everything else with it. One transaction: all or nothing.
 */
import { eq } from 'drizzle-orm'
import type { Db } from '../db/database.ts'
import { rateLimitCounters, users } from '../db/schema.ts'
import { subjectHash } from '../http/rate-limit-repository.ts'

export async function deleteAccountRows(db: Db, account: { id: string; email: string }): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(rateLimitCounters).where(eq(rateLimitCounters.subjectHash, subjectHash(account.email)))
    await tx.delete(users).where(eq(users.id, account.id))
  })
}
