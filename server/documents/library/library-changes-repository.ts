/**
 * The library service's writes that span tables, each in one transaction: taking a document out
 * (its queued reading, its scope rows, its row, its passages), bringing a removed Drive file back
 * or a failed one to be read again (with its job), forgetting Drive's files after a disconnect.
 * And the one read of a conversation it needs (is it the person's). Statuses and reasons are the
 * service's (library-service.ts).
 */
import { and, eq, inArray } from 'drizzle-orm'
import type { Db } from '../../db/database.ts'
import {
  chatConversations,
  chatScopeDocuments,
  documents as documentsTable,
  jobs,
  libraryDocuments,
} from '../../db/schema.ts'
import { enqueueJob } from '../../jobs/job-queue.ts'
import type { DocumentKey } from '../index/passage-writes-repository.ts'
import { removeDocument } from '../index/passage-writes-repository.ts'
import { DRIVE_SOURCE } from './sources.ts'

/** A job to read one library row again (its kind by the row's source). */
export type ReadAgain = { kind: string; key: string; userId: string; libraryId: string }

export type LibraryChangesRepository = ReturnType<typeof createLibraryChangesRepository>

/** The row queued again and its job enqueued, in one transaction; `fields` are set on the row. */
function requeue(db: Db, job: ReadAgain, fields: Partial<typeof libraryDocuments.$inferInsert>, at: Date) {
  return db.transaction(async (tx) => {
    await tx
      .update(libraryDocuments)
      .set({ ...fields, status: 'queued', reason: null, updatedAt: at })
      .where(and(eq(libraryDocuments.id, job.libraryId), eq(libraryDocuments.userId, job.userId)))
    const { libraryId, ...queued } = job
    await enqueueJob(tx, { ...queued, payload: { libraryId } }, at)
  })
}

export function createLibraryChangesRepository(db: Db) {
  return { ...conversationCheck(db), ...readingAgain(db), ...takingOut(db) }
}

/** Whether a conversation is the person's (an upload into it must be). */
function conversationCheck(db: Db) {
  return {
    async ownsConversation(userId: string, conversationId: string): Promise<boolean> {
      const [conversation] = await db
        .select({ id: chatConversations.id })
        .from(chatConversations)
        .where(and(eq(chatConversations.id, conversationId), eq(chatConversations.userId, userId)))
      return conversation !== undefined
    },
  }
}

/** A row queued to be read again. */
function readingAgain(db: Db) {
  return {
    /** A removed Drive file back in the library, queued to be read. */
    restore(job: ReadAgain, at: Date): Promise<void> {
      return requeue(db, job, { excluded: false }, at)
    },

    /** A failed document queued to be read again. */
    retry(job: ReadAgain, at: Date): Promise<void> {
      return requeue(db, job, {}, at)
    },
  }
}

/** Documents taken out of the library. */
function takingOut(db: Db) {
  return {
    /**
     * Takes a document out in one transaction: its queued reading, its scope rows, its row (a
     * Drive file's stays, as `excludedAs`, so later syncs leave it out), then its passages.
     */
    async remove(
      row: { id: string; userId: string; source: string; externalId: string },
      jobKey: string,
      excludedAs: { status: 'skipped'; reason: string },
    ): Promise<void> {
      const { userId } = row
      const key: DocumentKey = { userId, source: row.source, externalId: row.externalId }
      // The library row before the document, the order the writer locks them in.
      await db.transaction(async (tx) => {
        await tx.delete(jobs).where(and(eq(jobs.key, jobKey), eq(jobs.userId, userId)))
        await tx
          .delete(chatScopeDocuments)
          .where(and(eq(chatScopeDocuments.documentId, row.id), eq(chatScopeDocuments.userId, userId)))
        if (row.source === DRIVE_SOURCE) {
          await tx
            .update(libraryDocuments)
            .set({ excluded: true, ...excludedAs, chunks: null, pages: null, ocrPages: null })
            .where(eq(libraryDocuments.id, row.id))
        } else {
          await tx.delete(libraryDocuments).where(eq(libraryDocuments.id, row.id))
        }
        await removeDocument(tx, key)
      })
    },

    /**
     * After Drive is disconnected, in one transaction: its queued readings go, and the Drive's own
     * state with them (`forgetSyncState`: Drive's table, which only the Drive layer knows); with
     * `remove`, its files and their passages, else the files still waiting are marked `failedAs`.
     * Answers how many files that were in the library went.
     */
    forgetDrive(
      userId: string,
      options: {
        documents: 'keep' | 'remove'
        driveFileJob: string
        failedAs: string
        forgetSyncState: (tx: Db) => Promise<void>
      },
    ): Promise<number> {
      return db.transaction(async (tx) => {
        await tx.delete(jobs).where(and(eq(jobs.userId, userId), eq(jobs.kind, options.driveFileJob)))
        await options.forgetSyncState(tx)
        if (options.documents === 'keep') {
          await tx
            .update(libraryDocuments)
            .set({ status: 'failed', reason: options.failedAs })
            .where(
              and(
                eq(libraryDocuments.userId, userId),
                eq(libraryDocuments.source, DRIVE_SOURCE),
                inArray(libraryDocuments.status, ['queued', 'processing']),
              ),
            )
          return 0
        }
        const removed = await tx
          .delete(libraryDocuments)
          .where(and(eq(libraryDocuments.userId, userId), eq(libraryDocuments.source, DRIVE_SOURCE)))
          .returning({ id: libraryDocuments.id, excluded: libraryDocuments.excluded })
        await tx
          .delete(documentsTable)
          .where(and(eq(documentsTable.userId, userId), eq(documentsTable.source, DRIVE_SOURCE)))
        return removed.filter((r) => !r.excluded).length
      })
    },
  }
}
