/**
 * A person's Drive sync as stored (`drive_syncs`, D27): who is listing their Drive now (one
 * listing at a time across instances, under a lease) and what the last listing found, with the
 * change feed's token the next sync starts from.
 */
import { eq, sql } from 'drizzle-orm'
import type { Db } from '../db/database.ts'
import { driveSyncs, libraryDocuments } from '../db/schema.ts'

/** A statement runner: the database or one of its transactions. */
type Executor = Pick<Db, 'update'>

/** What one listing found, by library id (queued files) or by name; kept in drive_syncs.plan. */
export type DriveSyncPlan = {
  added: string[]
  updated: string[]
  unchanged: string[]
  removed: string[]
  skipped: { name: string; reason: string }[]
}

const eqUser = (userId: string) => eq(driveSyncs.userId, userId)

/** How long one listing may hold the user's sync before another instance may start one. */
export const LISTING_LEASE_MS = 5 * 60_000

/**
 * Takes the user's sync for a listing: true when nobody else is listing their Drive (or the one
 * who was has been silent past its lease: its process died). One row per user, so two instances
 * asking at once get one true between them.
 */
export async function beginListing(db: Db, userId: string, now: Date): Promise<boolean> {
  const until = new Date(now.getTime() + LISTING_LEASE_MS)
  const rows = await db
    .insert(driveSyncs)
    .values({ userId, listingUntil: until, startedAt: now })
    .onConflictDoUpdate({
      target: driveSyncs.userId,
      set: { listingUntil: until, startedAt: now },
      where: sql`${driveSyncs.listingUntil} is null or ${driveSyncs.listingUntil} < ${now.toISOString()}::timestamptz`,
    })
    .returning({ userId: driveSyncs.userId })
  return rows.length > 0
}

export async function endListing(db: Db, userId: string): Promise<void> {
  await db.update(driveSyncs).set({ listingUntil: null }).where(eqUser(userId))
}

/** Whether a listing of the user's Drive is under way (on any instance); the plan is not read. */
export async function isListing(db: Db, userId: string, now: Date): Promise<boolean> {
  const [row] = await db
    .select({ listingUntil: driveSyncs.listingUntil })
    .from(driveSyncs)
    .where(eqUser(userId))
  return row?.listingUntil != null && row.listingUntil.getTime() >= now.getTime()
}

/** The user's sync as stored: whether a listing is under way, and the last listing's plan. */
export async function syncState(
  db: Db,
  userId: string,
  now: Date,
): Promise<{ listing: boolean; plan: DriveSyncPlan | null; startedAt: Date | null }> {
  const [row] = await db.select().from(driveSyncs).where(eqUser(userId))
  if (!row) return { listing: false, plan: null, startedAt: null }
  return {
    listing: row.listingUntil !== null && row.listingUntil.getTime() >= now.getTime(),
    plan: (row.plan as DriveSyncPlan | null) ?? null,
    startedAt: row.startedAt,
  }
}

/** Records what a sync found and the token the next one starts from (inside the sync's transaction). */
export async function storePlan(
  tx: Executor,
  userId: string,
  plan: DriveSyncPlan,
  pageToken: string,
): Promise<void> {
  await tx.update(driveSyncs).set({ plan, pageToken }).where(eqUser(userId))
}

/** A library file now reached through another shortcut (or listed itself: null). */
export async function recordShortcut(tx: Executor, libraryId: string, via: string | null): Promise<void> {
  await tx.update(libraryDocuments).set({ viaShortcut: via }).where(eq(libraryDocuments.id, libraryId))
}

/** The change feed's token the person's next sync starts from; null before their first listing. */
export async function changeToken(db: Db, userId: string): Promise<string | null> {
  const [sync] = await db.select({ pageToken: driveSyncs.pageToken }).from(driveSyncs).where(eqUser(userId))
  return sync?.pageToken ?? null
}
