/**
 * Keeping a person's library in step with their Google Drive (D27): what DocChat reads of
 * each kind of file (`kindOf`), the person's sync state (one listing at a time, the last plan), and
 * the 'drive-file' job. Deciding what a sync queues is drive-sync-plan.ts.
 * - `ingestDriveFile` is the job: download or export one file, turn it into text (PDF pages and
 *   Word files in the reader process, text in whichever encoding it was saved (text-decoding.ts),
 *   Google Docs as Markdown, Sheets as CSV, Slides as text) and index it (one transaction per
 *   document), then mark the row `ready` with its pages and chunks; a file that cannot be read is
 *   marked `failed` with the reason and fails alone; Google busy or unreachable puts the job back
 *   with backoff.
 */
import { eq, sql } from 'drizzle-orm'
import type { Db } from '../db/database.ts'
import { driveSyncs } from '../db/schema.ts'
import type { Section } from '../documents/chunker.ts'
import { type DocumentReader, PdfTextError } from '../documents/document-reader.ts'
import { DocxTextError } from '../documents/docx-text.ts'
import { indexDocument, removeDocument } from '../documents/index-document.ts'
import { createLibraryRepository } from '../documents/library-repository.ts'
import { DRIVE_SOURCE } from '../documents/sources.ts'
import { decodeText } from '../documents/text-decoding.ts'
import { type JobOutcome, retryDelayMs } from '../jobs/job-queue.ts'
import { type DriveApi, DriveFileError, FOLDER_MIME, SHORTCUT_MIME } from './drive-api.ts'
import { classifyGoogleError } from './google-errors.ts'

export const MAX_INGEST_BYTES = 10 * 1024 * 1024
/** Claims of one file's job before Google staying busy or unreachable fails the file. */
export const MAX_FILE_ATTEMPTS = 5

const GOOGLE_DOC = 'application/vnd.google-apps.document'
const GOOGLE_SHEET = 'application/vnd.google-apps.spreadsheet'
const GOOGLE_SLIDES = 'application/vnd.google-apps.presentation'
export const DOCX_MIME = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'
const TEXT_TYPES = new Set(['text/plain', 'text/markdown', 'text/x-markdown', 'text/csv'])

type Kind = 'pdf' | 'text' | 'google-doc' | 'google-sheet' | 'google-slides' | 'docx'

/** What DocChat reads from a Drive file, or why it does not (the sentence after "name: "). */
export function kindOf(mimeType: string): Kind | { skip: string } {
  if (mimeType === 'application/pdf') return 'pdf'
  if (TEXT_TYPES.has(mimeType)) return 'text'
  if (mimeType === GOOGLE_DOC) return 'google-doc'
  if (mimeType === GOOGLE_SHEET) return 'google-sheet'
  if (mimeType === GOOGLE_SLIDES) return 'google-slides'
  if (mimeType === DOCX_MIME) return 'docx'
  if (mimeType === 'application/msword') return { skip: 'old Word files (.doc) are not supported' }
  if (mimeType === SHORTCUT_MIME) return { skip: 'shortcuts to shortcuts are not followed' }
  if (mimeType === FOLDER_MIME) return { skip: 'folders are not documents' }
  if (mimeType.startsWith('application/vnd.google-apps.'))
    return { skip: 'this kind of Google file is not supported' }
  if (mimeType.startsWith('image/')) return { skip: 'images are not supported' }
  if (mimeType.startsWith('video/')) return { skip: 'videos are not supported' }
  if (mimeType.startsWith('audio/')) return { skip: 'audio files are not supported' }
  return { skip: `files of type ${mimeType} are not supported` }
}

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
  reader: DocumentReader,
  file: { id: string; mimeType: string },
): Promise<Section[]> {
  const kind = kindOf(file.mimeType)
  if (kind === 'pdf') {
    return reader.pdf(await drive.download(file.id, MAX_INGEST_BYTES))
  }
  if (kind === 'text')
    return [{ text: decodeText(await drive.download(file.id, MAX_INGEST_BYTES)), page: null }]
  if (kind === 'docx') return reader.docx(await drive.download(file.id, MAX_INGEST_BYTES))
  // Drive exports a sheet's first tab as CSV, and a presentation's slides as plain text.
  if (kind === 'google-sheet')
    return [{ text: decodeText(await drive.export(file.id, 'text/csv', MAX_INGEST_BYTES)), page: null }]
  if (kind === 'google-slides')
    return [{ text: decodeText(await drive.export(file.id, 'text/plain', MAX_INGEST_BYTES)), page: null }]
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
  reader: DocumentReader
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
  const { db, reader } = deps
  const library = createLibraryRepository(db)
  const row = await library.startReading(job.userId, String(job.payload.libraryId))
  // Deleted from the library (or gone from Drive) since it was queued: nothing to do.
  if (!row) return { done: true }
  const session = await deps.openDrive(row.userId)
  if (!session) {
    await library.setStatus(row.id, 'failed', { reason: deps.messages.notConnected })
    return { done: true }
  }
  try {
    const sections = await sectionsOf(session.drive, reader, { id: row.externalId, mimeType: row.mimeType })
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
    const pages = row.mimeType === 'application/pdf' ? sections.length : null
    // Deleted from the library (or Drive disconnected with its documents removed) while it was
    // read: the passages just written must not outlive their row.
    if (!(await library.finishReading(row.id, { pages, chunks: chunkCount }))) {
      await removeDocument(db, { userId: row.userId, source: DRIVE_SOURCE, externalId: row.externalId })
    }
    return { done: true }
  } catch (error) {
    if (error instanceof DriveFileError || error instanceof PdfTextError || error instanceof DocxTextError) {
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
