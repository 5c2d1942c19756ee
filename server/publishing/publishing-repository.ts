/**
 * How assistants are published (issue 37, D117): one `assistant_publications` row per assistant
 * whose owner ever set a publishing field, written with the owner's id (the key to `assistants`
 * carries it, so a row can only be the owner's), and the published assistant a public id names.
 */
import { and, eq, sql } from 'drizzle-orm'
import type { Budgets } from '#contracts/publishing.ts'
import { bindDb } from '../db/bind-db.ts'
import type { Db } from '../db/database.ts'
import { assistantPublications, assistants } from '../db/schema.ts'

/** The settings an owner edits, as stored. */
export type PublicationSettings = {
  published: boolean
  allowedOrigins: string[]
  publicPage: boolean
  allowIndexing: boolean
  showSourceNames: boolean
  hideUnverified: boolean
  busyMessage: string
  privacyNotice: string
  budgets: Budgets
  requireChallenge: boolean
  retentionDays: number
}

export type PublicationRecord = PublicationSettings & {
  publicId: string | null
  /** The identity secret as sealed at rest, null until made. */
  sealedSecret: string | null
}

/** A published assistant as its visitors' calls and pages need it. */
export type PublishedAssistant = PublicationSettings & {
  assistantId: string
  ownerId: string
  publicId: string
  name: string
  description: string
  starterQuestions: string[]
  sealedSecret: string | null
}

const settingsColumns = {
  published: assistantPublications.published,
  allowedOrigins: assistantPublications.allowedOrigins,
  publicPage: assistantPublications.publicPage,
  allowIndexing: assistantPublications.allowIndexing,
  showSourceNames: assistantPublications.showSourceNames,
  hideUnverified: assistantPublications.hideUnverified,
  busyMessage: assistantPublications.busyMessage,
  privacyNotice: assistantPublications.privacyNotice,
  budgets: assistantPublications.budgets,
  requireChallenge: assistantPublications.requireChallenge,
  retentionDays: assistantPublications.retentionDays,
}

const own = (userId: string, assistantId: string) =>
  and(eq(assistantPublications.assistantId, assistantId), eq(assistantPublications.userId, userId))

export async function findPublication(
  db: Db,
  userId: string,
  assistantId: string,
): Promise<PublicationRecord | null> {
  const [row] = await db
    .select({
      ...settingsColumns,
      publicId: assistantPublications.publicId,
      sealedSecret: assistantPublications.identitySecret,
    })
    .from(assistantPublications)
    .where(own(userId, assistantId))
  return row ?? null
}

/**
 * Writes `changes` over the stored settings (or over `defaults` for a first row). `publicId`:
 * given when the edit publishes, and kept only if the assistant has none yet, so its addresses
 * never change once made.
 */
export async function savePublication(
  db: Db,
  input: {
    userId: string
    assistantId: string
    defaults: PublicationSettings
    changes: Partial<PublicationSettings>
    publicId: string | null
    now: Date
  },
): Promise<void> {
  const { userId, assistantId, defaults, changes, publicId, now } = input
  await db
    .insert(assistantPublications)
    .values({ ...defaults, ...changes, assistantId, userId, publicId, updatedAt: now })
    .onConflictDoUpdate({
      target: assistantPublications.assistantId,
      set: {
        ...changes,
        updatedAt: now,
        publicId: sql`coalesce(${assistantPublications.publicId}, ${publicId})`,
      },
      setWhere: eq(assistantPublications.userId, userId),
    })
}

/** Stores a new sealed identity secret (replacing the old one, which then verifies nothing). */
export async function saveIdentitySecret(
  db: Db,
  input: { userId: string; assistantId: string; defaults: PublicationSettings; sealed: string; now: Date },
): Promise<void> {
  const { userId, assistantId, defaults, sealed, now } = input
  await db
    .insert(assistantPublications)
    .values({ ...defaults, assistantId, userId, identitySecret: sealed, updatedAt: now })
    .onConflictDoUpdate({
      target: assistantPublications.assistantId,
      set: { identitySecret: sealed, updatedAt: now },
      setWhere: eq(assistantPublications.userId, userId),
    })
}

/** The assistant `publicId` names, when it is published now; null for unknown and unpublished alike. */
export async function findPublished(db: Db, publicId: string): Promise<PublishedAssistant | null> {
  const [row] = await db
    .select({
      ...settingsColumns,
      assistantId: assistants.id,
      ownerId: assistants.userId,
      publicId: sql<string>`${assistantPublications.publicId}`,
      name: assistants.name,
      description: assistants.description,
      starterQuestions: assistants.starterQuestions,
      sealedSecret: assistantPublications.identitySecret,
    })
    .from(assistantPublications)
    .innerJoin(
      assistants,
      and(
        eq(assistants.id, assistantPublications.assistantId),
        eq(assistants.userId, assistantPublications.userId),
      ),
    )
    .where(and(eq(assistantPublications.publicId, publicId), eq(assistantPublications.published, true)))
  return row ?? null
}

export const publishingQueries = { findPublication, savePublication, saveIdentitySecret, findPublished }

export type PublishingRepository = ReturnType<typeof createPublishingRepository>

export function createPublishingRepository(db: Db) {
  return bindDb(db, publishingQueries)
}
