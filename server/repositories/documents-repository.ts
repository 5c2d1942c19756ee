/**
 * A user's documents and their chunks: replace a document's chunks atomically, remove a document,
 * and the ranked full-text search retrieval runs (see `search` for the query and why).
 */
import { and, eq, sql } from 'drizzle-orm'
import type { Passage } from '../assistant/passages.ts'
import type { Db } from '../db/database.ts'
import { documentChunks, documents } from '../db/schema.ts'
import type { Chunk } from '../ingest/chunker.ts'

/** Where a document comes from, plus its id there: (userId, source, externalId) names it. */
export type DocumentKey = { userId: string; source: string; externalId: string }

export type DocumentInput = DocumentKey & {
  name: string
  mimeType: string
  link: string | null
  version: string | null
  modifiedTime: Date | null
}

export type DocumentsRepository = ReturnType<typeof createDocumentsRepository>

/**
 * The most question words a search uses: a pasted page of text would otherwise become an OR of
 * hundreds of lexemes that matches (and ranks) nearly every chunk. The first ones are kept.
 */
export const MAX_QUERY_TERMS = 32
/**
 * How many candidates get the full ranking. A question of common words matches thousands of
 * chunks; they are first cut to this many by a cheap score (ts_rank over the OR query, which is
 * about the share of the question's words a chunk holds), with every chunk that matches the whole
 * question ahead of the rest.
 */
export const CANDIDATE_POOL = 64
/** Rows per INSERT: well under PostgreSQL's 65,535 bind parameters at 6 per row. */
const CHUNK_INSERT_BATCH = 500

type PassageRow = {
  chunk_id: string
  document_id: string
  document_name: string
  page: number | null
  heading: string | null
  link: string | null
  text: string
  rank: number
}

export function createDocumentsRepository(db: Db) {
  return {
    /**
     * Upserts the document and swaps its chunks for `chunks` in one transaction: a concurrent
     * search sees the previous version or this one, never a mix, and a failure keeps the previous.
     */
    async replace(input: DocumentInput, chunks: Chunk[]): Promise<{ documentId: string }> {
      return db.transaction(async (tx) => {
        const { userId, source, externalId, ...fields } = input
        const [document] = await tx
          .insert(documents)
          .values({ userId, source, externalId, ...fields })
          .onConflictDoUpdate({
            target: [documents.userId, documents.source, documents.externalId],
            set: { ...fields, updatedAt: sql`now()` },
          })
          .returning({ id: documents.id })
        if (!document) throw new Error('Upserting a document returned no row')
        await tx.delete(documentChunks).where(eq(documentChunks.documentId, document.id))
        for (let i = 0; i < chunks.length; i += CHUNK_INSERT_BATCH) {
          await tx.insert(documentChunks).values(
            chunks.slice(i, i + CHUNK_INSERT_BATCH).map((c) => ({
              documentId: document.id,
              userId,
              ordinal: c.ordinal,
              page: c.page,
              heading: c.heading,
              text: c.text,
            })),
          )
        }
        return { documentId: document.id }
      })
    },

    /** Deletes the document and (by cascade) its chunks; false when there was none. */
    async remove(key: DocumentKey): Promise<boolean> {
      const rows = await db
        .delete(documents)
        .where(
          and(
            eq(documents.userId, key.userId),
            eq(documents.source, key.source),
            eq(documents.externalId, key.externalId),
          ),
        )
        .returning({ id: documents.id })
      return rows.length > 0
    },

    /**
     * The user's `limit` best passages for a question, in one statement (PGlite runs one query at
     * a time, so round trips are what costs).
     *
     * Candidates: chunks of this user (`user_id = $1` is applied before any ranking, so nobody
     * else's text is ever scored or returned) that contain ANY of the question's lexemes, found
     * through the GIN index on `tsv`. websearch_to_tsquery alone ANDs every word, and a natural
     * question ("What is the daily food allowance when travelling abroad?") rarely has all its
     * words in the passage that answers it. We rank the OR with a boost for matching the whole
     * query rather than running the AND and falling back to the OR when it finds fewer than
     * `limit`: one round trip instead of two on most questions, and one ranking for both tiers.
     *
     * Ranking, highest first:
     * 1. chunks that satisfy the question as a web search (websearch_to_tsquery: every word, and
     *    "quoted phrases" / -exclusions when someone types them): 2 + their cover density;
     * 2. the others: the share of the question's lexemes they contain (0..1), plus their cover
     *    density against the OR query, so a chunk with most of the words beats one that repeats
     *    a single word many times.
     * Cover density (ts_rank_cd) rather than ts_rank: it scores the extents where the query terms
     * occur together, so "meal allowance abroad" in one sentence beats the three words scattered
     * over a page, and heading words (weight A) count more than body words (B). Normalisation
     * 1|32: divided by 1 + log(length), so a long chunk does not win by size alone, then mapped
     * into [0, 1) (rank / (rank + 1)) so it never outweighs a tier or a whole lexeme of coverage.
     *
     * That full score is computed for a pool of CANDIDATE_POOL chunks only: common words match
     * thousands of chunks, and scoring them all doubled the cost (bench/RESULTS.md). The pool
     * keeps whole-query matches first, then the best by ts_rank over the OR query, which sums a
     * saturating per-word score over the question's words — close to the share of words present.
     *
     * The OR query is built from to_tsvector of the question (stemmed, stopwords gone), each
     * lexeme quoted for the tsquery parser; a question of only stopwords or punctuation has no
     * lexemes, its OR query is NULL, and it matches nothing (no error, no notice).
     */
    async search(userId: string, question: string, limit: number): Promise<Passage[]> {
      if (limit <= 0 || question.trim() === '') return []
      const query = sql`
        with terms as (
          select array(
            select t.lexeme from unnest(to_tsvector('english', ${question})) as t
            order by t.positions[1] limit ${MAX_QUERY_TERMS}
          ) as lexemes
        ), q as (
          select
            websearch_to_tsquery('english', ${question}) as all_terms,
            terms.lexemes,
            (select string_agg('''' || replace(replace(l, '\\', '\\\\'), '''', '''''') || '''', ' | ')
               from unnest(terms.lexemes) as l)::tsquery as any_term
          from terms
        ), pool as (
          select c.id
          from q cross join document_chunks c
          where c.user_id = ${userId} and c.tsv @@ q.any_term
          order by c.tsv @@ q.all_terms desc, ts_rank(c.tsv, q.any_term) desc
          limit ${Math.max(limit, CANDIDATE_POOL)}
        )
        select c.id as chunk_id, c.document_id, d.name as document_name, c.page, c.heading, d.link, c.text,
          case when c.tsv @@ q.all_terms
            then 2 + ts_rank_cd(c.tsv, q.all_terms, 1|32)
            else (length(c.tsv) - length(ts_delete(c.tsv, q.lexemes)))::float8 / cardinality(q.lexemes)
              + ts_rank_cd(c.tsv, q.any_term, 1|32)
          end as rank
        from q
        cross join pool
        join document_chunks c on c.id = pool.id
        join documents d on d.id = c.document_id
        order by rank desc, c.id
        limit ${limit}`
      // Both drivers answer `{ rows }`; the shared Db type leaves the result shape open.
      const { rows } = (await db.execute(query)) as unknown as { rows: PassageRow[] }
      return rows.map((r) => ({
        chunkId: r.chunk_id,
        documentId: r.document_id,
        documentName: r.document_name,
        page: r.page,
        heading: r.heading,
        link: r.link,
        text: r.text,
        rank: Number(r.rank),
      }))
    },
  }
}
