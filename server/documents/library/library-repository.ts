/**
 * The user's library (`library_documents`): one row per known file with its status, read by the
 * Documents view and written by the Drive sync and the ingest jobs. Every read and write by id is
 * scoped to its owner: another user's id finds nothing.
 */
import { and, asc, eq, inArray, sql } from 'drizzle-orm'
import { coalesced } from '../../db/coalesced.ts'
import type { Db } from '../../db/database.ts'
import { queryRows } from '../../db/query-rows.ts'
import {
  chatAttachments,
  chatConversations,
  documentChunks,
  documents,
  type LibraryStatus,
  libraryDocuments,
} from '../../db/schema.ts'

export type LibraryRow = typeof libraryDocuments.$inferSelect

/** What a sync knows of a file before it is read. */
export type LibraryFileInput = {
  userId: string
  source: string
  externalId: string
  name: string
  mimeType: string
  webViewLink: string | null
  version: string | null
  modifiedTime: Date | null
  size: number | null
  /** A Drive file reached only through a shortcut: the shortcut's id. */
  viaShortcut?: string | null
}

type Executor = Pick<Db, 'insert' | 'update' | 'select' | 'delete'>

export type LibraryRepository = ReturnType<typeof createLibraryRepository>

export function createLibraryRepository(db: Db) {
  return { ...libraryLists(db), ...libraryLookups(db), ...libraryRowWrites(db) }
}

/** The library as the Documents view and the empty chat read it: the list, the removed files, a conversation's files, the first run. */
function libraryLists(db: Db) {
  return {
    /**
     * How many of the user's documents are ready, and for the `limit` most recently changed ready
     * ones that have headings, the first heading of each (short ones only, and not the document's
     * own name: a question must read well).
     */
    async firstRun(
      userId: string,
      limit: number,
    ): Promise<{ ready: number; headings: { heading: string; name: string }[] }> {
      const [counted] = await db
        .select({ ready: sql<number>`count(*)::int` })
        .from(libraryDocuments)
        .where(
          and(
            eq(libraryDocuments.userId, userId),
            eq(libraryDocuments.excluded, false),
            eq(libraryDocuments.status, 'ready'),
          ),
        )
      const headings = await queryRows<{ heading: string; name: string }>(
        db,
        sql`
        select heading, name from (
          select distinct on (l.id) c.heading, l.name, l.updated_at
          from ${libraryDocuments} l
          join ${documents} d on d.user_id = l.user_id and d.source = l.source and d.external_id = l.external_id
          join ${documentChunks} c on c.document_id = d.id and c.user_id = d.user_id
          where l.user_id = ${userId} and l.status = 'ready' and not l.excluded
            and c.heading is not null and char_length(c.heading) between 3 and 80
            -- A heading that only repeats the document's name asks nothing.
            and lower(c.heading) <> lower(regexp_replace(l.name, '[.][^.]*$', ''))
          order by l.id, c.ordinal
        ) firsts
        order by updated_at desc, name
        limit ${limit}`,
      )
      return { ready: counted?.ready ?? 0, headings }
    },

    /** The user's library, excluded files left out, oldest first (a stable order while it syncs). */
    async list(userId: string): Promise<LibraryRow[]> {
      return db
        .select()
        .from(libraryDocuments)
        .where(and(eq(libraryDocuments.userId, userId), eq(libraryDocuments.excluded, false)))
        .orderBy(asc(libraryDocuments.createdAt), asc(libraryDocuments.name))
    },

    /** The Drive files the user removed from the library, by name. */
    async listExcluded(userId: string): Promise<LibraryRow[]> {
      return db
        .select()
        .from(libraryDocuments)
        .where(and(eq(libraryDocuments.userId, userId), eq(libraryDocuments.excluded, true)))
        .orderBy(asc(libraryDocuments.name))
    },

    /** The files uploaded into one of the user's conversations, in the order they came; removed ones left out. */
    async attachedTo(userId: string, conversationId: string): Promise<LibraryRow[]> {
      const rows = await db
        .select({ row: libraryDocuments })
        .from(chatAttachments)
        .innerJoin(libraryDocuments, eq(libraryDocuments.id, chatAttachments.libraryDocumentId))
        .where(
          and(
            eq(chatAttachments.conversationId, conversationId),
            eq(chatAttachments.userId, userId),
            eq(libraryDocuments.excluded, false),
          ),
        )
        .orderBy(asc(chatAttachments.createdAt), asc(libraryDocuments.name))
      return rows.map((r) => r.row)
    },
  }
}

/** One row, or one source's rows, always scoped to the owner unless found by its own id. */
function libraryLookups(db: Db) {
  return {
    /** The user's row, excluded or not; null for another user's id (a 404 either way). */
    async findAnyOwned(userId: string, id: string): Promise<LibraryRow | null> {
      const [row] = await db
        .select()
        .from(libraryDocuments)
        .where(and(eq(libraryDocuments.id, id), eq(libraryDocuments.userId, userId)))
      return row ?? null
    },

    /** Every row of one source, excluded ones included (a sync must see those to leave them out). */
    async bySource(userId: string, source: string): Promise<LibraryRow[]> {
      return db
        .select()
        .from(libraryDocuments)
        .where(and(eq(libraryDocuments.userId, userId), eq(libraryDocuments.source, source)))
    },

    /** The user's row for one file of a source (a Drive file id), excluded ones included. */
    async findExternal(userId: string, source: string, externalId: string): Promise<LibraryRow | null> {
      const [row] = await db
        .select()
        .from(libraryDocuments)
        .where(
          and(
            eq(libraryDocuments.userId, userId),
            eq(libraryDocuments.source, source),
            eq(libraryDocuments.externalId, externalId),
          ),
        )
      return row ?? null
    },

    async find(id: string): Promise<LibraryRow | null> {
      const [row] = await db.select().from(libraryDocuments).where(eq(libraryDocuments.id, id))
      return row ?? null
    },

    /** The row when it is this user's and not excluded; null otherwise (a 404 either way). */
    async findOwned(userId: string, id: string): Promise<LibraryRow | null> {
      const [row] = await db
        .select()
        .from(libraryDocuments)
        .where(
          and(
            eq(libraryDocuments.id, id),
            eq(libraryDocuments.userId, userId),
            eq(libraryDocuments.excluded, false),
          ),
        )
      return row ?? null
    },
  }
}

/** Rows attached to a conversation, marked, or deleted. */
function libraryRowWrites(db: Db) {
  return {
    /**
     * Records a file as uploaded into one of the user's conversations. A conversation deleted
     * meanwhile gets nothing: the file stays in the library, attached to nothing.
     */
    async attach(userId: string, conversationId: string, libraryDocumentId: string, at: Date): Promise<void> {
      await db.execute(sql`
        insert into ${chatAttachments} (session_id, user_id, library_document_id, created_at)
        select ${chatConversations.id}, ${chatConversations.userId}, ${libraryDocumentId}::uuid,
          ${at.toISOString()}::timestamptz
        from ${chatConversations}
        where ${chatConversations.id} = ${conversationId} and ${chatConversations.userId} = ${userId}
        on conflict do nothing`)
    },

    async setStatus(
      id: string,
      status: LibraryStatus,
      fields: {
        reason?: string | null
        pages?: number | null
        chunks?: number | null
        ocrPages?: number[] | null
      } = {},
    ): Promise<void> {
      await db
        .update(libraryDocuments)
        .set({ status, reason: null, ocrPages: null, ...fields, updatedAt: sql`now()` })
        .where(eq(libraryDocuments.id, id))
    },

    async remove(ids: readonly string[]): Promise<void> {
      if (ids.length === 0) return
      await db.delete(libraryDocuments).where(inArray(libraryDocuments.id, [...ids]))
    },
  }
}

/**
 * Marks a row `processing` and answers it; null when it is gone, excluded or not this user's (the
 * job then has nothing to do). Jobs that start together are marked by one statement.
 */
export function startReadings(db: Db): (job: { userId: string; id: string }) => Promise<LibraryRow | null> {
  return coalesced(async (starts: { userId: string; id: string }[]) => {
    const rows = await db
      .update(libraryDocuments)
      .set({ status: 'processing', reason: null, updatedAt: sql`now()` })
      .where(
        and(
          sql`(${libraryDocuments.id}, ${libraryDocuments.userId}) in (
            select * from unnest(${sql.param(starts.map((s) => s.id))}::uuid[], ${sql.param(starts.map((s) => s.userId))}::uuid[]))`,
          eq(libraryDocuments.excluded, false),
        ),
      )
      .returning()
    const byId = new Map(rows.map((r) => [r.id, r]))
    return starts.map((s) => byId.get(s.id) ?? null)
  })
}

/** Rows per upsert statement when a sync records many files at once. */
const UPSERT_BATCH = 500

/**
 * Records many files, each as its `status` at its listed revision (new rows, or the same rows
 * updated), one statement per UPSERT_BATCH; answers each row's id by external id. External ids
 * must be unique within the call (one statement cannot update a row twice).
 */
export async function upsertLibraryFiles(
  db: Executor,
  files: readonly { file: LibraryFileInput; status: LibraryStatus; reason: string | null }[],
): Promise<Map<string, string>> {
  const ids = new Map<string, string>()
  for (let at = 0; at < files.length; at += UPSERT_BATCH) {
    const rows = await db
      .insert(libraryDocuments)
      .values(
        files.slice(at, at + UPSERT_BATCH).map(({ file, status, reason }) => ({ ...file, status, reason })),
      )
      .onConflictDoUpdate({
        target: [libraryDocuments.userId, libraryDocuments.source, libraryDocuments.externalId],
        set: {
          name: sql`excluded.name`,
          mimeType: sql`excluded.mime_type`,
          webViewLink: sql`excluded.web_view_link`,
          version: sql`excluded.version`,
          modifiedTime: sql`excluded.modified_time`,
          size: sql`excluded.size`,
          viaShortcut: sql`excluded.via_shortcut`,
          status: sql`excluded.status`,
          reason: sql`excluded.reason`,
          updatedAt: sql`now()`,
        },
      })
      .returning({ id: libraryDocuments.id, externalId: libraryDocuments.externalId })
    for (const row of rows) ids.set(row.externalId, row.id)
  }
  return ids
}

/**
 * Records a file as `status` at its listed revision (new row, or the same row updated): the id
 * stays the same across revisions. Returns the row's id.
 */
export async function upsertLibraryFile(
  db: Executor,
  file: LibraryFileInput,
  status: LibraryStatus,
  reason: string | null = null,
): Promise<string> {
  const { userId, source, externalId, ...fields } = file
  const [row] = await db
    .insert(libraryDocuments)
    .values({ ...file, status, reason })
    .onConflictDoUpdate({
      target: [libraryDocuments.userId, libraryDocuments.source, libraryDocuments.externalId],
      set: { ...fields, status, reason, updatedAt: sql`now()` },
    })
    .returning({ id: libraryDocuments.id })
  if (!row) throw new Error('Upserting a library document returned no row')
  return row.id
}
