/**
 * Uploaded files (the spec's `POST /chat/sessions/{id}/files/upload`): the rules the upload dialog
 * applies, checked again here (PDF or plain text, 10 KB to 5 MB, the spec's sentences), then the
 * file is stored in the person's library with its bytes and read by an 'upload-file' job like
 * any other document: PDF pages through the reader process (scanned ones by OCR), text in
 * whichever encoding it was saved.
 */
import { randomUUID } from 'node:crypto'
import type { Db } from '../../db/database.ts'
import { Invalid } from '../../http/domain-errors.ts'
import { enqueueJob, type JobOutcome, makeJobDue } from '../../jobs/job-queue.ts'
import type { DocumentWriter } from '../index/document-writer.ts'
import { indexLibraryDocument } from '../index/index-document.ts'
import type { DocumentReader, ReadDocument } from '../reading/document-reader.ts'
import { FileReadError } from '../reading/read-error.ts'
import { encodingNote, readTextInTurns } from '../reading/text-decoding.ts'
import { takingTurns } from '../reading/turns.ts'
import { createLibraryRepository, type startReadings, upsertLibraryFile } from './library-repository.ts'
import { UPLOAD_FILE_JOB, UPLOAD_SOURCE } from './sources.ts'
import { readUploadBytes, storeUploadBytes } from './uploads-repository.ts'

export const UPLOAD_MIN_BYTES = 10 * 1024
export const UPLOAD_MAX_BYTES = 5 * 1024 * 1024

/**
 * product §9's sentences, word for word, plus ours: a request without a file, and a body the
 * multipart parser cannot read or that has more parts than a file and a message (D85).
 */
export const UPLOAD_MESSAGES = {
  type: 'Only PDF and Text files are allowed.',
  tooSmall: 'File size must be at least 10KB.',
  tooLarge: 'File size must not exceed 5MB.',
  noFile: 'Choose a file to upload.',
  malformed: 'The upload could not be read: the form data is incomplete or malformed. Please try again.',
  tooManyParts: 'The upload has too many parts: send one file, in the field "file".',
} as const

/** The library's reason for a file whose upload stopped before all of it was stored. */
export const UPLOAD_CUT_SHORT =
  'the upload was cut short before the whole file was stored; please upload it again'

/** The longest file name kept, in characters (most file systems allow 255 bytes). */
export const FILE_NAME_MAX_LENGTH = 255

// biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
const NAME_CONTROLS = /[\u0000-\u001F\u007F-\u009F]/g
/**
 * Bidirectional formatting characters: invisible, and able to show a name in another order than
 * it has ("invoice\u202Efdp.exe" reads as "invoiceexe.pdf").
 */
const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g

/**
 * A file name as we store and show it (D85): line breaks and tabs made spaces, other control
 * characters (NUL…) and bidi controls removed, spaces collapsed, at most FILE_NAME_MAX_LENGTH characters with its extension
 * kept; '' when nothing is left (the caller names it).
 */
export function cleanFileName(raw: string): string {
  const name = raw
    .replace(/\s/g, ' ')
    .replace(NAME_CONTROLS, '')
    .replace(BIDI_CONTROLS, '')
    .replace(/ {2,}/g, ' ')
    .trim()
  const chars = Array.from(name)
  if (chars.length <= FILE_NAME_MAX_LENGTH) return name
  const extension = /\.[^.\s]{1,16}$/.exec(name)?.[0] ?? ''
  const room = FILE_NAME_MAX_LENGTH - Array.from(extension).length - 1
  return `${chars.slice(0, room).join('').trimEnd()}…${extension}`
}

/** The upload dialog's sentence after 'Upload to Drive', from where the file stands in the library. */
export function driveUploadMessage(
  name: string,
  document: { status: string; reason: string | null } | null,
): string {
  if (!document) return `${name} is in your Google Drive; it will appear in your library with the next sync.`
  if (document.status === 'ready') return `${name} is in your Google Drive and in your library.`
  if (document.status === 'failed' || document.status === 'skipped') {
    return `${name} is in your Google Drive, but could not be read: ${document.reason ?? 'unknown reason'}.`
  }
  return `${name} is in your Google Drive and is still being read into your library.`
}

/** The file's type as we read it: its declared MIME type, else (none or generic) its extension. */
export function uploadKind(name: string, mimeType: string): 'application/pdf' | 'text/plain' | null {
  if (mimeType === 'application/pdf' || mimeType === 'text/plain') return mimeType
  if (mimeType === '' || mimeType === 'application/octet-stream') {
    if (/\.pdf$/i.test(name)) return 'application/pdf'
    if (/\.txt$/i.test(name)) return 'text/plain'
  }
  return null
}

/** The spec's checks, in the dialog's order: type, then the two sizes. */
export function checkUpload(name: string, mimeType: string, size: number): 'application/pdf' | 'text/plain' {
  const kind = uploadKind(name, mimeType)
  if (!kind) throw new Invalid(UPLOAD_MESSAGES.type)
  if (size < UPLOAD_MIN_BYTES) throw new Invalid(UPLOAD_MESSAGES.tooSmall)
  if (size > UPLOAD_MAX_BYTES) throw new Invalid(UPLOAD_MESSAGES.tooLarge)
  return kind
}

/**
 * How long after an upload began its job runs when the upload never finished storing its parts
 * (the server stopped meanwhile): the job then finds the file cut short and says so.
 */
export const UPLOAD_STORE_GRACE_MS = 10 * 60_000

/**
 * Stores the file in the library as queued, with its bytes and its job (D104). The row, the first
 * part and the job are one transaction; the other parts follow each in a statement of its own, so
 * other people's statements run between them (on PGlite a transaction holds every other statement
 * back: four 5 MB uploads in four transactions kept another person waiting 4.4 s). The job is due
 * only once the last part is stored; were the server to stop before, it runs after
 * UPLOAD_STORE_GRACE_MS and fails the file with a sentence.
 */
export async function storeUpload(
  db: Db,
  input: { userId: string; name: string; mimeType: string; bytes: Uint8Array },
  now: Date,
): Promise<string> {
  const key = (id: string) => `${UPLOAD_FILE_JOB}:${id}`
  const id = await db.transaction(async (tx) => {
    const id = await upsertLibraryFile(
      tx,
      {
        userId: input.userId,
        source: UPLOAD_SOURCE,
        externalId: randomUUID(),
        name: input.name,
        mimeType: input.mimeType,
        webViewLink: null,
        version: null,
        modifiedTime: now,
        size: input.bytes.length,
      },
      'queued',
    )
    await storeUploadBytes(tx, id, input.bytes, { to: 1 })
    const job = { libraryId: id, bytes: input.bytes.length }
    const runAt = new Date(now.getTime() + UPLOAD_STORE_GRACE_MS)
    await enqueueJob(tx, { kind: UPLOAD_FILE_JOB, key: key(id), userId: input.userId, payload: job }, runAt)
    return id
  })
  await storeUploadBytes(db, id, input.bytes, { from: 1 })
  await makeJobDue(db, key(id), now)
  return id
}

/**
 * The 'upload-file' job: read the stored bytes and index them; the row shows the outcome (ready
 * with its pages and passages, written in the same transaction, or failed with the reason).
 */
export async function ingestUploadFile(
  job: { userId: string; payload: Record<string, unknown> },
  deps: {
    db: Db
    reader: DocumentReader
    writer: DocumentWriter
    startReading: ReturnType<typeof startReadings>
  },
): Promise<JobOutcome> {
  const library = createLibraryRepository(deps.db)
  // Deleted from the library since it was queued: nothing to do.
  const row = await deps.startReading({ userId: job.userId, id: String(job.payload.libraryId) })
  if (!row) return { done: true }
  const bytes = await readUploadBytes(deps.db, row.id)
  if (!bytes) {
    await library.setStatus(row.id, 'failed', { reason: 'the uploaded file is missing' })
    return { done: true }
  }
  // Its parts were being stored when the server stopped (jobs queued before D104 say no size).
  const size = job.payload.bytes
  if (typeof size === 'number' && bytes.length !== size) {
    await library.setStatus(row.id, 'failed', { reason: UPLOAD_CUT_SHORT })
    return { done: true }
  }
  try {
    const read: ReadDocument =
      row.mimeType === 'application/pdf'
        ? await deps.reader.read('pdf', bytes, { owner: row.userId })
        : await plainText(bytes)
    await indexLibraryDocument(deps.writer, row, read, { link: null, version: null })
  } catch (error) {
    await library.setStatus(row.id, 'failed', {
      reason: error instanceof FileReadError ? error.message : 'the file could not be read',
    })
    if (!(error instanceof FileReadError)) throw error
  }
  return { done: true }
}

/** A plain-text upload, decoded in turns; the library notes an encoding other than Unicode. */
async function plainText(bytes: Uint8Array): Promise<ReadDocument> {
  const { text, encoding } = await readTextInTurns(bytes, takingTurns().pause)
  return { sections: [{ text, page: null }], pages: null, ocrPages: null, note: encodingNote(encoding) }
}
