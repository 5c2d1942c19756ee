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
/**
 * A lexeme in at least this share of all chunks (PostgreSQL's own statistics: pg_stats'
 * most_common_elems for document_chunks.tsv, kept by ANALYZE) is common: it still counts in the
 * ranking, but chunks are not looked up by it when the question has rarer words.
 */
export const COMMON_LEXEME_SHARE = 0.01
/**
 * The most chunks each group of candidates reads (see `search`). Reading every chunk that shares
 * a word with the question meant most of a large library (100,000 chunks: 70 % of them for a
 * question of office words, p95 ~250 ms, bench/RESULTS.md); 500 kept the same answers as 1,000 on
 * the benchmark's questions at two thirds of the time.
 */
export const MAX_CANDIDATES_READ = 500
/** How long the list of common lexemes is reused before it is read from pg_stats again. */
const COMMON_LEXEMES_TTL_MS = 5 * 60_000
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

type LexemeShares = { loadedAt: number; shares: Map<string, number> }
/** Per database handle: every repository built on it shares the statistics and their refresh. */
const lexemeSharesCache = new WeakMap<Db, Promise<LexemeShares>>()

/**
 * The share of chunks holding each common lexeme (>= COMMON_LEXEME_SHARE), from PostgreSQL's
 * statistics (pg_stats.most_common_elems of document_chunks.tsv, kept by ANALYZE); a lexeme not
 * listed is rarer. Empty before the first ANALYZE: then every word counts as rare and is looked
 * up, which is what a small library wants anyway.
 */
async function commonLexemeShares(db: Db): Promise<Map<string, number>> {
  const cached = lexemeSharesCache.get(db)
  if (cached) {
    const value = await cached
    if (Date.now() - value.loadedAt < COMMON_LEXEMES_TTL_MS) return value.shares
  }
  const loading = (async (): Promise<LexemeShares> => {
    const { rows } = (await db.execute(sql`
      select m.e as lexeme, m.f::float8 as share
      from pg_stats s, unnest(s.most_common_elems::text::text[], s.most_common_elem_freqs) as m(e, f)
      where s.schemaname = 'public' and s.tablename = 'document_chunks' and s.attname = 'tsv'
        and m.e is not null and m.f >= ${COMMON_LEXEME_SHARE}`)) as unknown as {
      rows: { lexeme: string; share: number }[]
    }
    return { loadedAt: Date.now(), shares: new Map(rows.map((r) => [r.lexeme, Number(r.share)])) }
  })()
  lexemeSharesCache.set(db, loading)
  try {
    return (await loading).shares
  } catch (error) {
    lexemeSharesCache.delete(db)
    throw error
  }
}

/**
 * PGlite has no autovacuum, so nothing would ever ANALYZE the chunks: after a batch of writes
 * (an ingest), refresh the statistics when more than 10 % of the rows (and at least 1,000) changed
 * since the last ANALYZE, as autovacuum's default threshold would. On a PostgreSQL server
 * autovacuum usually got there first and this finds nothing to do.
 */
export async function refreshChunkStatistics(db: Db): Promise<boolean> {
  // This session's counts reach the statistics views only once flushed (PostgreSQL >= 15 flushes
  // at most once a second); ask for it now, so the check below sees this ingest's writes.
  // A role may be denied the function on a PostgreSQL server, where autovacuum covers this anyway.
  await db.execute(sql`select pg_stat_force_next_flush()`).catch(() => undefined)
  const { rows } = (await db.execute(sql`
    select n_mod_since_analyze::float8 as changed, n_live_tup::float8 as live
    from pg_stat_user_tables where relname = 'document_chunks'`)) as unknown as {
    rows: { changed: number; live: number }[]
  }
  const stats = rows[0]
  if (!stats || stats.changed < Math.max(1000, 0.1 * stats.live)) return false
  await db.execute(sql`analyze document_chunks`)
  lexemeSharesCache.delete(db)
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
 * from five on — as two queries, each led by one of the two rarest words (`shares`): the rarest
 * word and most of the others, or the second rarest and most of the rest. A word every match
 * must hold lets the GIN index walk that word's short posting list and skip through the long ones
 * (an OR of combinations with no such word made it walk every list: 90 ms for five office words
 * over 100,000 chunks). What it leaves out is a chunk holding only the most common words.
 */
function mostOf(lexemes: readonly string[], shares: ReadonlyMap<string, number>): [string, string | null] {
  const words = lexemes.slice(0, MOST_TERMS)
  const n = words.length
  if (n <= 2) return [words.map(quoted).join(' & '), null]
  const size = n === 3 ? 2 : n === 4 ? 3 : n - 2
  const byRarity = [...words].sort((a, b) => (shares.get(a) ?? 0) - (shares.get(b) ?? 0))
  const [first, second, ...rest] = byRarity as [string, string, ...string[]]
  const led = (lead: string, others: readonly string[]) => {
    const alternatives = combinations(others, size - 1).map((c) => c.map(quoted).join(' & '))
    return `${quoted(lead)} & (${alternatives.map((a) => `(${a})`).join(' | ')})`
  }
  return [led(first, [second, ...rest]), rest.length >= size - 1 ? led(second, rest) : null]
}

export function createDocumentsRepository(db: Db) {
  /** The question's lexemes (stemmed, stopwords gone), in the order they occur, at most MAX_QUERY_TERMS. */
  async function questionLexemes(question: string): Promise<string[]> {
    const { rows } = (await db.execute(sql`
      select array(
        select t.lexeme from unnest(to_tsvector('english', ${question})) as t
        order by t.positions[1] limit ${MAX_QUERY_TERMS}
      ) as lexemes`)) as unknown as { rows: { lexemes: string[] }[] }
    return rows[0]?.lexemes ?? []
  }

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
     * Which chunks the pool is chosen from: reading every chunk that shares one word with the
     * question cost ~250 ms p95 on 100,000 chunks (a question of office words matched 70 % of
     * them; bench/RESULTS.md), so candidates come in four groups, each read through the GIN
     * index and capped at MAX_CANDIDATES_READ rows:
     * 1. `whole`: chunks that match the whole question (the first tier of the ranking);
     * 2. `most`: chunks with most of its words together (mostOf);
     * 3. `rare`: chunks with one of its uncommon words (not COMMON_LEXEME_SHARE-common by
     *    PostgreSQL's statistics): short posting lists, and the words that tell passages apart;
     * 4. `partial`: only when the others found fewer than `limit`, chunks with any of its words.
     * In a small library (no word common, fewer matches than the cap) this is the plain OR; in a
     * large one a question never reads the tens of thousands of chunks that share one common word.
     *
     * The question's lexemes come from to_tsvector (stemmed, stopwords gone, in order of
     * appearance), in a first small query; each is quoted for the tsquery parser. A question of
     * only stopwords or punctuation has none and finds nothing (no error, no notice).
     */
    async search(userId: string, question: string, limit: number): Promise<Passage[]> {
      if (limit <= 0 || question.trim() === '') return []
      const lexemes = await questionLexemes(question)
      if (lexemes.length === 0) return []
      const shares = await commonLexemeShares(db)
      const rare = lexemes.filter((l) => !shares.has(l))
      const [mostLed, mostSecond] = mostOf(lexemes, shares)
      const query = sql`
        with q as (
          select
            websearch_to_tsquery('english', ${question}) as all_terms,
            ${sql.param(lexemes)}::text[] as lexemes,
            ${anyOf(lexemes)}::tsquery as any_term,
            ${rare.length > 0 ? anyOf(rare) : null}::tsquery as rare_term,
            ${mostLed}::tsquery as most_led,
            ${mostSecond}::tsquery as most_second,
            -- A quoted phrase of common words would make the index recheck thousands of chunks
            -- for word order; its words together are found by most_led anyway.
            case when ${question.includes('"')} then null else websearch_to_tsquery('english', ${question}) end
              as whole_term
        ), whole as (
          select c.id, c.tsv
          from q cross join document_chunks c
          where c.user_id = ${userId} and c.tsv @@ q.whole_term
          limit ${MAX_CANDIDATES_READ}
        ), most as (
          select c.id, c.tsv
          from q cross join document_chunks c
          where c.user_id = ${userId} and (c.tsv @@ q.most_led or c.tsv @@ q.most_second)
          limit ${MAX_CANDIDATES_READ}
        ), rare as (
          select c.id, c.tsv
          from q cross join document_chunks c
          where c.user_id = ${userId} and c.tsv @@ q.rare_term
          limit ${MAX_CANDIDATES_READ}
        ), found as (
          select * from whole union all select * from most union all select * from rare
        ), partial as (
          select c.id, c.tsv
          from q cross join document_chunks c
          where (select count(distinct id) from found) < ${limit}
            and c.user_id = ${userId} and c.tsv @@ q.any_term
          limit ${MAX_CANDIDATES_READ}
        ), pool as (
          select k.id
          from q cross join (
            select distinct on (u.id) u.id, u.tsv from (select * from found union all select * from partial) as u
          ) as k
          order by k.tsv @@ q.all_terms desc, ts_rank(k.tsv, q.any_term) desc
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
