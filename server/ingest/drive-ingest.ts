/**
 * Ingesting a person's Google Drive into the assistant: list every file, then per file decide
 * (unsupported type or over 10 MB: skipped; same version as indexed: unchanged, not downloaded;
 * failed before at this version: failed again, not downloaded), download or export what is new or
 * changed, turn it into text (PDF pages in the worker, text in whichever encoding it was saved
 * (text-decoding.ts), Google Docs as Markdown) and
 * index it (one transaction per document); documents no longer in the Drive are removed, and the
 * chunks' statistics are refreshed when much changed. A file that cannot be read fails alone;
 * losing access to Drive ends the ingest.
 */
import type { IngestReport } from '#contracts/drive.ts'
import type { Db } from '../db/database.ts'
import { type DriveApi, DriveFileError, type DriveListedFile, FOLDER_MIME } from '../google/drive-api.ts'
import { refreshChunkStatistics } from '../repositories/documents-repository.ts'
import {
  DRIVE_SOURCE,
  type GoogleDriveRepository,
  type IndexedDriveDocument,
} from '../repositories/google-drive-repository.ts'
import type { Section } from './chunker.ts'
import { indexDocument, removeDocument } from './index-document.ts'
import { type IngestOutcomes, ingestReport } from './ingest-report.ts'
import { type PdfExtractor, PdfTextError } from './pdf-text.ts'
import { decodeText, removeControlCharacters } from './text-decoding.ts'

export const MAX_INGEST_BYTES = 10 * 1024 * 1024
/** Files fetched and read at once: downloads overlap, PDF pages still go through one worker. */
export const INGEST_CONCURRENCY = 4

const GOOGLE_DOC = 'application/vnd.google-apps.document'
const TEXT_TYPES = new Set(['text/plain', 'text/markdown', 'text/x-markdown'])

type Kind = 'pdf' | 'text' | 'google-doc'
type FileOutcome =
  | { kind: 'added' | 'updated' | 'unchanged' | 'removed'; name: string }
  | { kind: 'skipped' | 'failed'; name: string; reason: string }

export type DriveIngestDeps = {
  db: Db
  repository: GoogleDriveRepository
  drive: Pick<DriveApi, 'listFilesForIngest' | 'download' | 'export'>
  pdf: PdfExtractor
  concurrency?: number
}

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

function isUnchanged(file: DriveListedFile, stored: IndexedDriveDocument | undefined): boolean {
  if (!stored || stored.version !== revisionOf(file)) return false
  return stored.modifiedTime === null || stored.modifiedTime.getTime() === Date.parse(file.modifiedTime)
}

export async function ingestDrive(userId: string, deps: DriveIngestDeps): Promise<IngestReport> {
  const { db, repository, drive, pdf } = deps
  const files = await drive.listFilesForIngest()
  const stored = new Map((await repository.indexedDriveDocuments(userId)).map((d) => [d.fileId, d]))
  const failedBefore = new Map((await repository.ingestFailures(userId)).map((f) => [f.fileId, f]))

  async function sectionsOf(file: DriveListedFile, kind: Kind): Promise<Section[]> {
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

  async function ingestOne(file: DriveListedFile): Promise<FileOutcome> {
    const kind = kindOf(file.mimeType)
    const previous = stored.get(file.id)
    const skip = typeof kind === 'object' ? kind.skip : null
    const tooBig = file.size !== null && file.size > MAX_INGEST_BYTES
    if (skip !== null || tooBig) {
      // A document that became unreadable to us (now too large, another type) must not linger.
      if (previous) await removeDocument(db, { userId, source: DRIVE_SOURCE, externalId: file.id })
      return { kind: 'skipped', name: file.name, reason: skip ?? 'the file is larger than 10 MB' }
    }
    if (isUnchanged(file, previous)) return { kind: 'unchanged', name: file.name }
    const failure = failedBefore.get(file.id)
    if (failure && failure.version === revisionOf(file)) {
      return { kind: 'failed', name: file.name, reason: failure.reason }
    }
    let sections: Section[]
    try {
      sections = await sectionsOf(file, kind as Kind)
    } catch (error) {
      if (!(error instanceof DriveFileError || error instanceof PdfTextError)) throw error
      await repository.recordIngestFailure(userId, {
        fileId: file.id,
        version: revisionOf(file),
        reason: error.message,
      })
      return { kind: 'failed', name: file.name, reason: error.message }
    }
    await indexDocument(db, {
      userId,
      source: DRIVE_SOURCE,
      externalId: file.id,
      name: file.name,
      mimeType: file.mimeType,
      link: file.webViewLink,
      version: revisionOf(file),
      modifiedTime: new Date(file.modifiedTime),
      sections,
    })
    if (failure) await repository.clearIngestFailure(userId, file.id)
    return { kind: previous ? 'updated' : 'added', name: file.name }
  }

  const outcomes = await mapLimited(files, deps.concurrency ?? INGEST_CONCURRENCY, ingestOne)

  const listed = new Set(files.map((f) => f.id))
  for (const document of stored.values()) {
    if (listed.has(document.fileId)) continue
    await removeDocument(db, { userId, source: DRIVE_SOURCE, externalId: document.fileId })
    outcomes.push({ kind: 'removed', name: document.name })
  }
  await repository.clearIngestFailuresExcept(userId, [...listed])
  // A large ingest changes which words are common; retrieval reads that from the statistics.
  await refreshChunkStatistics(db)
  return ingestReport(collect(outcomes))
}

function collect(outcomes: FileOutcome[]): IngestOutcomes {
  const report: IngestOutcomes = {
    added: [],
    updated: [],
    unchanged: [],
    removed: [],
    skipped: [],
    failed: [],
  }
  for (const outcome of outcomes) {
    if (outcome.kind === 'skipped' || outcome.kind === 'failed') {
      report[outcome.kind].push({ name: outcome.name, reason: outcome.reason })
    } else {
      report[outcome.kind].push(outcome.name)
    }
  }
  return report
}

/**
 * `fn` over `items`, at most `limit` at a time, results in the items' order. The first failure
 * stops new work from starting and is thrown once the calls under way have settled.
 */
async function mapLimited<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length)
  let next = 0
  let failed = false
  async function worker(): Promise<void> {
    while (!failed && next < items.length) {
      const index = next++
      try {
        results[index] = await fn(items[index] as T)
      } catch (error) {
        failed = true
        throw error
      }
    }
  }
  const settled = await Promise.allSettled(Array.from({ length: Math.min(limit, items.length) }, worker))
  const rejection = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected')
  if (rejection) throw rejection.reason
  return results
}
