/**
 * A person's Drive folders and which folders each Drive item sits in (D115): written by the sync
 * (a listing replaces them, the change feed updates the items it names), read by `DriveFolders`
 * (drive-folders-service.ts). "The documents of folder F and its subfolders, now" is one recursive
 * query over what the last sync saw, never a list kept per assistant.
 */
import { and, eq, inArray, sql } from 'drizzle-orm'
import type { Db } from '../db/database.ts'
import { queryRows } from '../db/query-rows.ts'
import { driveFileParents, driveFolders, googleConnections, libraryDocuments } from '../db/schema.ts'
import { DRIVE_SOURCE } from '../documents/library/sources.ts'

/** A statement runner: the database or one of its transactions. */
type Executor = Pick<Db, 'insert' | 'update' | 'delete'>

/** A folder as Drive listed it (its `parents`: one, or none for a folder shared from elsewhere). */
export type FolderInput = { id: string; name: string; parents: readonly string[] }
/** A file or shortcut as Drive listed it; `targetId` is the file it stands for (itself, or a shortcut's target). */
export type ItemInput = { id: string; targetId: string; parents: readonly string[] }

/** Rows per multi-row statement (PostgreSQL's 65,535 parameters, with room to spare). */
const BATCH = 1000

function batches<T>(rows: readonly T[]): T[][] {
  const out: T[][] = []
  for (let at = 0; at < rows.length; at += BATCH) out.push(rows.slice(at, at + BATCH))
  return out
}

async function insertItems(tx: Executor, userId: string, items: readonly ItemInput[]): Promise<void> {
  const rows = items.flatMap((item) =>
    [...new Set(item.parents)].map((folderId) => ({
      userId,
      fileId: item.id,
      folderId,
      targetId: item.targetId,
    })),
  )
  for (const batch of batches(rows)) await tx.insert(driveFileParents).values(batch).onConflictDoNothing()
}

async function upsertFolders(tx: Executor, userId: string, folders: readonly FolderInput[]): Promise<void> {
  const unique = [...new Map(folders.map((f) => [f.id, f])).values()]
  const rows = unique.map((f) => ({
    userId,
    folderId: f.id,
    name: f.name,
    parentId: f.parents[0] ?? null,
    missing: false,
  }))
  for (const batch of batches(rows)) {
    await tx
      .insert(driveFolders)
      .values(batch)
      .onConflictDoUpdate({
        target: [driveFolders.userId, driveFolders.folderId],
        set: {
          name: sql`excluded.name`,
          parentId: sql`excluded.parent_id`,
          missing: false,
          updatedAt: sql`now()`,
        },
      })
  }
}

/** A whole listing: every item's folders as listed now, every folder not listed marked missing. */
export async function replaceDriveTree(
  tx: Executor,
  userId: string,
  listing: { folders: readonly FolderInput[]; items: readonly ItemInput[] },
): Promise<void> {
  await tx.delete(driveFileParents).where(eq(driveFileParents.userId, userId))
  await insertItems(tx, userId, listing.items)
  // Every folder missing, then the listed ones present again: one statement whatever the number
  // of folders (a "not in (…)" list would run out of parameters on a large Drive).
  await tx
    .update(driveFolders)
    .set({ missing: true, updatedAt: sql`now()` })
    .where(and(eq(driveFolders.userId, userId), eq(driveFolders.missing, false)))
  await upsertFolders(tx, userId, listing.folders)
}

/**
 * What the change feed named: `gone` items (deleted, trashed, no longer shared) leave their
 * folders and, when folders, are marked missing; `items` take the folders they sit in now;
 * `folders` are (again) present with their name and parent now.
 */
export async function applyDriveTreeChanges(
  tx: Executor,
  userId: string,
  changes: { gone: readonly string[]; folders: readonly FolderInput[]; items: readonly ItemInput[] },
): Promise<void> {
  const touched = [...changes.gone, ...changes.items.map((i) => i.id)]
  for (const batch of batches(touched)) {
    await tx
      .delete(driveFileParents)
      .where(and(eq(driveFileParents.userId, userId), inArray(driveFileParents.fileId, batch)))
  }
  await insertItems(tx, userId, changes.items)
  await upsertFolders(tx, userId, changes.folders)
  for (const batch of batches(changes.gone)) {
    await tx
      .update(driveFolders)
      .set({ missing: true, updatedAt: sql`now()` })
      .where(and(eq(driveFolders.userId, userId), inArray(driveFolders.folderId, batch)))
  }
}

/**
 * Drive disconnected (or the account claimed back, D99): nothing is followed any more. The items'
 * folders go; the folders stay, missing, so an assistant's page still names them.
 */
export async function forgetDriveTree(tx: Executor, userId: string): Promise<void> {
  await tx.delete(driveFileParents).where(eq(driveFileParents.userId, userId))
  await tx
    .update(driveFolders)
    .set({ missing: true, updatedAt: sql`now()` })
    .where(and(eq(driveFolders.userId, userId), eq(driveFolders.missing, false)))
}

/**
 * `roots` and every present folder below them, at any depth: a missing folder contributes
 * nothing, and neither does what hangs below it. UNION (not UNION ALL) ends a cycle, should
 * Drive ever report one.
 */
function subtree(userId: string, roots: readonly string[]) {
  return sql`
    with recursive tree(root_id, folder_id) as (
      select f.folder_id, f.folder_id from ${driveFolders} f
      where f.user_id = ${userId} and not f.missing
        and f.folder_id in (${sql.join(
          roots.map((id) => sql`${id}`),
          sql`, `,
        )})
      union
      select tree.root_id, child.folder_id from tree
      join ${driveFolders} child
        on child.user_id = ${userId} and child.parent_id = tree.folder_id and not child.missing
    )`
}

/** The person's library documents (not removed from the library, not skipped) in `folderIds`' subtrees, per root. */
async function documentsUnder(db: Db, userId: string, folderIds: readonly string[]) {
  return queryRows<{ rootId: string; documentId: string }>(
    db,
    sql`${subtree(userId, folderIds)}
    select distinct tree.root_id as "rootId", l.id as "documentId"
    from tree
    join ${driveFileParents} p on p.user_id = ${userId} and p.folder_id = tree.folder_id
    join ${libraryDocuments} l
      on l.user_id = ${userId} and l.source = ${DRIVE_SOURCE} and l.external_id = p.target_id
    where not l.excluded and l.status <> 'skipped'`,
  )
}

export type DriveFoldersRepository = ReturnType<typeof createDriveFoldersRepository>

export function createDriveFoldersRepository(db: Db) {
  return {
    /**
     * Present folders by name, while the Drive is connected; a parent that is not a present folder
     * (the root, a shared drive) reads as null.
     */
    async list(userId: string): Promise<{ id: string; name: string; parentId: string | null }[]> {
      return queryRows(
        db,
        sql`
        select f.folder_id as id, f.name,
          case when parent.folder_id is null then null else f.parent_id end as "parentId"
        from ${driveFolders} f
        left join ${driveFolders} parent
          on parent.user_id = f.user_id and parent.folder_id = f.parent_id and not parent.missing
        where f.user_id = ${userId} and not f.missing
          -- Access revoked at Google (the connection forgotten): nothing to pick until it is back.
          and exists (select 1 from ${googleConnections} c where c.user_id = f.user_id)
        order by lower(f.name), f.folder_id`,
      )
    },

    async documentIdsIn(userId: string, folderIds: readonly string[]): Promise<string[]> {
      if (folderIds.length === 0) return []
      const rows = await documentsUnder(db, userId, folderIds)
      return [...new Set(rows.map((r) => r.documentId))]
    },

    /** Per folder id: its stored name and whether it is missing, and its documents now. */
    async describe(
      userId: string,
      folderIds: readonly string[],
    ): Promise<Map<string, { name: string; missing: boolean; documentCount: number }>> {
      const out = new Map<string, { name: string; missing: boolean; documentCount: number }>()
      if (folderIds.length === 0) return out
      const folders = await db
        .select({ id: driveFolders.folderId, name: driveFolders.name, missing: driveFolders.missing })
        .from(driveFolders)
        .where(and(eq(driveFolders.userId, userId), inArray(driveFolders.folderId, [...folderIds])))
      const counts = new Map<string, number>()
      for (const row of await documentsUnder(db, userId, folderIds))
        counts.set(row.rootId, (counts.get(row.rootId) ?? 0) + 1)
      for (const f of folders)
        out.set(f.id, { name: f.name, missing: f.missing, documentCount: counts.get(f.id) ?? 0 })
      return out
    },

    /** Those of `folderIds` the person's syncs have never recorded. */
    async unknown(userId: string, folderIds: readonly string[]): Promise<string[]> {
      if (folderIds.length === 0) return []
      const known = await db
        .select({ id: driveFolders.folderId })
        .from(driveFolders)
        .where(and(eq(driveFolders.userId, userId), inArray(driveFolders.folderId, [...folderIds])))
      const seen = new Set(known.map((k) => k.id))
      return [...new Set(folderIds)].filter((id) => !seen.has(id))
    },
  }
}
