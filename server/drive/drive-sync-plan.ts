/**
 * What a Drive sync queues (D27, D56). The first sync of a person lists the whole Drive
 * (shared drives included) and takes Drive's change-feed token of that moment, first, so nothing
 * that changes while the listing runs is missed; every later sync asks the change feed what changed
 * since the stored token and touches only those files: new and changed ones are queued, trashed
 * and deleted ones lose their document, their passages and their row. A token Drive no longer
 * takes means a full listing again. Shortcuts are followed to their target (once, however many
 * shortcuts point at it, and not at all when the target is listed itself). Files the person
 * removed from the library stay out either way. All the writes of one sync, the new token
 * included, are one transaction: a crash queues all or nothing, and the next sync starts again
 * from the old token. Both paths record the Drive's folders and the folders each file sits in
 * (drive-tree.ts, D115) in that same transaction.
 */
import type { Db } from '../db/database.ts'
import { removeDocument } from '../documents/index/passage-writes-repository.ts'
import {
  createLibraryRepository,
  type LibraryFileInput,
  type LibraryRow,
  upsertLibraryFiles,
} from '../documents/library/library-repository.ts'
import { DRIVE_FILE_JOB, DRIVE_SOURCE } from '../documents/library/sources.ts'
import { enqueueJobs } from '../jobs/job-queue.ts'
import {
  ChangeTokenInvalidError,
  type DriveApi,
  type DriveChange,
  type DriveListedFile,
  FOLDER_MIME,
  SHORTCUT_MIME,
} from './drive-api.ts'
import { applyDriveTreeChanges, replaceDriveTree } from './drive-folders-repository.ts'
import { kindOf, MAX_INGEST_BYTES } from './drive-ingest.ts'
import { changeToken, type DriveSyncPlan, recordShortcut, storePlan } from './drive-syncs-repository.ts'
import { treeOfChanges, treeOfListing } from './drive-tree.ts'

export type DriveSyncDeps = {
  db: Db
  drive: Pick<
    DriveApi,
    'listFilesForIngest' | 'listShortcuts' | 'getFileForIngest' | 'startPageToken' | 'listChanges'
  >
  now: () => Date
}

/** Why a shortcut was not followed (the phrase after its name in the report). */
export const SHORTCUT_REASONS = {
  broken: 'the shortcut points to a file that is gone or not shared with you',
  folder: 'shortcuts to folders are not followed',
} as const

/** A file to record: its own metadata, and the shortcut it was reached through (null: listed itself). */
type Entry = { file: DriveListedFile; via: string | null }
type Executor = Parameters<Parameters<Db['transaction']>[0]>[0]

/** The revision an indexed document or a failure was recorded at. */
function revisionOf(file: DriveListedFile): string {
  return file.version ?? file.modifiedTime
}

function sameRevision(file: DriveListedFile, row: LibraryRow): boolean {
  if (row.version !== revisionOf(file)) return false
  return row.modifiedTime === null || row.modifiedTime.getTime() === Date.parse(file.modifiedTime)
}

function libraryInput(userId: string, file: DriveListedFile, via: string | null): LibraryFileInput {
  return {
    userId,
    source: DRIVE_SOURCE,
    externalId: file.id,
    name: file.name,
    mimeType: file.mimeType,
    webViewLink: file.webViewLink,
    version: revisionOf(file),
    modifiedTime: new Date(file.modifiedTime),
    size: file.size,
    viaShortcut: via,
  }
}

const emptyPlan = (): DriveSyncPlan => ({ added: [], updated: [], unchanged: [], removed: [], skipped: [] })

/**
 * Lists what changed (the change feed, or the whole Drive the first time), records it and queues a
 * job per file to read; returns the plan (also stored in drive_syncs for whoever joins this sync).
 */
export async function planDriveSync(userId: string, deps: DriveSyncDeps): Promise<DriveSyncPlan> {
  const { db, drive } = deps
  const pageToken = await changeToken(db, userId)
  if (pageToken) {
    try {
      return await applyChanges(userId, await drive.listChanges(pageToken), deps)
    } catch (error) {
      if (!(error instanceof ChangeTokenInvalidError)) throw error
    }
  }
  // Taken before the listing: whatever changes while it runs is in the next sync's feed.
  const token = await drive.startPageToken()
  return applyListing(userId, await drive.listFilesForIngest(), token, deps)
}

/**
 * Follows one shortcut: the target to record, or why not. `known` holds the ids already in hand
 * (listed, or reached through another shortcut): those are never recorded twice.
 */
async function follow(
  shortcut: DriveListedFile,
  known: ReadonlySet<string>,
  drive: DriveSyncDeps['drive'],
): Promise<Entry | { skip: string } | null> {
  const targetId = shortcut.shortcutTargetId
  if (!targetId) return { skip: SHORTCUT_REASONS.broken }
  if (known.has(targetId)) return null
  const target = await drive.getFileForIngest(targetId)
  if (!target || target.trashed) return { skip: SHORTCUT_REASONS.broken }
  if (target.mimeType === FOLDER_MIME || target.mimeType === SHORTCUT_MIME)
    return { skip: SHORTCUT_REASONS.folder }
  return { file: target, via: shortcut.id }
}

/**
 * Every entry's outcome: skipped (type, size), unchanged, or queued with a job to read it. The
 * rows and jobs are written in a few multi-row statements (not two per file): on PGlite every
 * statement costs about a millisecond whatever it does.
 */
async function recordFiles(
  tx: Executor,
  userId: string,
  entries: Iterable<Entry>,
  rows: ReadonlyMap<string, LibraryRow>,
  plan: DriveSyncPlan,
  now: () => Date,
): Promise<void> {
  const writes = new Map<
    string,
    { file: LibraryFileInput; status: 'skipped' | 'queued'; reason: string | null }
  >()
  const queued: { id: string; wasRead: boolean }[] = []
  for (const { file, via } of entries) {
    const row = rows.get(file.id)
    if (row?.excluded) continue
    const kind = kindOf(file.mimeType)
    const skip = typeof kind === 'object' ? kind.skip : null
    const tooBig = file.size !== null && file.size > MAX_INGEST_BYTES
    if (skip !== null || tooBig) {
      const reason = skip ?? 'the file is larger than 10 MB'
      // A document that became unreadable to us (now too large, another type) must not linger.
      if (row && row.status !== 'skipped') {
        await removeDocument(tx, { userId, source: DRIVE_SOURCE, externalId: file.id })
      }
      writes.set(file.id, { file: libraryInput(userId, file, via), status: 'skipped', reason })
      plan.skipped.push({ name: file.name, reason })
      continue
    }
    // Read (or failed) at this revision already; a queued one is still on its way.
    if (row && sameRevision(file, row) && (row.status === 'ready' || row.status === 'failed')) {
      if (row.status === 'ready') plan.unchanged.push(file.name)
      // Now reached through another shortcut (or listed itself): only that is recorded.
      if (row.viaShortcut !== via) await recordShortcut(tx, row.id, via)
      continue
    }
    writes.set(file.id, { file: libraryInput(userId, file, via), status: 'queued', reason: null })
    queued.push({ id: file.id, wasRead: row !== undefined && row.chunks !== null })
  }
  const ids = await upsertLibraryFiles(tx, [...writes.values()])
  const jobs = queued.flatMap(({ id: externalId, wasRead }) => {
    const id = ids.get(externalId)
    if (!id) return []
    ;(wasRead ? plan.updated : plan.added).push(id)
    return [{ kind: DRIVE_FILE_JOB, key: `${DRIVE_FILE_JOB}:${id}`, userId, payload: { libraryId: id } }]
  })
  await enqueueJobs(tx, jobs, now())
}

/** Removes documents (passages and rows) and notes the ready ones in the plan (an excluded row is never ready). */
async function removeRows(tx: Executor, userId: string, rows: readonly LibraryRow[], plan: DriveSyncPlan) {
  for (const row of rows) {
    await removeDocument(tx, { userId, source: DRIVE_SOURCE, externalId: row.externalId })
    if (row.status === 'ready') plan.removed.push(row.name)
  }
  await createLibraryRepository(tx).remove(rows.map((r) => r.id))
}

/** The first sync (or one whose token Drive refused): the whole listing against the library. */
async function applyListing(
  userId: string,
  files: readonly DriveListedFile[],
  token: string,
  { db, drive, now }: DriveSyncDeps,
): Promise<DriveSyncPlan> {
  const plan = emptyPlan()
  // The listing holds the folders too (for the tree): they are no documents.
  const listed = files.filter((f) => f.mimeType !== FOLDER_MIME)
  const entries: Entry[] = listed
    .filter((f) => f.mimeType !== SHORTCUT_MIME)
    .map((file) => ({ file, via: null }))
  const known = new Set(entries.map((e) => e.file.id))
  for (const shortcut of listed.filter((f) => f.mimeType === SHORTCUT_MIME)) {
    const followed = await follow(shortcut, known, drive)
    if (followed === null) continue
    if ('skip' in followed) {
      plan.skipped.push({ name: shortcut.name, reason: followed.skip })
      continue
    }
    known.add(followed.file.id)
    entries.push(followed)
  }
  const rows = new Map(
    (await createLibraryRepository(db).bySource(userId, DRIVE_SOURCE)).map((r) => [r.externalId, r]),
  )
  // A removed (excluded) file that left Drive is forgotten too: if it comes back, it is a new file.
  const gone = [...rows.values()].filter((r) => !known.has(r.externalId))
  // A file Drive listed twice (its pages shifted under an edit) is recorded once.
  const unique = new Map(entries.map((e) => [e.file.id, e]))
  await db.transaction(async (tx) => {
    await recordFiles(tx, userId, unique.values(), rows, plan, now)
    await removeRows(tx, userId, gone, plan)
    await replaceDriveTree(tx, userId, treeOfListing(files))
    await storePlan(tx, userId, plan, token)
  })
  return plan
}

/**
 * A file reached through a shortcut that was deleted (or now points elsewhere) stays in the
 * library when another shortcut still points to it: that one becomes its shortcut. Drive is asked
 * for its shortcuts only when such a file exists, once per sync.
 */
async function keepThroughOtherShortcuts(
  orphans: readonly LibraryRow[],
  state: {
    entries: Map<string, Entry>
    gone: Map<string, LibraryRow>
    removedIds: ReadonlySet<string>
    plan: DriveSyncPlan
    drive: DriveSyncDeps['drive']
  },
): Promise<void> {
  const { entries, gone, removedIds, plan, drive } = state
  const waiting = orphans.filter((row) => gone.has(row.id) && !entries.has(row.externalId))
  if (waiting.length === 0) return
  const shortcuts = (await drive.listShortcuts()).filter((s) => !removedIds.has(s.id))
  for (const row of waiting) {
    const other = shortcuts.find((s) => s.shortcutTargetId === row.externalId && s.id !== row.viaShortcut)
    if (!other) continue
    const followed = await follow(other, new Set(), drive)
    if (followed === null) continue
    if ('skip' in followed) plan.skipped.push({ name: other.name, reason: followed.skip })
    else {
      entries.set(followed.file.id, followed)
      gone.delete(row.id)
    }
  }
}

/** A later sync: only the files the change feed names. */
async function applyChanges(
  userId: string,
  feed: { changes: readonly DriveChange[]; newStartPageToken: string },
  { db, drive, now }: DriveSyncDeps,
): Promise<DriveSyncPlan> {
  const plan = emptyPlan()
  const all = await createLibraryRepository(db).bySource(userId, DRIVE_SOURCE)
  const rows = new Map(all.map((r) => [r.externalId, r]))
  const throughShortcut = new Map(all.filter((r) => r.viaShortcut !== null).map((r) => [r.viaShortcut, r]))
  const entries = new Map<string, Entry>()
  const gone = new Map<string, LibraryRow>()
  // Excluded rows go too when their file leaves Drive (they hold no passages).
  const dropRow = (row: LibraryRow | undefined) => {
    if (row) gone.set(row.id, row)
  }
  // Rows whose recorded shortcut was deleted or now points elsewhere: another shortcut may still
  // point to their file (only the first one followed is recorded), which is checked below.
  const orphans: LibraryRow[] = []
  const dropThroughShortcut = (row: LibraryRow | undefined) => {
    if (!row) return
    dropRow(row)
    orphans.push(row)
  }

  for (const { fileId, file } of feed.changes) {
    const removed = file === null || file.trashed || file.mimeType === FOLDER_MIME
    if (removed) {
      dropRow(rows.get(fileId))
      dropThroughShortcut(throughShortcut.get(fileId))
      continue
    }
    if (file.mimeType !== SHORTCUT_MIME) {
      entries.set(file.id, { file, via: rows.get(file.id)?.viaShortcut ?? null })
      continue
    }
    // A shortcut made or changed: what it pointed to before goes, unless it still points there.
    const before = throughShortcut.get(fileId)
    if (before && before.externalId !== file.shortcutTargetId) dropThroughShortcut(before)
    const known = new Set([
      ...entries.keys(),
      ...[...rows.values()].filter((r) => !gone.has(r.id)).map((r) => r.externalId),
    ])
    const followed = await follow(file, known, drive)
    if (followed === null) continue
    if ('skip' in followed) plan.skipped.push({ name: file.name, reason: followed.skip })
    else entries.set(followed.file.id, followed)
  }

  const removedIds = new Set(
    feed.changes.filter((c) => c.file === null || c.file.trashed).map((c) => c.fileId),
  )
  for (const [id, entry] of entries) {
    // Edited, but in the library only through a shortcut deleted in the same feed: it goes.
    if (entry.via !== null && removedIds.has(entry.via)) {
      entries.delete(id)
      continue
    }
    const row = rows.get(entry.file.id)
    if (row) gone.delete(row.id)
  }
  await keepThroughOtherShortcuts(orphans, { entries, gone, removedIds, plan, drive })
  await db.transaction(async (tx) => {
    await recordFiles(tx, userId, entries.values(), rows, plan, now)
    await removeRows(tx, userId, [...gone.values()], plan)
    await applyDriveTreeChanges(tx, userId, treeOfChanges(feed.changes))
    // The rest of the library, untouched by this sync, as a listing would have reported it.
    const touched = new Set([...entries.keys(), ...[...gone.values()].map((r) => r.externalId)])
    for (const row of all) {
      if (row.excluded || touched.has(row.externalId)) continue
      if (row.status === 'ready') plan.unchanged.push(row.name)
      if (row.status === 'skipped') plan.skipped.push({ name: row.name, reason: row.reason ?? 'skipped' })
    }
    await storePlan(tx, userId, plan, feed.newStartPageToken)
  })
  return plan
}
