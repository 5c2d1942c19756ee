/**
 * Keeping a person's library in step with their Google Drive, in two parts (README D27):
 * - `planDriveSync` lists the Drive and compares it with the library: new and changed files are
 *   recorded as `queued` with one 'drive-file' job each (in one transaction, so a crash queues all
 *   or nothing); unsupported or too-large files are recorded as `skipped` with the reason; files
 *   unchanged since they were read (or since they failed) are left alone; files gone from the
 *   Drive lose their passages and their row; files the person deleted from the library stay out.
 * - `ingestDriveFile` is the job: download or export one file, turn it into text (PDF pages in the
 *   worker, text in whichever encoding it was saved (text-decoding.ts), Google Docs as Markdown)
 *   and index it (one transaction per document), then mark the row `ready` with its pages and
 *   chunks; a file that cannot be read is marked `failed` with the reason and fails alone; Google
 *   busy or unreachable puts the job back with backoff.
 */
import { eq, sql } from 'drizzle-orm'
import type { Db } from '../db/database.ts'
import { driveSyncs } from '../db/schema.ts'
import { type DriveApi, DriveFileError, type DriveListedFile, FOLDER_MIME } from '../google/drive-api.ts'
import { DRIVE_SOURCE } from '../google/google-drive-repository.ts'
import { classifyGoogleError } from '../google/google-errors.ts'
import { enqueueJob, type JobOutcome, retryDelayMs } from '../jobs/job-queue.ts'
import type { Section } from './chunker.ts'
import { indexDocument, removeDocument } from './index-document.ts'
import {
  createLibraryRepository,
  type LibraryFileInput,
  type LibraryRow,
  upsertLibraryFile,
} from './library-repository.ts'
import { type PdfExtractor, PdfTextError } from './pdf-text.ts'
import { decodeText, removeControlCharacters } from './text-decoding.ts'

export const MAX_INGEST_BYTES = 10 * 1024 * 1024
/** The job kind that reads one Drive file. */
export const DRIVE_FILE_JOB = 'drive-file'
/** Claims of one file's job before Google staying busy or unreachable fails the file. */
export const MAX_FILE_ATTEMPTS = 5

const GOOGLE_DOC = 'application/vnd.google-apps.document'
const TEXT_TYPES = new Set(['text/plain', 'text/markdown', 'text/x-markdown'])

type Kind = 'pdf' | 'text' | 'google-doc'

/** What DocChat reads from a Drive file, or why it does not (the sentence after "name: "). */
export function kindOf(mimeType: string): Kind | { skip: string } {
  if (mimeType === 'application/pdf') return 'pdf'
  if (TEXT_TYPES.has(mimeType)) return 'text'
  if (mimeType === GOOGLE_DOC) return 'google-doc'
  if (mimeType === 'application/vnd.google-apps.spreadsheet')
    return { skip: 'spreadsheets are not supported' }
  if (mimeType === 'application/vnd.google-apps.presentation')
    return { skip: 'presentations are not supported' }
  if (mimeType === 'application/vnd.google-apps.shortcut') return { skip: 'shortcuts are not followed' }
  if (mimeType === FOLDER_MIME) return { skip: 'folders are not documents' }
  if (mimeType.startsWith('application/vnd.google-apps.'))
    return { skip: 'this kind of Google file is not supported' }
  if (mimeType.startsWith('image/')) return { skip: 'images are not supported' }
  if (mimeType.startsWith('video/')) return { skip: 'videos are not supported' }
  if (mimeType.startsWith('audio/')) return { skip: 'audio files are not supported' }
  return { skip: `files of type ${mimeType} are not supported` }
}

/** The revision an indexed document or a failure was recorded at. */
function revisionOf(file: DriveListedFile): string {
  return file.version ?? file.modifiedTime
}

function sameRevision(file: DriveListedFile, row: LibraryRow): boolean {
  if (row.version !== revisionOf(file)) return false
  return row.modifiedTime === null || row.modifiedTime.getTime() === Date.parse(file.modifiedTime)
}

/** What one listing found, by library id (queued files) or by name; kept in drive_syncs.plan. */
export type DriveSyncPlan = {
  added: string[]
  updated: string[]
  unchanged: string[]
  removed: string[]
  skipped: { name: string; reason: string }[]
}

function libraryInput(userId: string, file: DriveListedFile): LibraryFileInput {
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
  }
}

/**
 * Lists the Drive, records what changed and queues a job per file to read; returns the plan (also
 * stored in drive_syncs for whoever joins this sync).
 */
export async function planDriveSync(
  userId: string,
  deps: { db: Db; drive: Pick<DriveApi, 'listFilesForIngest'>; now: () => Date },
): Promise<DriveSyncPlan> {
  const { db, drive, now } = deps
  const files = await drive.listFilesForIngest()
  const rows = new Map(
    (await createLibraryRepository(db).bySource(userId, DRIVE_SOURCE)).map((r) => [r.externalId, r]),
  )
  const plan: DriveSyncPlan = { added: [], updated: [], unchanged: [], removed: [], skipped: [] }
  const gone: LibraryRow[] = []
  const listed = new Set(files.map((f) => f.id))
  for (const row of rows.values()) if (!listed.has(row.externalId) && !row.excluded) gone.push(row)

  await db.transaction(async (tx) => {
    for (const file of files) {
      const row = rows.get(file.id)
      if (row?.excluded) continue
      const kind = kindOf(file.mimeType)
      const skip = typeof kind === 'object' ? kind.skip : null
      const tooBig = file.size !== null && file.size > MAX_INGEST_BYTES
      if (skip !== null || tooBig) {
        const reason = skip ?? 'the file is larger than 10 MB'
        // A document that became unreadable to us (now too large, another type) must not linger.
        if (row && row.status !== 'skipped') {
          await removeDocument(tx as unknown as Db, { userId, source: DRIVE_SOURCE, externalId: file.id })
        }
        await upsertLibraryFile(tx, libraryInput(userId, file), 'skipped', reason)
        plan.skipped.push({ name: file.name, reason })
        continue
      }
      if (row && sameRevision(file, row) && row.status !== 'skipped') {
        // Read (or failed) at this revision already; a queued one is still on its way.
        if (row.status === 'ready' || row.status === 'failed') {
          if (row.status === 'ready') plan.unchanged.push(file.name)
          continue
        }
      }
      const id = await upsertLibraryFile(tx, libraryInput(userId, file), 'queued')
      await enqueueJob(
        tx,
        { kind: DRIVE_FILE_JOB, key: `${DRIVE_FILE_JOB}:${id}`, userId, payload: { libraryId: id } },
        now(),
      )
      if (row && row.chunks !== null) plan.updated.push(id)
      else plan.added.push(id)
    }
    for (const row of gone) {
      await removeDocument(tx as unknown as Db, { userId, source: DRIVE_SOURCE, externalId: row.externalId })
      if (row.status === 'ready') plan.removed.push(row.name)
    }
    await createLibraryRepository(tx as unknown as Db).remove(gone.map((r) => r.id))
    await tx.update(driveSyncs).set({ plan }).where(eqUser(userId))
  })
  return plan
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

/** The text of one file, by kind: PDF pages, a text file, a Google Doc exported. */
export async function sectionsOf(
  drive: Pick<DriveApi, 'download' | 'export'>,
  pdf: PdfExtractor,
  file: { id: string; mimeType: string },
): Promise<Section[]> {
  const kind = kindOf(file.mimeType)
  if (kind === 'pdf') {
    const pages = await pdf.pages(await drive.download(file.id, MAX_INGEST_BYTES))
    if (pages.every((page) => page.trim() === '')) {
      throw new PdfTextError('the PDF has no text to read (scanned pages are not supported)')
    }
    // A PDF's text layer may hold NULs too, which PostgreSQL refuses in text.
    return pages.map((text, i) => ({ text: removeControlCharacters(text), page: i + 1 }))
  }
  if (kind === 'text')
    return [{ text: decodeText(await drive.download(file.id, MAX_INGEST_BYTES)), page: null }]
  if (kind !== 'google-doc') throw new DriveFileError(kind.skip)
  let bytes: Uint8Array
  try {
    bytes = await drive.export(file.id, 'text/markdown', MAX_INGEST_BYTES)
  } catch (error) {
    // Older Docs conversions offer no Markdown; plain text loses the headings, not the words.
    if (!(error instanceof DriveFileError)) throw error
    bytes = await drive.export(file.id, 'text/plain', MAX_INGEST_BYTES)
  }
  return [{ text: decodeText(bytes), page: null }]
}

export type DriveFileJobDeps = {
  db: Db
  pdf: PdfExtractor
  /** This person's Drive, or null when they are not connected (any more). */
  openDrive: (
    userId: string,
  ) => Promise<{ drive: Pick<DriveApi, 'download' | 'export'>; settle: () => Promise<void> } | null>
  /** Access revoked at Google: the stored tokens are useless and are forgotten. */
  forgetConnection: (userId: string) => Promise<void>
  messages: { notConnected: string; revoked: string; busy: string; refused: string }
}

/** The 'drive-file' job: read one library file and index it, recording the outcome on its row. */
export async function ingestDriveFile(
  job: { userId: string; payload: Record<string, unknown>; attempts: number },
  deps: DriveFileJobDeps,
): Promise<JobOutcome> {
  const { db, pdf } = deps
  const library = createLibraryRepository(db)
  const row = await library.find(String(job.payload.libraryId))
  // Deleted from the library (or gone from Drive) since it was queued: nothing to do.
  if (!row || row.excluded || row.userId !== job.userId) return { done: true }
  await library.setStatus(row.id, 'processing')
  const session = await deps.openDrive(row.userId)
  if (!session) {
    await library.setStatus(row.id, 'failed', { reason: deps.messages.notConnected })
    return { done: true }
  }
  try {
    const sections = await sectionsOf(session.drive, pdf, { id: row.externalId, mimeType: row.mimeType })
    const { chunkCount } = await indexDocument(db, {
      userId: row.userId,
      source: DRIVE_SOURCE,
      externalId: row.externalId,
      name: row.name,
      mimeType: row.mimeType,
      link: row.webViewLink,
      version: row.version,
      modifiedTime: row.modifiedTime,
      sections,
    })
    // Deleted from the library (or Drive disconnected with its documents removed) while it was
    // read: the passages just written must not outlive their row.
    const current = await library.find(row.id)
    if (!current || current.excluded) {
      await removeDocument(db, { userId: row.userId, source: DRIVE_SOURCE, externalId: row.externalId })
      return { done: true }
    }
    const pages = row.mimeType === 'application/pdf' ? sections.length : null
    await library.setStatus(row.id, 'ready', { pages, chunks: chunkCount })
    return { done: true }
  } catch (error) {
    if (error instanceof DriveFileError || error instanceof PdfTextError) {
      await library.setStatus(row.id, 'failed', { reason: error.message })
      return { done: true }
    }
    const failure = classifyGoogleError(error)
    if (failure.kind === 'busy' || failure.kind === 'unreachable') {
      if (job.attempts < MAX_FILE_ATTEMPTS) {
        await library.setStatus(row.id, 'queued', { reason: 'waiting for Google Drive' })
        return { retryInMs: retryDelayMs(job.attempts), error: `${failure.kind} ${failure.status ?? ''}` }
      }
      await library.setStatus(row.id, 'failed', { reason: deps.messages.busy })
      return { done: true }
    }
    if (failure.kind === 'revoked') {
      await deps.forgetConnection(row.userId)
      await library.setStatus(row.id, 'failed', { reason: deps.messages.revoked })
      return { done: true }
    }
    // Google refused (a request of ours it will not take) or something broke here: either way
    // this file fails alone; the queue logs what was thrown.
    await library.setStatus(row.id, 'failed', {
      reason: failure.status !== undefined ? deps.messages.refused : 'the file could not be read',
    })
    if (failure.status !== undefined) return { done: true }
    throw error
  } finally {
    await session.settle()
  }
}
