/**
 * The user's document library (`app.library`): the list with each file's status and the overall
 * progress, deleting a document (its passages go at once; a Drive file stays out of later syncs),
 * and retrying one that failed. Ids are checked against the signed-in user: another person's id
 * answers exactly like a missing one (404). What it refuses it throws as library errors
 * (library-errors.ts), which the error handler turns into HTTP.
 */
import { type FirstRun, type Library, type LibraryDocument, STARTER_QUESTIONS } from '#contracts/documents.ts'
import type { Db } from '../../db/database.ts'
import type { JobQueue } from '../../jobs/job-queue.ts'
import type { DocumentWriter } from '../index/document-writer.ts'
import {
  createLibraryChangesRepository,
  type LibraryChangesRepository,
} from './library-changes-repository.ts'
import { ChatSessionNotFound, DocumentNotFound, NotFailed, NotRemoved } from './library-errors.ts'
import { createLibraryRepository, type LibraryRepository, type LibraryRow } from './library-repository.ts'
import { DRIVE_FILE_JOB, DRIVE_SOURCE, UPLOAD_FILE_JOB, UPLOAD_SOURCE } from './sources.ts'
import { checkUpload, storeUpload } from './upload.ts'

/** How long an upload call waits for its file to be read, so a question right after can use it. */
export const UPLOAD_WAIT_MS = 20_000
const WAIT_POLL_MS = 50

/** The job that reads a document of each source. */
const JOB_OF_SOURCE: Record<string, string> = {
  [DRIVE_SOURCE]: DRIVE_FILE_JOB,
  [UPLOAD_SOURCE]: UPLOAD_FILE_JOB,
}

export const jobKey = (row: Pick<LibraryRow, 'id' | 'source'>) => `${JOB_OF_SOURCE[row.source]}:${row.id}`

export function toLibraryDocument(row: LibraryRow): LibraryDocument {
  return {
    id: row.id,
    name: row.name,
    source: row.source === DRIVE_SOURCE ? 'drive' : 'upload',
    mimeType: row.mimeType,
    status: row.status,
    reason: row.reason,
    pages: row.pages,
    chunks: row.chunks,
    ocrPages: row.ocrPages ?? null,
    updatedAt: row.updatedAt.toISOString(),
    webViewLink: row.webViewLink,
    driveFileId: row.source === DRIVE_SOURCE ? row.externalId : null,
    modifiedTime: row.modifiedTime?.toISOString() ?? null,
  }
}

/** A question about one heading of one document, in the person's own words for it. */
export function starterQuestion({ heading, name }: { heading: string; name: string }): string {
  return `What does ${name} say about “${heading}”?`
}

export type LibraryService = ReturnType<typeof createLibraryService>

type Context = {
  db: Db
  queue: JobQueue
  writer: DocumentWriter
  now: () => Date
  repository: LibraryRepository
  changes: LibraryChangesRepository
}

async function ownConversation({ changes }: Context, userId: string, conversationId: string): Promise<void> {
  if (!(await changes.ownsConversation(userId, conversationId))) throw new ChatSessionNotFound()
}

async function owned({ repository }: Context, userId: string, id: string): Promise<LibraryRow> {
  const row = await repository.findOwned(userId, id)
  if (!row) throw new DocumentNotFound()
  return row
}

export function createLibraryService({
  db,
  jobs: queue,
  writer,
  now,
}: {
  db: Db
  jobs: JobQueue
  writer: DocumentWriter
  now: () => Date
}) {
  const ctx: Context = {
    db,
    queue,
    writer,
    now,
    repository: createLibraryRepository(db),
    changes: createLibraryChangesRepository(db),
  }
  return { ...uploads(ctx), ...listing(ctx), ...changing(ctx) }
}

/** Uploads into the library or a conversation, and the wait for a Drive file to be read. */
function uploads(ctx: Context) {
  const { db, queue, now, repository } = ctx
  return {
    /**
     * Stores an uploaded file in the person's library and has it read like any other document;
     * answers once it is read (or after UPLOAD_WAIT_MS, still queued). Into a conversation (the
     * spec's call), which must be the person's (404 otherwise, like a missing one), the file is
     * recorded as attached to it; `null` for an upload into the library alone.
     */
    async upload(
      userId: string,
      conversationId: string | null,
      file: { name: string; mimeType: string; bytes: Uint8Array },
      waitMs = UPLOAD_WAIT_MS,
    ): Promise<LibraryDocument> {
      if (conversationId !== null) await ownConversation(ctx, userId, conversationId)
      const mimeType = checkUpload(file.name, file.mimeType, file.bytes.length)
      const id = await storeUpload(db, { userId, name: file.name, mimeType, bytes: file.bytes }, now())
      if (conversationId !== null) {
        await repository.attach(userId, conversationId, id, now())
      }
      queue.wake()
      const deadline = performance.now() + waitMs
      for (;;) {
        const row = await repository.find(id)
        if (!row) throw new DocumentNotFound()
        const pending = row.status === 'queued' || row.status === 'processing'
        if (!pending || performance.now() >= deadline) return toLibraryDocument(row)
        await new Promise((resolve) => setTimeout(resolve, WAIT_POLL_MS))
      }
    },

    /** The files uploaded into one of the person's conversations (404 for anyone else's). */
    async attachedTo(userId: string, conversationId: string): Promise<LibraryDocument[]> {
      await ownConversation(ctx, userId, conversationId)
      return (await repository.attachedTo(userId, conversationId)).map(toLibraryDocument)
    },

    /**
     * The library's document for a Drive file once it is read (or after `waitMs`, still queued);
     * null when no sync has recorded it.
     */
    async awaitDriveFile(
      userId: string,
      fileId: string,
      waitMs = UPLOAD_WAIT_MS,
    ): Promise<LibraryDocument | null> {
      queue.wake()
      const deadline = performance.now() + waitMs
      for (;;) {
        const row = await repository.findExternal(userId, DRIVE_SOURCE, fileId)
        if (!row || row.excluded) return null
        const pending = row.status === 'queued' || row.status === 'processing'
        if (!pending || performance.now() >= deadline) return toLibraryDocument(row)
        await new Promise((resolve) => setTimeout(resolve, WAIT_POLL_MS))
      }
    },
  }
}

/** The library as the Documents view and the empty chat show it. */
function listing(ctx: Context) {
  const { repository } = ctx
  return {
    /** The empty chat's first run: the ready count, and a question about a heading of each of the newest ready documents. */
    async firstRun(userId: string): Promise<FirstRun> {
      const { ready, headings } = await repository.firstRun(userId, STARTER_QUESTIONS)
      return { ready, questions: headings.map(starterQuestion) }
    },

    async list(userId: string): Promise<Library> {
      const rows = await repository.list(userId)
      const done = rows.filter((r) => r.status === 'ready' || r.status === 'failed' || r.status === 'skipped')
      return {
        documents: rows.map(toLibraryDocument),
        progress: { running: done.length < rows.length, done: done.length, total: rows.length },
        removed: (await repository.listExcluded(userId)).map(toLibraryDocument),
      }
    },
  }
}

/** Removing, restoring, retrying a document; forgetting Drive's files. */
function changing(ctx: Context) {
  const { queue, writer, now, repository, changes } = ctx
  return {
    /**
     * Brings a Drive file the person removed back into the library: it is queued to be read (the
     * file as it is in Drive now) and later syncs follow it again. 409 for a document that was not
     * removed; another person's id answers 404 like a missing one.
     */
    async restore(userId: string, id: string): Promise<LibraryDocument> {
      const row = await repository.findAnyOwned(userId, id)
      if (!row) throw new DocumentNotFound()
      if (!row.excluded) throw new NotRemoved()
      const updatedAt = now()
      await changes.restore({ kind: DRIVE_FILE_JOB, key: jobKey(row), userId, libraryId: row.id }, updatedAt)
      queue.wake()
      return toLibraryDocument({ ...row, excluded: false, status: 'queued', reason: null, updatedAt })
    },

    /**
     * Removes the document's passages and its queued reading, in one transaction (a large
     * document's passages go part by part before it, so that transaction stays short), and takes
     * it out of every conversation limited to it (D70). A Drive file's row stays, marked excluded,
     * so the next sync does not bring it back (an upload's row goes, and its scope rows with it).
     */
    async remove(userId: string, id: string): Promise<void> {
      const row = await owned(ctx, userId, id)
      await writer.shrink({ userId, source: row.source, externalId: row.externalId })
      await changes.remove(row, jobKey(row), { status: 'skipped', reason: 'removed from the library' })
    },

    /**
     * After Drive is disconnected: nothing more is read from it (its queued jobs go) and the sync
     * state is forgotten (by `forgetSyncState`, in the same transaction: Drive's own table, which
     * the Drive layer above knows and the library does not); with `remove`, its documents leave the library with their passages.
     * Answers how many documents were removed.
     */
    async forgetDrive(
      userId: string,
      documents: 'keep' | 'remove',
      forgetSyncState: (tx: Db) => Promise<void>,
    ): Promise<number> {
      return changes.forgetDrive(userId, {
        documents,
        driveFileJob: DRIVE_FILE_JOB,
        // Files that were waiting to be read never will be: say so rather than show them queued.
        failedAs: 'Google Drive was disconnected before it was read',
        forgetSyncState,
      })
    },

    /** Queues a failed document to be read again (409 for any other status). */
    async retry(userId: string, id: string): Promise<LibraryDocument> {
      const row = await owned(ctx, userId, id)
      if (row.status !== 'failed') throw new NotFailed()
      const kind = JOB_OF_SOURCE[row.source] ?? DRIVE_FILE_JOB
      await changes.retry({ kind, key: jobKey(row), userId, libraryId: row.id }, now())
      queue.wake()
      return toLibraryDocument({ ...row, status: 'queued', reason: null, updatedAt: now() })
    },
  }
}
