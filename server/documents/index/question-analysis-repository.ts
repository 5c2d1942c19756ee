/**
 * The statements that read a question against a person's vocabulary: its words analysed in each
 * language of their library with their counts (analyseQuestion), the nearest words of the ones
 * their documents lack (nearestWords, D83) and how those are written (writtenForms), and any text
 * analysed as the passages' index analyses it (analyseTexts, D82).
 */
import { sql } from 'drizzle-orm'
import type { Db } from '../../db/database.ts'
import { queryRows } from '../../db/query-rows.ts'
import { questionWords } from './languages.ts'
import { keyed, ownerWords, readable } from './passage-search-repository.ts'
import {
  type Analysis,
  type CorrectionRow,
  type LanguageTotals,
  MAX_QUERY_TERMS,
  MIN_CORRECTED_LETTERS,
  MIN_CORRECTION_SIMILARITY,
  maxEdits,
  type SearchedTerm,
  type Term,
} from './search-terms.ts'

/**
 * The question analysed in each language of the person's library (the languages of their
 * passages, from retrieval_languages), with the person's counts of each lexeme, in one query.
 * Stop words are the question's own language's: only the words that survive `language`'s
 * analysis take part (by position: every configuration shares the default parser, so a word has
 * the same position in each), so "the" of an English question is not searched for in German
 * passages, nor "die" of a German one in English passages. Nor are the words of the question's
 * language that a question is phrased with but its stop list lacks (QUESTION_WORDS: « comment »,
 * « les », « tous »), in any language. The first MAX_QUERY_TERMS words count.
 */
export async function analyseQuestion(
  db: Db,
  userId: string,
  question: string,
  language: string,
): Promise<Analysis> {
  const rows = await queryRows<{
    languages: LanguageTotals[] | null
    documents: number | null
    tokens: number | null
    terms: Omit<Term, 'weight'>[] | null
  }>(
    db,
    sql`
    with asking as (
      select coalesce(array_agg(t.position), '{}') as positions from (
        select t.token, row_number() over (order by t.n) as position
        from ts_debug(${language}::regconfig, ${question})
          with ordinality as t(alias, description, token, dictionaries, dictionary, lexemes, n)
        where cardinality(t.dictionaries) > 0
          and exists (select from retrieval_languages l where l.user_id = ${userId} and l.chunk_count > 0)
      ) as t
      where t.token = any(${sql.param(questionWords(language))}::text[])
    ), kept as (
      select coalesce(array_agg(k.p), '{}') as positions from (
        select distinct p from unnest(to_tsvector(${language}::regconfig, ${question})) as u, unnest(u.positions) as p
        cross join asking
        where p <> all(asking.positions)
        order by p limit ${MAX_QUERY_TERMS}
      ) as k
    ), languages as (
      select l.language, l.chunk_count, l.document_count, l.token_count
      from retrieval_languages l where l.user_id = ${userId} and l.chunk_count > 0
    ), analysed as (
      select l.language, u.lexeme,
        (select min(p) from unnest(u.positions) as p where p = any(kept.positions)) as position
      from languages l
      cross join lateral unnest(to_tsvector(l.language, ${question})) as u
      cross join kept
      where u.positions && kept.positions
    )
    select
      (select json_agg(json_build_object('language', l.language::text, 'chunks', l.chunk_count,
        'documents', l.document_count, 'tokens', l.token_count)) from languages l) as languages,
      (select s.document_count from retrieval_totals s where s.user_id = ${userId}) as documents,
      (select s.token_count::float8 from retrieval_totals s where s.user_id = ${userId}) as tokens,
      (select json_agg(json_build_object('language', a.language::text, 'lexeme', a.lexeme,
        'position', a.position, 'chunks', coalesce(r.chunk_count, 0), 'documents', coalesce(r.document_count, 0))
        order by a.position, a.language::text)
       from analysed a
       left join retrieval_terms r on r.user_id = ${userId} and r.language = a.language and r.lexeme = a.lexeme) as terms`,
  )
  const row = rows[0]
  return {
    languages: (row?.languages ?? []).map((l) => ({ ...l, tokens: Number(l.tokens) })),
    totals: { documents: Number(row?.documents ?? 0), tokens: Number(row?.tokens ?? 0) },
    terms: (row?.terms ?? []).map((t) => ({ ...t, weight: 1 })),
  }
}

/**
 * Typo tolerance (D83): for each question word at `positions` (words in none of the person's
 * vocabularies), the nearest lexeme of each language of the library by trigram similarity
 * (pg_trgm, through the owner-first trigram index of retrieval_terms), the word stemmed as that
 * language stems it. Only the person's own vocabulary is ever read.
 */
export async function nearestWords(
  db: Db,
  userId: string,
  question: string,
  language: string,
  positions: number[],
  languages: string[],
): Promise<CorrectionRow[]> {
  // The question's words at those positions, as the parser cut them (every configuration shares
  // the default parser; a word's position counts the tokens a configuration analyses).
  const [tokens] = await queryRows<{ tokens: string[] | null }>(
    db,
    sql`select array_agg(t.token order by t.n) as tokens
        from ts_debug(${language}::regconfig, ${question})
          with ordinality as t(alias, description, token, dictionaries, dictionary, lexemes, n)
        where cardinality(t.dictionaries) > 0`,
  )
  const words = positions
    .map((position) => ({ position, token: tokens?.tokens?.[position - 1] ?? '' }))
    .filter(({ token }) => [...token].length >= MIN_CORRECTED_LETTERS && /^\p{L}+$/u.test(token))
  if (words.length === 0) return []
  // The word as typed, and with two neighbouring letters swapped ("recieve"): a swap is one typo
  // but two edits, and breaks too many trigrams for the index to find it.
  const variants = words.flatMap(({ position, token }) => {
    const letters = [...token]
    const swaps = letters.slice(1).flatMap((letter, i) =>
      letter === letters[i]
        ? []
        : [
            {
              position,
              token,
              variant: [...letters.slice(0, i), letter, letters[i], ...letters.slice(i + 2)].join(''),
              swapped: true,
            },
          ],
    )
    return [{ position, token, variant: token, swapped: false }, ...swaps]
  })
  // Arrays from here, not set-returning functions over the question: PostgreSQL's estimates stay
  // small (its JIT compiler, which took seconds here, starts above a cost this query never reaches).
  const rows = await queryRows<CorrectionRow>(
    db,
    sql`
    with stems as (
      select v.position, v.token, v.swapped, l.language, u.lexeme as stem
      from unnest(${sql.param(variants.map((v) => v.position))}::int[], ${sql.param(variants.map((v) => v.token))}::text[],
        ${sql.param(variants.map((v) => v.variant))}::text[], ${sql.param(variants.map((v) => v.swapped))}::boolean[])
        as v(position, token, variant, swapped)
      cross join unnest(${sql.param(languages)}::regconfig[]) as l(language)
      cross join lateral unnest(to_tsvector(l.language, v.variant)) as u
    ), candidates as (
      select s.position, s.token, s.language, s.stem, n.lexeme, n.distance, n.similarity, n.chunks, n.documents
      from stems s
      cross join lateral (
        select r.lexeme, levenshtein_less_equal(r.lexeme, s.stem, 3) as distance,
          similarity(r.lexeme, s.stem)::float8 as similarity, r.chunk_count as chunks, r.document_count as documents
        from retrieval_terms r
        where r.user_id = ${userId} and r.language = s.language and r.lexeme % s.stem
          and left(r.lexeme, 1) = left(s.stem, 1) and char_length(r.lexeme) >= ${MIN_CORRECTED_LETTERS}
        order by distance, similarity desc, r.chunk_count desc, r.lexeme
        limit 1
      ) as n
      where not s.swapped
      union all
      select s.position, s.token, s.language, s.stem, r.lexeme, 1, 1::float8, r.chunk_count, r.document_count
      from stems s
      join retrieval_terms r on r.user_id = ${userId} and r.lexeme = s.stem and r.language = s.language
      -- As short a word as the other branch refuses: "hides" with two letters swapped ("hieds") is
      -- stemmed "hi" in English.
      where s.swapped and char_length(r.lexeme) >= ${MIN_CORRECTED_LETTERS}
    )
    select distinct on (c.position, c.language)
      c.position, c.token, c.language::text as language, c.stem, c.lexeme, c.distance, c.similarity, c.chunks, c.documents
    from candidates c
    order by c.position, c.language, c.distance, c.similarity desc, c.chunks desc, c.lexeme`,
  )
  return rows.filter((r) => r.distance <= maxEdits(r.stem) && r.similarity >= MIN_CORRECTION_SIMILARITY)
}

/** How many passages holding a corrected word are read for the way it is written. */
const WRITTEN_FORM_PASSAGES = 5

/**
 * How a corrected lexeme is written in the person's documents ("temporari" → "temporary"): of the
 * words of a few passages holding it that analyse to it, the one closest to what was typed
 * ("responces" is "responses", not "responsible"), as the passage writes it.
 */
export async function writtenForms(
  db: Db,
  userId: string,
  terms: readonly (SearchedTerm & { token: string })[],
): Promise<string[]> {
  const rows = await queryRows<{ n: number; word: string | null }>(
    db,
    sql`
    select s.n::int as n, (
      select w.token
      from (
        select c.heading, c.text from document_chunks c
        where ${readable(userId)} and c.language = s.language and ${ownerWords} @@ s.keyed::tsquery
        limit ${WRITTEN_FORM_PASSAGES}
      ) as c
      cross join lateral ts_parse('default', coalesce(c.heading, '') || ' ' || c.text) as w(tokid, token)
      where w.tokid in (1, 2, 3) and to_tsvector(s.language, w.token) @@ quote_literal(s.lexeme)::tsquery
      order by similarity(lower(w.token), lower(s.typed)) desc,
        (left(w.token, 1) = lower(left(w.token, 1))) = (left(s.typed, 1) = lower(left(s.typed, 1))) desc
      limit 1
    ) as word
    from unnest(${sql.param(terms.map((t) => t.language))}::regconfig[], ${sql.param(terms.map((t) => t.lexeme))}::text[],
      ${sql.param(terms.map((t) => t.token))}::text[], ${sql.param(terms.map((t) => keyed(userId, t.language, t.lexeme)))}::text[])
      with ordinality as s(language, lexeme, typed, keyed, n)`,
  )
  const words = new Map(rows.map((r) => [r.n, r.word]))
  return terms.map((t, i) => words.get(i + 1) || t.lexeme)
}

/**
 * The lexemes of each text in its language, as the passages' index analyses them: how the
 * extractive answer tells which sentences hold the searched words (D82).
 */
export async function analyseTexts(
  db: Db,
  items: readonly { text: string; language: string }[],
): Promise<string[][]> {
  if (items.length === 0) return []
  const rows = await queryRows<{ n: number; lexemes: string[] | null }>(
    db,
    sql`
    select s.n::int as n, (select array_agg(u.lexeme) from unnest(to_tsvector(s.language, s.text)) as u) as lexemes
    from unnest(${sql.param(items.map((i) => i.text))}::text[], ${sql.param(items.map((i) => i.language))}::regconfig[])
      with ordinality as s(text, language, n)`,
  )
  const byN = new Map(rows.map((r) => [r.n, r.lexemes ?? []]))
  return items.map((_, i) => byN.get(i + 1) ?? [])
}
