/**
 * The keyword search's statement (passage-search.ts decides what it weighs): the candidate
 * passages read through the owner-keyed word index (D95), scored by BM25 with their documents'
 * evidence, in one query; and the SQL pieces every read of the index shares (`readable`: the
 * owner first; `keyed`: a lexeme as the index holds it).
 */
import { type SQL, sql } from 'drizzle-orm'
import type { Db } from '../../db/database.ts'
import { queryRows } from '../../db/query-rows.ts'
import type { PassageRow } from './passages.ts'
import {
  type BestMatch,
  BM25_B,
  BM25_K1,
  DOCUMENT_B,
  DOCUMENT_POOL,
  DOCUMENT_WEIGHT,
  MIN_CANDIDATES_READ,
  NAME_WEIGHT,
  type WeighedTerm,
} from './search-terms.ts'

/** A lexeme as the tsquery parser reads it: quoted, quotes and backslashes escaped. */
export function quoted(lexeme: string): string {
  return `'${lexeme.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`
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
function mostOf(userId: string, language: string, byRarity: readonly string[]): [string, string | null] {
  const words = byRarity.slice(0, MOST_TERMS)
  const n = words.length
  const key = (lexeme: string) => keyed(userId, language, lexeme)
  if (n <= 2) return [words.map(key).join(' & '), null]
  const size = n === 3 ? 2 : n === 4 ? 3 : n - 2
  const [first, second, ...rest] = words as [string, string, ...string[]]
  const led = (lead: string, others: readonly string[]) => {
    const alternatives = combinations(others, size - 1).map((c) => c.map(key).join(' & '))
    return `${key(lead)} & (${alternatives.map((a) => `(${a})`).join(' | ')})`
  }
  return [led(first, [second, ...rest]), rest.length >= size - 1 ? led(second, rest) : null]
}

/**
 * A passage's words as the owner-keyed word index holds them (D95, migration 0022): each lexeme
 * prefixed with the last 8 hex digits of its owner's id and the first three letters of its
 * language. A tsquery against it names its lexemes with `keyed`; every read filters by owner and
 * language as well, so two ids that end alike only share postings, never results.
 */
export const ownerWords = sql`owner_words(c.user_id, c.language, c.tsv)`

/** A lexeme of `language` as the owner-keyed word index holds it for `userId`, quoted for a tsquery. */
export function keyed(userId: string, language: string, lexeme: string): string {
  return quoted(`${userId.toLowerCase().slice(-8)}${language.slice(0, 3)}${lexeme}`)
}

/**
 * The passages a search may read at all: the person's own, and with `scope` only those of these
 * documents (a conversation limited to chosen documents, D70). Every candidate query goes through
 * this one condition, the owner first.
 */
export function readable(userId: string, scope: readonly string[] | null = null): SQL {
  return scope === null
    ? sql`c.user_id = ${userId}`
    : sql`c.user_id = ${userId} and c.document_id = any(${sql.param([...scope])}::uuid[])`
}

/** What passage-search.ts hands the statement: the weighed terms and how much to read. */
export type RankingPlan = {
  userId: string
  scope: readonly string[] | null
  limit: number
  terms: WeighedTerm[]
  /** Per language, how many "most of the words" candidates are read (by its share of the library). */
  candidatesRead: Map<string, number>
  /** The library's average document length, in words. */
  averageDocument: number
}

/**
 * The candidate reads: every passage holding a word read in full, in one scan of the owner-keyed
 * index, and per language the passages holding most of its other words (mostOf).
 */
function candidateReads({ userId, scope, terms, candidatesRead }: RankingPlan): SQL[] {
  const languages = [...new Set(terms.map((t) => t.language))]
  // What a candidate brings along, read with it (not looked up again by id): its vector cut down
  // to the question's lexemes (given weight D, which no stored passage uses, and only D kept).
  const picked = sql`c.id, c.document_id, c.token_count, c.language,
    ts_filter(setweight(c.tsv, 'D', ${sql.param([...new Set(terms.map((t) => t.lexeme))])}::text[]), '{d}') as words`
  // Every language's words in one scan of the owner-keyed index, then each passage checked
  // against its own language's words in its tsv (cheap): a condition per language on the index
  // would be checked again on every passage read, each time computing the passage's owner words.
  const fullKeys = terms.filter((t) => t.full).map((t) => keyed(userId, t.language, t.lexeme))
  const fullReads = languages.flatMap((l) => {
    const lexemes = terms.filter((t) => t.language === l && t.full).map((t) => quoted(t.lexeme))
    return lexemes.length > 0
      ? [sql`(c.language = ${l}::regconfig and c.tsv @@ ${lexemes.join(' | ')}::tsquery)`]
      : []
  })
  const mostReads = languages.flatMap((l) => {
    const own = terms.filter((t) => t.language === l)
    if (own.every((t) => t.full)) return []
    const [led, second] = mostOf(
      userId,
      l,
      [...own].sort((a, b) => a.chunks - b.chunks).map((t) => t.lexeme),
    )
    const either =
      second === null
        ? sql`${ownerWords} @@ ${led}::tsquery`
        : sql`(${ownerWords} @@ ${led}::tsquery or ${ownerWords} @@ ${second}::tsquery)`
    return [
      sql`(select ${picked} from document_chunks c
           where ${readable(userId, scope)} and c.language = ${l}::regconfig and ${either}
           limit ${candidatesRead.get(l) ?? MIN_CANDIDATES_READ})`,
    ]
  })
  return [
    ...(fullReads.length > 0
      ? [
          sql`(select ${picked} from document_chunks c
               where ${readable(userId, scope)} and ${ownerWords} @@ ${fullKeys.join(' | ')}::tsquery
                 and (${sql.join(fullReads, sql` or `)}))`,
        ]
      : []),
    ...mostReads,
  ]
}

/**
 * The document-level evidence, as common table expressions after `hits` and `pool`: each pooled
 * passage's document scored as one text (BM25 with DOCUMENT_B), plus NAME_WEIGHT × the idf of the
 * question words in its name.
 */
function documentScores(averageDocument: number): SQL {
  return sql`document_term_hits as (
      select h.document_id, h.language, h.lexeme, h.document_idf, sum(h.tf) as tf
      from hits h
      -- An array, read once: as a join PGlite's planner (no statistics on these CTEs) compared
      -- every hit with every pooled passage, 26 ms of a 49 ms search (bench/RESULTS.md).
      where h.document_id = any(array(select document_id from pool))
      group by h.document_id, h.language, h.lexeme, h.document_idf
    ), document_names as materialized (
      -- Materialized: each name analysed once, not again for each of its document's words.
      select n.document_id, n.language, to_tsvector(n.language, regexp_replace(d.name, '[-_./]+', ' ', 'g')) as words
      from (select distinct document_id, language from document_term_hits) as n
      join documents d on d.id = n.document_id
    ), document_hits as (
      select h.*, n.words @@ quote_literal(h.lexeme)::tsquery as in_name
      from document_term_hits h
      join document_names n on n.document_id = h.document_id and n.language = h.language
    ), document_scores as materialized (
      select h.document_id,
        sum(h.document_idf * h.tf * ${BM25_K1 + 1}::float8
          / (h.tf + ${BM25_K1}::float8 * (1 - ${DOCUMENT_B}::float8 + ${DOCUMENT_B}::float8 * d.token_count / ${averageDocument}::float8)))
          + ${NAME_WEIGHT}::float8 * coalesce(sum(h.document_idf) filter (where h.in_name), 0) as score
      from document_hits h
      join documents d on d.id = h.document_id
      group by h.document_id
    )`
}

/**
 * The statement's common table expressions up to `ranked`: the candidates scored, pooled (the
 * `limit` best, at least DOCUMENT_POOL), and ranked with their documents; `ranked` keeps each
 * pooled passage's raw BM25 and its document's raw score beside the normalised rank.
 */
function rankingSteps(plan: RankingPlan): SQL {
  const { terms, limit } = plan
  const column = <T>(pick: (t: WeighedTerm) => T) => sql.param(terms.map(pick))
  return sql`q as (
      select * from unnest(${column((t) => t.language)}::regconfig[], ${column((t) => t.lexeme)}::text[],
        ${column((t) => t.chunkIdf)}::float8[], ${column((t) => t.documentIdf)}::float8[], ${column((t) => t.average)}::float8[])
        as q(language, lexeme, chunk_idf, document_idf, average)
    ), candidates as (
      ${sql.join(candidateReads(plan), sql` union `)}
    ), chunk_terms as materialized (
      select k.id, k.document_id, k.token_count, k.language, t.lexeme, cardinality(t.positions)::float8 as tf
      from candidates k
      cross join lateral unnest(k.words) as t
    ), hits as (
      select h.id, h.document_id, h.token_count, q.language, q.lexeme, q.chunk_idf, q.document_idf, q.average, h.tf
      from chunk_terms h
      join q on q.language = h.language and q.lexeme = h.lexeme
    ), scored as (
      select h.id, h.document_id,
        sum(h.chunk_idf * h.tf * ${BM25_K1 + 1}::float8
          / (h.tf + ${BM25_K1}::float8 * (1 - ${BM25_B}::float8 + ${BM25_B}::float8 * h.token_count / h.average))) as score
      from hits h
      group by h.id, h.document_id
    ), pool as (
      select * from scored order by score desc, id limit ${Math.max(limit, DOCUMENT_POOL)}
    ), ${documentScores(plan.averageDocument)}, ranked as (
      select p.id, p.document_id, p.score as passage_score, ds.score as document_score,
        p.score / nullif(max(p.score) over (), 0)
          + ${DOCUMENT_WEIGHT}::float8 * coalesce(ds.score / nullif(max(ds.score) over (), 0), 0) as rank
      from pool p left join document_scores ds on ds.document_id = p.document_id
    )`
}

/** The plan's `limit` best passages, best first: the candidates scored, pooled, and ranked with their documents. */
export function rankedPassages(db: Db, plan: RankingPlan): Promise<PassageRow[]> {
  return queryRows<PassageRow>(
    db,
    sql`
    with ${rankingSteps(plan)}
    select c.id as chunk_id, c.document_id, d.name as document_name, c.page, c.heading, d.link, c.text,
      c.language::text as language, r.rank
    from ranked r
    join document_chunks c on c.id = r.id
    join documents d on d.id = c.document_id
    order by r.rank desc, c.id
    limit ${plan.limit}`,
  )
}

/**
 * Only the raw scores of the plan's best passage (BM25) and best document: no id, no text. Raw
 * scores of a scope and of the whole library are comparable (both weigh words by the library's
 * statistics): bench/quality-judge.ts compares an assistant's knowledge with the whole library
 * through this; answering does not call it (bench/RESULTS.md, "judged against the whole library").
 */
export async function bestScores(db: Db, plan: RankingPlan): Promise<BestMatch | null> {
  const [row] = await queryRows<{ passage: number | null; document: number | null }>(
    db,
    sql`with ${rankingSteps(plan)}
    select max(passage_score) as passage, max(document_score) as document from ranked`,
  )
  return row?.passage == null ? null : { passage: Number(row.passage), document: Number(row.document ?? 0) }
}
