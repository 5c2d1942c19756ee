/**
 * Keeping a person's library in step with their Google Drive (D27): what DocChat reads of
 * each kind of file (`kindOf`) and the 'drive-file' job. Deciding what a sync queues is
 * drive-sync-plan.ts; the person's sync state (one listing at a time, the last plan) is stored by
 * drive-syncs-repository.ts.
 * - `ingestDriveFile` is the job: download or export one file, turn it into text (PDFs, images,
 *   Word, spreadsheet, PowerPoint and HTML files in the reader process; text in whichever encoding
 *   it was saved (text-decoding.ts); Google Docs as Markdown, Sheets as XLSX (every tab), Slides
 *   as text) and index it through the document writer (D91), which marks the row `ready` with its
 *   pages, chunks and what OCR read; a file that cannot be read is marked `failed` with the
 *   reason and fails alone; Google busy or unreachable puts the job back with backoff.
 */
import type { Db } from '../db/database.ts'
import type { DocumentWriter } from '../documents/index/document-writer.ts'
import { indexLibraryDocument } from '../documents/index/index-document.ts'
import { createLibraryRepository, type startReadings } from '../documents/library/library-repository.ts'
import type { DocumentReader, ReadDocument, ReaderKind } from '../documents/reading/document-reader.ts'
import { FileReadError } from '../documents/reading/read-error.ts'
import { encodingNote, readText } from '../documents/reading/text-decoding.ts'
import { type JobOutcome, retryDelayMs } from '../jobs/job-queue.ts'
import { type DriveApi, DriveFileError, FOLDER_MIME, SHORTCUT_MIME } from './drive-api.ts'
import { classifyGoogleError } from './google-errors.ts'

export const MAX_INGEST_BYTES = 10 * 1024 * 1024
/** Claims of one file's job before Google staying busy or unreachable fails the file. */
export const MAX_FILE_ATTEMPTS = 5

export const GOOGLE_DOC = 'application/vnd.google-apps.document'
export const GOOGLE_SHEET = 'application/vnd.google-apps.spreadsheet'
export const GOOGLE_SLIDES = 'application/vnd.google-apps.presentation'
export const DOCX_MIME = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'
export const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'
export const PPTX_MIME = 'application/vnd.openxmlformats-officedocument.presentationml.presentation'
const TEXT_TYPES = new Set(['text/plain', 'text/markdown', 'text/x-markdown'])
/** Files the reader process reads, by their Drive MIME type. */
const READER_TYPES = new Map<string, ReaderKind>([
  ['application/pdf', 'pdf'],
  [DOCX_MIME, 'docx'],
  [XLSX_MIME, 'workbook'],
  ['application/vnd.oasis.opendocument.spreadsheet', 'workbook'],
  ['application/vnd.ms-excel', 'workbook'],
  ['text/csv', 'csv'],
  [PPTX_MIME, 'pptx'],
  ['text/html', 'html'],
  // Read by OCR: Tesseract's image library decodes these (a GIF's first frame, a TIFF's first page).
  ['image/png', 'image'],
  ['image/jpeg', 'image'],
  ['image/webp', 'image'],
  ['image/tiff', 'image'],
  ['image/gif', 'image'],
])

type Kind = ReaderKind | 'text' | 'google-doc' | 'google-sheet' | 'google-slides'

/** What DocChat reads from a Drive file, or why it does not (the sentence after "name: "). */
export function kindOf(mimeType: string): Kind | { skip: string } {
  const read = READER_TYPES.get(mimeType)
  if (read) return read
  if (TEXT_TYPES.has(mimeType)) return 'text'
  if (mimeType === GOOGLE_DOC) return 'google-doc'
  if (mimeType === GOOGLE_SHEET) return 'google-sheet'
  if (mimeType === GOOGLE_SLIDES) return 'google-slides'
  if (mimeType === 'application/msword') return { skip: 'old Word files (.doc) are not supported' }
  if (mimeType === SHORTCUT_MIME) return { skip: 'shortcuts to shortcuts are not followed' }
  if (mimeType === FOLDER_MIME) return { skip: 'folders are not documents' }
  if (mimeType.startsWith('application/vnd.google-apps.'))
    return { skip: 'this kind of Google file is not supported' }
  if (mimeType.startsWith('image/')) return { skip: 'images of this type are not supported' }
  if (mimeType.startsWith('video/')) return { skip: 'videos are not supported' }
  if (mimeType.startsWith('audio/')) return { skip: 'audio files are not supported' }
  return { skip: `files of type ${mimeType} are not supported` }
}

/** Why an image is not read when OCR is off (OCR=off): the row is marked skipped with it. */
export const OCR_OFF_REASON = 'images are read by OCR, which is turned off on this server'

function asText(bytes: Uint8Array): ReadDocument {
  const { text, encoding } = readText(bytes)
  return { sections: [{ text, page: null }], pages: null, ocrPages: null, note: encodingNote(encoding) }
}

/** One file read, by kind: downloaded (or exported) and turned into sections. */
export async function contentOf(
  drive: Pick<DriveApi, 'download' | 'export'>,
  reader: DocumentReader,
  file: { id: string; mimeType: string; owner: string },
): Promise<ReadDocument> {
  const kind = kindOf(file.mimeType)
  const owner = { owner: file.owner }
  if (typeof kind === 'object') throw new DriveFileError(kind.skip)
  if (kind === 'text') return asText(await drive.download(file.id, MAX_INGEST_BYTES))
  // Every tab of a Google Sheet: its CSV export holds only the first (D75).
  if (kind === 'google-sheet')
    return reader.read('workbook', await drive.export(file.id, XLSX_MIME, MAX_INGEST_BYTES), owner)
  // A presentation's slides as plain text.
  if (kind === 'google-slides') return asText(await drive.export(file.id, 'text/plain', MAX_INGEST_BYTES))
  if (kind !== 'google-doc') return reader.read(kind, await drive.download(file.id, MAX_INGEST_BYTES), owner)
  let bytes: Uint8Array
  try {
    bytes = await drive.export(file.id, 'text/markdown', MAX_INGEST_BYTES)
  } catch (error) {
    // Older Docs conversions offer no Markdown; plain text loses the headings, not the words.
    if (!(error instanceof DriveFileError)) throw error
    bytes = await drive.export(file.id, 'text/plain', MAX_INGEST_BYTES)
  }
  return asText(bytes)
}

export type DriveFileJobDeps = {
  db: Db
  reader: DocumentReader
  writer: DocumentWriter
  /** Marks the job's library row `processing` (jobs that start together share a statement). */
  startReading: ReturnType<typeof startReadings>
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
  const { db, reader, writer } = deps
  const library = createLibraryRepository(db)
  const row = await deps.startReading({ userId: job.userId, id: String(job.payload.libraryId) })
  // Deleted from the library (or gone from Drive) since it was queued: nothing to do.
  if (!row) return { done: true }
  // Not downloaded at all: OCR is what would read it.
  if (kindOf(row.mimeType) === 'image' && !reader.ocr) {
    await library.setStatus(row.id, 'skipped', { reason: OCR_OFF_REASON })
    return { done: true }
  }
  const session = await deps.openDrive(row.userId)
  if (!session) {
    await library.setStatus(row.id, 'failed', { reason: deps.messages.notConnected })
    return { done: true }
  }
  try {
    const read = await contentOf(session.drive, reader, {
      id: row.externalId,
      mimeType: row.mimeType,
      owner: row.userId,
    })
    // Written only while its row is in the library (deleted, or Drive disconnected with its
    // documents removed, while it was read: nothing is written).
    await indexLibraryDocument(writer, row, read, { link: row.webViewLink, version: row.version })
    return { done: true }
  } catch (error) {
    if (error instanceof DriveFileError || error instanceof FileReadError) {
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
