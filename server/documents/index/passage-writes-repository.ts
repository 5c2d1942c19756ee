/**
 * The statements that put passages into the index and take them out, with the BM25 statistics
 * they feed (D14), for several documents per transaction and for one large document over several
 * transactions (D91). Which documents and how many passages go into one transaction is the
 * document writer's choice (document-writer.ts); how one passage's row is built is `passageRow`'s
 * alone, so the two can change apart. Every function takes the transaction it runs in.
 *
 * Per statement, not per document: PGlite runs one statement at a time at about a millisecond
 * each, so a batch of thirty small documents costs the same dozen statements as one.
 */
import { and, eq, getTableColumns, inArray, type SQL, sql } from 'drizzle-orm'
import type { PgTable } from 'drizzle-orm/pg-core'
import type { Db } from '../../db/database.ts'
import { queryRows } from '../../db/query-rows.ts'
import { documentChunks, documents, indexingLexemes, libraryDocuments } from '../../db/schema.ts'
import type { Chunk } from '../reading/chunker.ts'
import {
  addTotals,
  countIn,
  countOut,
  countsOf,
  dropEmptiedTerms,
  type Emptied,
  type ForgetRow,
  type Forgotten,
  forgotten,
  lockStatistics,
} from './statistics-repository.ts'

/** Where a document comes from, plus its id there: (userId, source, externalId) names it. */
export type DocumentKey = { userId: string; source: string; externalId: string }

export type DocumentInput = DocumentKey & {
  /**
   * The library row's id, for a file of the library (D70: one id per document): the document
   * takes it, so a citation's documentId, a conversation's scope and the library name the same
   * document. Absent for documents outside the library (tests, benches): a random id.
   */
  id?: string
  name: string
  mimeType: string
  link: string | null
  version: string | null
  modifiedTime: Date | null
}

/** A passage with the text search configuration it is indexed in (its language, D82). */
export type IndexedChunk = Chunk & { language: string }

/** BM25's length: whitespace-separated words, the heading's included (as migration 0004 counts). */
export function tokenCount(heading: string | null, text: string): number {
  return `${heading ?? ''} ${text}`.split(/\s+/).filter(Boolean).length
}

/**
 * One passage's row in `document_chunks` (its text search vector is the database's to compute);
 * `words` is its tokenCount, worked out once by the caller.
 */
export function passageRow(documentId: string, userId: string, chunk: IndexedChunk, words: number) {
  return {
    documentId,
    userId,
    ordinal: chunk.ordinal,
    page: chunk.page,
    heading: chunk.heading,
    text: chunk.text,
    language: chunk.language,
    tokenCount: words,
  }
}

/**
 * `insert into table (columns) select * from unnest(one array per column)`: however many rows, a
 * handful of parameters, which Drizzle and the database handle far faster than one parameter per
 * value. The columns and their types come from the schema, by the rows' own fields.
 */
function insertRows<Row extends Record<string, unknown>>(table: PgTable, rows: readonly Row[]): SQL {
  const columns = getTableColumns(table)
  const fields = Object.keys(rows[0] ?? {})
  const column = (field: string) => {
    const found = columns[field]
    if (!found) throw new Error(`No column for the field ${field}`)
    return found
  }
  return sql`insert into ${table} (${sql.join(
    fields.map((f) => sql.identifier(column(f).name)),
    sql`, `,
  )}) select * from unnest(${sql.join(
    fields.map((f) => sql`${sql.param(rows.map((r) => r[f] ?? null))}::${sql.raw(column(f).getSQLType())}[]`),
    sql`, `,
  )})`
}

/**
 * Locks the library rows that are still in the library (not deleted, not removed) and answers
 * their ids: a document is written only while its row is there, and a deletion waits for the
 * write that holds the row (the same order everywhere: library row, then document).
 */
export async function lockLibraryRows(tx: Db, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set()
  const rows = await tx
    .select({ id: libraryDocuments.id })
    .from(libraryDocuments)
    .where(and(inArray(libraryDocuments.id, [...ids]), sql`${libraryDocuments.excluded} = false`))
    .for('update')
  return new Set(rows.map((r) => r.id))
}

export type OpenedDocument = {
  key: DocumentKey
  documentId: string
  inserted: boolean
  /** Passages of the version it replaces (0 for a new document). */
  oldChunks: number
}

/**
 * Creates or updates the documents' rows in one statement (keys unique within the call), with
 * their length in words; answers each one's id, whether it is new, and how many passages the
 * version it replaces has.
 */
export async function upsertDocuments(
  tx: Db,
  inputs: readonly (DocumentInput & { tokenCount: number })[],
): Promise<OpenedDocument[]> {
  // Documents with the library's id and those without in a statement each: only the first kind
  // re-keys a document indexed under another id (its passages follow: ON UPDATE CASCADE).
  const keyed = inputs.filter((input) => input.id !== undefined)
  const unkeyed = inputs.filter((input) => input.id === undefined)
  const rows = [...(await upsertRows(tx, keyed, true)), ...(await upsertRows(tx, unkeyed, false))]
  const byKey = new Map(rows.map((r) => [`${r.userId}\n${r.source}\n${r.externalId}`, r]))
  return inputs.map((input) => {
    const row = byKey.get(`${input.userId}\n${input.source}\n${input.externalId}`)
    if (!row) throw new Error('Upserting a document returned no row')
    return {
      key: { userId: input.userId, source: input.source, externalId: input.externalId },
      documentId: row.id,
      inserted: row.inserted,
      oldChunks: Number(row.oldChunks),
    }
  })
}

async function upsertRows(
  tx: Db,
  inputs: readonly (DocumentInput & { tokenCount: number })[],
  takeId: boolean,
) {
  if (inputs.length === 0) return []
  return (
    tx
      .insert(documents)
      .values(inputs.map((input) => ({ ...input })))
      .onConflictDoUpdate({
        target: [documents.userId, documents.source, documents.externalId],
        set: {
          ...(takeId ? { id: sql`excluded.id` } : {}),
          name: sql`excluded.name`,
          mimeType: sql`excluded.mime_type`,
          link: sql`excluded.link`,
          version: sql`excluded.version`,
          modifiedTime: sql`excluded.modified_time`,
          tokenCount: sql`excluded.token_count`,
          // Written now with each passage's language: nothing left for the language pass (D82).
          languagesFrom: sql`null`,
          updatedAt: sql`now()`,
        },
      })
      // xmax is 0 on a freshly inserted row version (PostgreSQL 15 and 18 alike); the count reads
      // the statement's snapshot, so it counts the passages of the version being replaced.
      .returning({
        id: documents.id,
        userId: documents.userId,
        source: documents.source,
        externalId: documents.externalId,
        inserted: sql<boolean>`xmax = 0`,
        // Spelled out: Drizzle writes a returned column unqualified, which inside the subquery
        // would name the passage's own id.
        oldChunks: sql<number>`(select count(*)::int from document_chunks c where c.document_id = "documents"."id")`,
      })
  )
}

/** A run of one document's passages written by one statement. */
export type PassageSlice = {
  documentId: string
  userId: string
  chunks: readonly IndexedChunk[]
  /** Each passage's length in words (tokenCount). */
  words: readonly number[]
  /**
   * The document's passages are written over several statements: each lexeme counts once in
   * `document_count`, in the first part that holds it (indexing_lexemes, direction 1, remembers).
   */
  parted: boolean
}

/**
 * Inserts the passages of several documents and adds them to their owners' term statistics, in
 * one statement: the insert hands its rows' text search vectors straight to the statistics, so
 * nothing is read back. Per language and lexeme: chunk_count grows by the passages holding it,
 * document_count by the documents holding it (a parted document's: only in the first part that
 * does); per language, its passages, documents and words (D82).
 */
export async function insertPassages(tx: Db, slices: readonly PassageSlice[]): Promise<void> {
  const rows = slices.flatMap((s) =>
    s.chunks.map((c, i) => passageRow(s.documentId, s.userId, c, s.words[i] ?? 0)),
  )
  if (rows.length === 0) return
  const parted = slices.filter((s) => s.parted).map((s) => s.documentId)
  await tx.execute(sql`
    with ins as (${insertRows(documentChunks, rows)} returning document_id, user_id, language, tsv, token_count),
    ${countsOf('ins', 1, parted)},
    ${countIn}`)
}

/**
 * Deletes the passages of these documents (of one document, at most `limit` of them) and takes
 * them out of their owners' statistics, in one statement. Each lexeme of a document leaves
 * document_count once, in the first part that holds it (indexing_lexemes, direction -1, remembers
 * which went already); what an unfinished part-wise write counted in (direction 1) is dropped
 * first, since those lexemes are the passages' own. Answers what was taken out and how many
 * passages are left; call `endParts` once none are.
 */
export async function removePassages(
  tx: Db,
  documentIds: readonly string[],
  limit?: number,
): Promise<Forgotten & { left: number }> {
  if (documentIds.length === 0) return { byUser: new Map(), emptied: [], left: 0 }
  if (limit !== undefined && documentIds.length !== 1) throw new Error("A part is one document's")
  const ids = sql.param([...documentIds])
  await tx
    .delete(indexingLexemes)
    .where(and(inArray(indexingLexemes.documentId, [...documentIds]), eq(indexingLexemes.direction, 1)))
  const deleted =
    limit === undefined
      ? sql`delete from ${documentChunks} where document_id = any(${ids}::uuid[])
          returning document_id, user_id, language, tsv, token_count`
      : sql`delete from ${documentChunks} where id in (
            select id from ${documentChunks} where document_id = any(${ids}::uuid[]) limit ${limit})
          returning document_id, user_id, language, tsv, token_count`
  const rows = await queryRows<ForgetRow>(
    tx,
    sql`
    with old as (${deleted}),
    ${countsOf('old', -1, documentIds)},
    ${countOut}`,
  )
  if (limit === undefined) return { ...forgotten(rows), left: 0 }
  const [rest] = await queryRows<{ left: number }>(
    tx,
    sql`select count(*)::int as left from ${documentChunks} where document_id = any(${ids}::uuid[])`,
  )
  return { ...forgotten(rows), left: Number(rest?.left ?? 0) }
}

/** A passage of a document (by ordinal) and the language it is to be indexed in. */
export type PassageLanguage = { ordinal: number; language: string }

/**
 * The language pass's part (D82): these passages of one document are taken out of their owner's
 * statistics as they are indexed now, given their language (their words follow: the vector is
 * generated), and counted in again. Over the document's parts each of its lexemes leaves and
 * enters document_count once per language (indexing_lexemes, both directions); call `endParts`
 * after the last. Answers the lexemes and languages left without a passage.
 */
export async function relabelPassages(
  tx: Db,
  documentId: string,
  part: readonly PassageLanguage[],
): Promise<Emptied[]> {
  if (part.length === 0) return []
  const ordinals = sql.param(part.map((p) => p.ordinal))
  const out = await queryRows<ForgetRow>(
    tx,
    sql`
    with old as (
      select document_id, user_id, language, tsv, token_count from ${documentChunks}
      where document_id = ${documentId} and ordinal = any(${ordinals}::int[])
    ),
    ${countsOf('old', -1, [documentId])},
    ${countOut}`,
  )
  await tx.execute(sql`
    with ins as (
      update ${documentChunks} c set language = v.language
      from unnest(${ordinals}::int[], ${sql.param(part.map((p) => p.language))}::regconfig[]) as v(ordinal, language)
      where c.document_id = ${documentId} and c.ordinal = v.ordinal
      returning c.document_id, c.user_id, c.language, c.tsv, c.token_count
    ),
    ${countsOf('ins', 1, [documentId])},
    ${countIn}`)
  return forgotten(out).emptied
}

/** The document's id, or null when there is none; `lock`: its row locked until the transaction ends. */
export async function findDocumentId(
  tx: Db,
  key: DocumentKey,
  { lock = false } = {},
): Promise<string | null> {
  const query = tx
    .select({ id: documents.id })
    .from(documents)
    .where(
      and(
        eq(documents.userId, key.userId),
        eq(documents.source, key.source),
        eq(documents.externalId, key.externalId),
      ),
    )
  const [row] = await (lock ? query.for('update') : query)
  return row?.id ?? null
}

/**
 * Where the language pass stands in a document (D82): the ordinal from which its passages wait,
 * null when none do (or the document is gone); the row locked until the transaction ends.
 */
export async function lockLanguagesFrom(tx: Db, documentId: string): Promise<number | null> {
  const [row] = await tx
    .select({ from: documents.languagesFrom })
    .from(documents)
    .where(eq(documents.id, documentId))
    .for('update')
  return row?.from ?? null
}

/** How far the language pass got in a document: the ordinal it resumes from, or null once done. */
export async function setLanguagesFrom(tx: Db, documentId: string, from: number | null): Promise<void> {
  await tx.update(documents).set({ languagesFrom: from }).where(eq(documents.id, documentId))
}

/** How many passages a document has now. */
export async function passageCount(tx: Db, documentId: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    tx,
    sql`select count(*)::int as n from ${documentChunks} where document_id = ${documentId}`,
  )
  return Number(row?.n ?? 0)
}

/** What a library row shows once its document is written (`chunks` added by the writer). */
export type LibraryOutcome = {
  id: string
  pages: number | null
  /** The pages OCR read (D74); null when it read none. */
  ocrPages: number[] | null
  /** What was left unread (a limit reached), or null. */
  reason: string | null
}

/** The library rows of written documents: ready, with their pages, passages, OCR'd pages and why a document was cut. */
export async function markLibraryReady(
  tx: Db,
  rows: readonly (LibraryOutcome & { chunks: number })[],
): Promise<void> {
  if (rows.length === 0) return
  await tx.execute(sql`
    update ${libraryDocuments} l set status = 'ready', reason = v.reason, pages = v.pages, chunks = v.chunks,
      ocr_pages = v.ocr_pages, updated_at = now()
    from (values ${sql.join(
      rows.map(
        (r) =>
          sql`(${r.id}::uuid, ${r.pages}::int, ${r.chunks}::int, ${r.reason}::text, ${r.ocrPages === null ? null : sql.param(r.ocrPages)}::int[])`,
      ),
      sql`, `,
    )}) as v(id, pages, chunks, reason, ocr_pages)
    where l.id = v.id`)
}

/**
 * Forgets a document and its passages in one transaction, with their statistics (answers already
 * given keep their source snapshots); false when there was none. A large document is shrunk
 * first (DocumentWriter.shrink), which keeps that transaction short.
 */
export async function removeDocument(db: Db, key: DocumentKey): Promise<boolean> {
  return db.transaction(async (tx) => {
    const documentId = await findDocumentId(tx, key, { lock: true })
    if (!documentId) return false
    await lockStatistics(tx, [key.userId])
    const removed = await removePassages(tx, [documentId])
    await dropEmptiedTerms(tx, removed.emptied)
    await tx.delete(documents).where(eq(documents.id, documentId))
    const amount = removed.byUser.get(key.userId) ?? { chunks: 0, tokens: 0 }
    await addTotals(
      tx,
      new Map([[key.userId, { chunks: -amount.chunks, documents: -1, tokens: -amount.tokens }]]),
    )
    return true
  })
}

/** Deletes a document's row once its passages are gone; false when it was gone already. */
export async function deleteDocumentRow(tx: Db, documentId: string): Promise<boolean> {
  const gone = await tx.delete(documents).where(eq(documents.id, documentId)).returning({ id: documents.id })
  return gone.length > 0
}
