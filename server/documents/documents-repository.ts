/**
 * The BM25 search retrieval runs over a user's passages (see `search`), from the term statistics
 * kept as documents are written (passage-writes.ts).
 */
import { sql } from 'drizzle-orm'
import type { Db } from '../db/database.ts'
import { queryRows } from '../db/query-rows.ts'
import type { Passage } from './passages.ts'

export type DocumentsRepository = ReturnType<typeof createDocumentsRepository>

/**
 * The most question words a search uses: a pasted page of text would otherwise become an OR of
 * hundreds of lexemes that matches (and scores) nearly every chunk. The first ones are kept.
 */
export const MAX_QUERY_TERMS = 32
/**
 * BM25's term-frequency saturation and length normalisation (the usual Lucene values). A heading
 * word counts once in a passage's term frequency, like any other of its words: counting heading
 * words twice scored lower on bench/quality.ts (the document's name and score carry the topic).
 */
export const BM25_K1 = 1.2
export const BM25_B = 0.75
/**
 * Length normalisation of the document-level BM25 (a document scored as one text): stronger than
 * a passage's, since documents differ in length far more than passages do, and a long page that
 * mentions every word once (a list of plugins) should not outrank the page about the topic.
 * bench/quality.ts, both question sets: 0.75 → 0.9 (with DOCUMENT_WEIGHT 3 → 2) took nDCG@10
 * from 0.785 to 0.795 on the 53 questions the weights were chosen on and from 0.774 to 0.788 on
 * the 30 held-out questions written afterwards.
 */
export const DOCUMENT_B = 0.9
/**
 * How many postings (chunks holding a question word, from the user's own term counts) a question
 * reads in full. Words are taken rarest first until their chunk counts reach this: in a library
 * of a few thousand passages that is usually every word of a question, topic words included
 * (bench/quality.ts, 2,500 passages: 800, 1,500 and 4,000 rank the same); in one of 100,000 the
 * words found in thousands of chunks are not read one by one (see `search`; 4,000 cost several
 * times the p95 of bench/retrieval.ts).
 */
export const FULL_READ_POSTINGS = 1000
/** The most chunks read for the "most of the words" candidates when some words are that common. */
export const MAX_CANDIDATES_READ = 500
/** How many of the best passages bring their documents into the document-level score. */
export const DOCUMENT_POOL = 40
/**
 * Weight of the document's own score (the document scored as one text, normalised to the best
 * document of this question) against the passage's BM25 (normalised the same way): a passage of
 * a page about the whole topic beats a stray passage with the same words. Chosen on
 * bench/quality.ts (0: 0.69 nDCG@10, 1: 0.74, 2: 0.76, 3: 0.76, 4: 0.76 before names counted;
 * 2 with DOCUMENT_B, see there).
 */
export const DOCUMENT_WEIGHT = 2
/**
 * A question word in the document's name (a Drive file title, "Hooks.md") adds this many times
 * its idf to the document's score: people name documents after their topic. 0 → 3 took
 * bench/quality.ts from 0.76 to 0.80 nDCG@10.
 */
export const NAME_WEIGHT = 1
/** A ranked passage as the search queries select it (snake_case columns). */
export type PassageRow = {
  chunk_id: string
  document_id: string
  document_name: string
  page: number | null
  heading: string | null
  link: string | null
  text: string
  rank: number
}

export function toPassage(r: PassageRow): Passage {
  return {
    chunkId: r.chunk_id,
    documentId: r.document_id,
    documentName: r.document_name,
    page: r.page,
    heading: r.heading,
    link: r.link,
    text: r.text,
    rank: Number(r.rank),
  }
}

type TermRow = {
  lexeme: string
  chunks: number
  documents: number
  total_chunks: number | null
  total_documents: number | null
  total_tokens: number | null
}

/** Lucene's BM25 idf: never negative, even for a word in every chunk. */
function idf(total: number, holding: number): number {
  return Math.log(1 + (total - holding + 0.5) / (holding + 0.5))
}

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
  await db.execute(sql`analyze document_chunks`)
  return true
}

/** A lexeme as the tsquery parser reads it: quoted, quotes and backslashes escaped. */
function quoted(lexeme: string): string {
  return `'${lexeme.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`
}

/** Chunks with any of these lexemes. */
function anyOf(lexemes: readonly string[]): string {
  return lexemes.map(quoted).join(' | ')
}

/** Lexemes that take part in the "most of the words" queries: C(11, 9) = 55 combinations at most. */
const MOST_TERMS = 12

/** Every way to pick `size` of `words`. */
function combinations(words: readonly string[], size: number): string[][] {
  if (size === 0) return [[]]
  const out: string[][] = []
  const pick = (start: number, chosen: string[]) => {
    if (chosen.length === size) {
      out.push(chosen)
      return
    }
    for (let i = start; i <= words.length - (size - chosen.length); i++)
      pick(i + 1, [...chosen, words[i] as string])
  }
  pick(0, [])
  return out
}

/**
 * Chunks with most of the question's words together — two of three, three of four, all but two
 * from five on — as two queries, each led by one of the two rarest words (`byRarity` is rarest
 * first): the rarest word and most of the others, or the second rarest and most of the rest. A
 * word every match must hold lets the GIN index walk that word's short posting list and skip
 * through the long ones.
 */
function mostOf(byRarity: readonly string[]): [string, string | null] {
  const words = byRarity.slice(0, MOST_TERMS)
  const n = words.length
  if (n <= 2) return [words.map(quoted).join(' & '), null]
  const size = n === 3 ? 2 : n === 4 ? 3 : n - 2
  const [first, second, ...rest] = words as [string, string, ...string[]]
  const led = (lead: string, others: readonly string[]) => {
    const alternatives = combinations(others, size - 1).map((c) => c.map(quoted).join(' & '))
    return `${quoted(lead)} & (${alternatives.map((a) => `(${a})`).join(' | ')})`
  }
  return [led(first, [second, ...rest]), rest.length >= size - 1 ? led(second, rest) : null]
}

export function createDocumentsRepository(db: Db) {
  /**
   * The question's lexemes (stemmed, stopwords gone, in the order they occur, at most
   * MAX_QUERY_TERMS) with how many of the user's chunks and documents hold each, and the user's
   * totals: one small query on the term statistics kept as documents are written (passage-writes.ts).
   */
  async function questionTerms(userId: string, question: string) {
    const rows = await queryRows<TermRow>(
      db,
      sql`
      select t.lexeme, coalesce(r.chunk_count, 0) as chunks, coalesce(r.document_count, 0) as documents,
        s.chunk_count as total_chunks, s.document_count as total_documents, s.token_count::float8 as total_tokens
      from (
        select u.lexeme, u.positions[1] as position
        from unnest(to_tsvector('english', ${question})) as u
        order by u.positions[1] limit ${MAX_QUERY_TERMS}
      ) as t
      left join retrieval_terms r on r.user_id = ${userId} and r.lexeme = t.lexeme
      left join retrieval_totals s on s.user_id = ${userId}
      order by t.position`,
    )
    const totals = rows[0]
    return {
      terms: rows
        .map((r) => ({ lexeme: r.lexeme, chunks: Number(r.chunks), documents: Number(r.documents) }))
        .filter((t) => t.chunks > 0),
      chunks: Number(totals?.total_chunks ?? 0),
      documents: Number(totals?.total_documents ?? 0),
      tokens: Number(totals?.total_tokens ?? 0),
    }
  }

  return {
    /**
     * The user's `limit` best passages for a question by BM25, with document-level evidence, in
     * two statements (PGlite runs one query at a time, so round trips are what costs).
     *
     * Owner first: every chunk read is the user's (`user_id = $1` on each candidate query), and
     * the statistics are the user's own (retrieval_terms / retrieval_totals), so nobody else's
     * text is ever scored, returned, or even shifts the weights.
     *
     * Score of a passage: BM25 over the question's lexemes (idf from the user's chunk counts, term
     * frequency from the chunk's tsvector positions, length in words against the user's average),
     * normalised to the best passage of the question (0..1), plus DOCUMENT_WEIGHT × its document's
     * score normalised the same way: BM25 of the document as one text (summed term frequencies of
     * its candidate chunks, idf from the user's document counts, length against the average
     * document, DOCUMENT_B) plus NAME_WEIGHT × the idf of each question word in the document's name. The
     * document score is computed for the documents of the DOCUMENT_POOL best passages, from the
     * chunks already read (exact whenever every question word was read in full, see below).
     *
     * Candidates: the question's words are taken rarest first while their chunk counts add up to
     * FULL_READ_POSTINGS, and every chunk holding any of them is scored — in a library of a few
     * thousand passages that is every word. Words beyond that (held by thousands of chunks in a
     * large library) are not read one by one; chunks holding most of the question's words
     * together (mostOf, led by the rarest words) are read instead, MAX_CANDIDATES_READ at most.
     * The term frequencies of a chunk come from its tsvector cut down to the question's lexemes
     * (they are given weight D, which no stored passage uses, and only D is kept: two passes in C
     * over the vector), so scoring a chunk never unnests its whole vocabulary. The earlier cut,
     * `ts_delete` of `tsvector_to_array` of everything else, built a text value per word of
     * the passage and cost about 7× as much (bench/retrieval.ts).
     *
     * A question of only stopwords or punctuation, or of words none of the user's chunks hold,
     * finds nothing (no error, no notice).
     */
    async search(userId: string, question: string, limit: number): Promise<Passage[]> {
      if (limit <= 0 || question.trim() === '') return []
      const stats = await questionTerms(userId, question)
      const terms = stats.terms
      if (terms.length === 0 || stats.chunks === 0) return []
      const byRarity = [...terms].sort((a, b) => a.chunks - b.chunks)
      const full: string[] = []
      let postings = 0
      for (const t of byRarity) {
        if (postings + t.chunks > FULL_READ_POSTINGS) break
        full.push(t.lexeme)
        postings += t.chunks
      }
      const common = full.length < byRarity.length
      const [mostLed, mostSecond] = common ? mostOf(byRarity.map((t) => t.lexeme)) : [null, null]
      const lexemes = terms.map((t) => t.lexeme)
      const chunkIdf = terms.map((t) => idf(stats.chunks, t.chunks))
      const documentIdf = terms.map((t) => idf(Math.max(stats.documents, 1), t.documents))
      const averageChunk = Math.max(stats.tokens / stats.chunks, 1)
      const averageDocument = Math.max(stats.tokens / Math.max(stats.documents, 1), 1)
      const query = sql`
        with q as (
          select ${sql.param(lexemes)}::text[] as lexemes,
            ${sql.param(chunkIdf)}::float8[] as chunk_idf,
            ${sql.param(documentIdf)}::float8[] as document_idf
        ), candidates as (
          (select c.id from document_chunks c
           where ${full.length > 0} and c.user_id = ${userId} and c.tsv @@ ${full.length > 0 ? anyOf(full) : null}::tsquery)
          union
          (select c.id from document_chunks c
           where ${common} and c.user_id = ${userId}
             and (c.tsv @@ ${mostLed}::tsquery or c.tsv @@ ${mostSecond}::tsquery)
           limit ${MAX_CANDIDATES_READ})
        ), hits as (
          select c.id, c.document_id, c.token_count, t.lexeme, cardinality(t.positions)::float8 as tf
          from candidates k
          join document_chunks c on c.id = k.id
          cross join q
          cross join lateral unnest(ts_filter(setweight(c.tsv, 'D', q.lexemes), '{d}')) as t
        ), scored as (
          select h.id, h.document_id,
            sum(q.chunk_idf[array_position(q.lexemes, h.lexeme)] * h.tf * ${BM25_K1 + 1}::float8
              / (h.tf + ${BM25_K1}::float8 * (1 - ${BM25_B}::float8 + ${BM25_B}::float8 * h.token_count / ${averageChunk}::float8))) as score
          from hits h cross join q
          group by h.id, h.document_id
        ), pool as (
          select * from scored order by score desc, id limit ${Math.max(limit, DOCUMENT_POOL)}
        ), document_term_hits as (
          select h.document_id, h.lexeme, sum(h.tf) as tf
          from hits h
          where h.document_id in (select document_id from pool)
          group by h.document_id, h.lexeme
        ), document_names as (
          select d.id, to_tsvector('english', regexp_replace(d.name, '[-_./]+', ' ', 'g')) as words
          from documents d where d.id in (select document_id from pool)
        ), document_hits as (
          select h.*, n.words @@ quote_literal(h.lexeme)::tsquery as in_name
          from document_term_hits h join document_names n on n.id = h.document_id
        ), document_scores as (
          select h.document_id,
            sum(q.document_idf[array_position(q.lexemes, h.lexeme)] * h.tf * ${BM25_K1 + 1}::float8
              / (h.tf + ${BM25_K1}::float8 * (1 - ${DOCUMENT_B}::float8 + ${DOCUMENT_B}::float8 * d.token_count / ${averageDocument}::float8)))
              + ${NAME_WEIGHT}::float8 * coalesce(sum(q.document_idf[array_position(q.lexemes, h.lexeme)]) filter (where h.in_name), 0) as score
          from document_hits h
          join documents d on d.id = h.document_id
          cross join q
          group by h.document_id
        ), ranked as (
          select p.id, p.document_id,
            p.score / nullif(max(p.score) over (), 0)
              + ${DOCUMENT_WEIGHT}::float8 * coalesce(ds.score / nullif(max(ds.score) over (), 0), 0) as rank
          from pool p left join document_scores ds on ds.document_id = p.document_id
        )
        select c.id as chunk_id, c.document_id, d.name as document_name, c.page, c.heading, d.link, c.text,
          r.rank
        from ranked r
        join document_chunks c on c.id = r.id
        join documents d on d.id = c.document_id
        order by r.rank desc, c.id
        limit ${limit}`
      const rows = await queryRows<PassageRow>(db, query)
      return rows.map(toPassage)
    },
  }
}
