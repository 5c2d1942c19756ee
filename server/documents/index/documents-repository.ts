/**
 * A user's documents as retrieval reads them: the search (passage-search.ts, over the term
 * statistics kept as documents are written, passage-writes.ts), and the documents the language
 * pass has yet to re-index in their own languages (D82; it rewrites them through the document
 * writer), and a conversation's chosen documents read whole or from their start (D70, D71).
 */
import { asc, eq, sql } from 'drizzle-orm'
import type { Db } from '../../db/database.ts'
import { queryRows } from '../../db/query-rows.ts'
import { documentChunks, documents } from '../../db/schema.ts'
import { searchPassages } from './passage-search.ts'
import type { DocumentKey } from './passage-writes-repository.ts'
import type { Passage } from './passages.ts'
import { type PassageRow, toPassage } from './passages.ts'
import type { PassageSearch } from './search-terms.ts'

export type DocumentsRepository = ReturnType<typeof createDocumentsRepository>

/**
 * Kept for the ingest's call: PGlite has no autovacuum, so after a batch of writes the planner's
 * statistics are refreshed when more than 10 % of the chunks (and at least 1,000) changed since
 * the last ANALYZE. The ranking itself no longer reads them (its term counts are exact, kept as
 * passages are written); the query planner still does.
 */
export async function refreshChunkStatistics(db: Db): Promise<boolean> {
  // This session's counts reach the statistics views only once flushed (PostgreSQL >= 15 flushes
  // at most once a second); ask for it now, so the check below sees this ingest's writes.
  // A role may be denied the function on a PostgreSQL server, where autovacuum covers this anyway.
  await db.execute(sql`select pg_stat_force_next_flush()`).catch(() => undefined)
  const rows = await queryRows<{ changed: number; live: number }>(
    db,
    sql`
    select n_mod_since_analyze::float8 as changed, n_live_tup::float8 as live
    from pg_stat_user_tables where relname = 'document_chunks'`,
  )
  const stats = rows[0]
  if (!stats || stats.changed < Math.max(1000, 0.1 * stats.live)) return false
  // The term statistics grow with the chunks; the planner's row counts for them decide whether a
  // question's words are looked up one by one (they should be).
  await db.execute(sql`analyze document_chunks, retrieval_terms, retrieval_languages`)
  return true
}

/** A document the language pass has yet to do: its passages, and the ordinal it resumes from. */
export type PendingDocument = {
  documentId: string
  key: DocumentKey
  from: number
  chunks: { ordinal: number; page: number | null; heading: string | null; text: string; language: string }[]
}

export function createDocumentsRepository(db: Db) {
  return { ...pendingLanguages(db), ...searches(db), ...chosenDocuments(db) }
}

/** What the language pass reads (D82). */
function pendingLanguages(db: Db) {
  return {
    /**
     * The next document (by id, after `after`) whose passages were indexed before languages were
     * detected (D82), with its passages in order (all of them: a document's language is told from
     * all its text); null when none is left.
     */
    async nextPendingLanguages(after: string | null): Promise<PendingDocument | null> {
      const [row] = await queryRows<{
        id: string
        user_id: string
        source: string
        external_id: string
        languages_from: number
      }>(
        db,
        sql`select id, user_id, source, external_id, languages_from from ${documents}
            where languages_from is not null and (${after}::uuid is null or id > ${after}::uuid)
            order by id limit 1`,
      )
      if (!row) return null
      const chunks = await db
        .select({
          ordinal: documentChunks.ordinal,
          page: documentChunks.page,
          heading: documentChunks.heading,
          text: documentChunks.text,
          language: documentChunks.language,
        })
        .from(documentChunks)
        .where(eq(documentChunks.documentId, row.id))
        .orderBy(asc(documentChunks.ordinal))
      return {
        documentId: row.id,
        key: { userId: row.user_id, source: row.source, externalId: row.external_id },
        from: Number(row.languages_from),
        chunks,
      }
    },
  }
}

/** The keyword search, as retrieval calls it. */
function searches(db: Db) {
  return {
    /** The user's `limit` best passages for a question (searchPassages, without what it searched for). */
    async search(userId: string, question: string, limit: number): Promise<Passage[]> {
      return (await searchPassages(db, userId, question, limit)).passages
    },

    /** The user's best passages, with what was searched for (corrections, languages). */
    searchWithTerms(userId: string, question: string, limit: number): Promise<PassageSearch> {
      return searchPassages(db, userId, question, limit)
    },
  }
}

/** A conversation's chosen documents, read whole or from their start (D70, D71). */
function chosenDocuments(db: Db) {
  return {
    /**
     * Every passage of these documents of the user's, in reading order (the documents in the
     * order given, each from its first passage), when together they come to at most
     * `tokenBudget` tokens as passageTokens counts them; an empty list when they do not (or hold
     * no text). One statement: the total is summed in the database, so nothing is sent back for
     * documents too large to go whole; and documents far too large are not even read: a word is
     * at least half a token as passageTokens counts (a character and a space), so more words than
     * 4 × the budget (the documents' own word counts, kept at ingest) cannot fit.
     */
    async wholeDocuments(
      userId: string,
      documentIds: readonly string[],
      tokenBudget: number,
    ): Promise<Passage[]> {
      if (documentIds.length === 0 || tokenBudget <= 0) return []
      const ids = sql.param([...documentIds])
      const rows = await queryRows<PassageRow & { position: number; ordinal: number }>(
        db,
        sql`
        with chosen as (
          select c.id, c.document_id, c.ordinal, c.page, c.heading, c.text, c.language, d.name, d.link,
            array_position(${ids}::uuid[], c.document_id) as position,
            ceil((length(c.text) + coalesce(length(c.heading), 0) + length(d.name) + 8) / 4.0) as tokens
          from document_chunks c join documents d on d.id = c.document_id
          where c.user_id = ${userId} and c.document_id = any(${ids}::uuid[])
            and (select coalesce(sum(w.token_count), 0) from documents w
                 where w.user_id = ${userId} and w.id = any(${ids}::uuid[])) <= ${4 * tokenBudget}
        )
        select id as chunk_id, document_id, name as document_name, page, heading, link, text,
          language::text as language, 0 as rank, position, ordinal
        from chosen
        where (select sum(tokens) from chosen) <= ${tokenBudget}
        order by position, ordinal`,
      )
      return rows.map(toPassage)
    },

    /** The first passage of each of these documents of the user's (for a chosen document nothing else found). */
    async openingPassages(userId: string, documentIds: readonly string[]): Promise<Passage[]> {
      if (documentIds.length === 0) return []
      const ids = sql.param([...documentIds])
      const rows = await queryRows<PassageRow>(
        db,
        sql`
        select distinct on (c.document_id) c.id as chunk_id, c.document_id, d.name as document_name,
          c.page, c.heading, d.link, c.text, c.language::text as language, 0 as rank
        from document_chunks c join documents d on d.id = c.document_id
        where c.user_id = ${userId} and c.document_id = any(${ids}::uuid[])
        order by c.document_id, c.ordinal`,
      )
      const order = new Map(documentIds.map((id, i) => [id, i]))
      return rows
        .map(toPassage)
        .sort((a, b) => (order.get(a.documentId) ?? 0) - (order.get(b.documentId) ?? 0))
    },
  }
}
