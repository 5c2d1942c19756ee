/**
 * The search retrieval runs over one person's passages: BM25 with document-level evidence (D14,
 * D15), per language (D82), tolerant of typos against the person's own vocabulary (D83). The
 * reasons for each step are at `searchPassages`.
 */
import { type SQL, sql } from 'drizzle-orm'
import type { Db } from '../../db/database.ts'
import { queryRows } from '../../db/query-rows.ts'
import type { Correction } from '../../db/schema.ts'
import { questionLanguage, questionWords } from './languages.ts'
import type { Passage } from './passages.ts'

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
 * words found in thousands of chunks are not read one by one (see `searchPassages`; 4,000 cost
 * several times the p95 of bench/retrieval.ts).
 */
export const FULL_READ_POSTINGS = 1000
/**
 * The most chunks read for the "most of the words" candidates, shared between the languages of
 * the library by their share of its passages (at least MIN_CANDIDATES_READ each): a library with
 * a tenth of its passages in German reads 50 German candidates beside 450 English ones, not 500
 * of each.
 */
export const MAX_CANDIDATES_READ = 500
const MIN_CANDIDATES_READ = 50
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
/**
 * A corrected word (D83) counts this much of an exact word of the same rarity: the person may
 * have meant something else, and a passage holding the words as typed should win a tie.
 */
export const CORRECTION_WEIGHT = 0.8
/**
 * A question word is corrected only when it has at least this many letters (shorter words have
 * too many neighbours: "lgo" is one edit from "log", "leg" and "go") and no digit (codes,
 * versions), and only to a word at least as long ("food" is not "foo").
 */
export const MIN_CORRECTED_LETTERS = 4
/**
 * How far a correction may be from the typed word (both stemmed), in edits (fuzzystrmatch's
 * Levenshtein distance): one for a word of up to seven letters, two from eight (at two edits
 * from seven letters down real words meet: the French "comment" would become "command"). The
 * candidates are
 * the words sharing at least 0.3 of their trigrams with it (pg_trgm's `%`, through the index) and
 * its first letter (a typo seldom changes it; "hide" is then never "side"); the fewest edits win,
 * then the most trigrams in common, then the more frequent word.
 */
export function maxEdits(stem: string): number {
  return [...stem].length >= 8 ? 2 : 1
}
/**
 * And it must share at least half its trigrams with the typed word (pg_trgm's similarity): a real
 * word the library lacks is seldom that close to one it holds ("lose" and "lost" share 0.43,
 * "pasword" and "password" 0.7). Chosen on the tuning questions (typos-tuning.json, the German
 * and French tuning sets), where every correction below it was of a real word.
 */
export const MIN_CORRECTION_SIMILARITY = 0.5

/** A word the search looked for: a lexeme of the question in one language of the library. */
export type SearchedTerm = { language: string; lexeme: string }

export type PassageSearch = {
  /** Best first. */
  passages: Passage[]
  /** The question's words that are in none of the person's documents, and what was searched instead. */
  corrections: Correction[]
  /** What was searched, corrections included (the extractive answer quotes by these). */
  terms: SearchedTerm[]
  /** The question's own language, as detected (a text search configuration's name). */
  language: string
}

/** A ranked passage as the search queries select it (snake_case columns). */
export type PassageRow = {
  chunk_id: string
  document_id: string
  document_name: string
  page: number | null
  heading: string | null
  link: string | null
  text: string
  language: string
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
    language: r.language,
    rank: Number(r.rank),
  }
}

/** Lucene's BM25 idf: never negative, even for a word in every chunk. */
function idf(total: number, holding: number): number {
  return Math.log(1 + (total - holding + 0.5) / (holding + 0.5))
}

/** A lexeme as the tsquery parser reads it: quoted, quotes and backslashes escaped. */
function quoted(lexeme: string): string {
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
const ownerWords = sql`owner_words(c.user_id, c.language, c.tsv)`

/** A lexeme of `language` as the owner-keyed word index holds it for `userId`, quoted for a tsquery. */
function keyed(userId: string, language: string, lexeme: string): string {
  return quoted(`${userId.toLowerCase().slice(-8)}${language.slice(0, 3)}${lexeme}`)
}

/**
 * The passages a search may read at all: the person's own, and with `scope` only those of these
 * documents (a conversation limited to chosen documents, D70). Every candidate query goes through
 * this one condition, the owner first.
 */
function readable(userId: string, scope: readonly string[] | null = null): SQL {
  return scope === null
    ? sql`c.user_id = ${userId}`
    : sql`c.user_id = ${userId} and c.document_id = any(${sql.param([...scope])}::uuid[])`
}

/** Per-language collection totals (BM25's N and average length), from retrieval_languages. */
type LanguageTotals = { language: string; chunks: number; documents: number; tokens: number }

/** A question lexeme in one language, with the person's counts and where it stands in the question. */
type Term = SearchedTerm & {
  chunks: number
  documents: number
  position: number
  /** 1 for the question's own words, CORRECTION_WEIGHT for a correction. */
  weight: number
}

type Analysis = {
  languages: LanguageTotals[]
  totals: { documents: number; tokens: number }
  terms: Term[]
}

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
async function analyseQuestion(
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

type CorrectionRow = {
  position: number
  token: string
  language: string
  stem: string
  lexeme: string
  distance: number
  similarity: number
  chunks: number
  documents: number
}

/**
 * Typo tolerance (D83): for each question word at `positions` (words in none of the person's
 * vocabularies), the nearest lexeme of each language of the library by trigram similarity
 * (pg_trgm, through the owner-first trigram index of retrieval_terms), the word stemmed as that
 * language stems it. Only the person's own vocabulary is ever read.
 */
async function nearestWords(
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
async function writtenForms(
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
 * Adds the corrections of the words no vocabulary holds (a word some language of the library
 * holds is never corrected), and says what they were: per word, the nearest lexeme in each
 * language counts (at CORRECTION_WEIGHT); the closest of them is what the answer reports.
 */
async function corrected(
  db: Db,
  userId: string,
  question: string,
  language: string,
  analysis: Analysis,
): Promise<{ terms: Term[]; corrections: Correction[] }> {
  const known = new Set<number>()
  for (const t of analysis.terms) if (t.chunks > 0) known.add(t.position)
  const unknown = [...new Set(analysis.terms.map((t) => t.position))].filter((p) => !known.has(p))
  if (unknown.length === 0) return { terms: [], corrections: [] }
  const rows = await nearestWords(
    db,
    userId,
    question,
    language,
    unknown,
    analysis.languages.map((l) => l.language),
  )
  const present = new Set(analysis.terms.map((t) => `${t.language}\u0000${t.lexeme}`))
  const terms: Term[] = []
  const best = new Map<number, CorrectionRow>()
  for (const r of rows) {
    if (present.has(`${r.language}\u0000${r.lexeme}`)) continue
    present.add(`${r.language}\u0000${r.lexeme}`)
    terms.push({
      language: r.language,
      lexeme: r.lexeme,
      chunks: Number(r.chunks),
      documents: Number(r.documents),
      position: r.position,
      weight: CORRECTION_WEIGHT,
    })
    const seen = best.get(r.position)
    if (
      !seen ||
      r.distance < seen.distance ||
      (r.distance === seen.distance && r.similarity > seen.similarity)
    )
      best.set(r.position, r)
  }
  const reported = [...best.values()].sort((a, b) => a.position - b.position)
  const forms = await writtenForms(db, userId, reported)
  return { terms, corrections: reported.map((r, i) => ({ from: r.token, to: forms[i] ?? r.lexeme })) }
}

/**
 * The user's `limit` best passages for a question by BM25, with document-level evidence, in
 * two statements (PGlite runs one query at a time, so round trips are what costs), three when a
 * question word is in none of the person's documents (typo tolerance), four when one is corrected.
 *
 * Owner first: every chunk read is the user's (`readable`, on each candidate query), and the
 * statistics are the user's own (retrieval_terms / retrieval_languages / retrieval_totals), so
 * nobody else's text is ever scored, returned, corrected to, or even shifts the weights.
 *
 * Languages (D82): each passage is analysed in its own language; the question is analysed in
 * each language of the library (`analyseQuestion`), and each analysis is ranked against the
 * passages of its language (its lexemes, its average passage length). A question word has one
 * rarity, though: its idf counts the passages (documents) holding it in any language, each as
 * its language analyses it, against the whole library's. Counted per language, a French word
 * in the few passages of a French library detected as English (a translator's untranslated
 * paragraph) weighed three times what it weighs among the French ones, and brought the long
 * manuals holding such passages to the top (bench/RESULTS.md). A document holding the word in
 * two languages counts twice (the counts are per language), at most the library's. Raw BM25
 * scores of different languages share one scale, so the best passages of all languages are
 * normalised together.
 *
 * Score of a passage: BM25 over the question's lexemes (idf from the user's chunk counts, term
 * frequency from the chunk's tsvector positions, length in words against the average of its
 * language), normalised to the best passage of the question (0..1), plus DOCUMENT_WEIGHT × its
 * document's score normalised the same way: BM25 of the document as one text (summed term
 * frequencies of its candidate chunks, idf from the user's document counts, length against the
 * average document, DOCUMENT_B) plus NAME_WEIGHT × the idf of each question word in the
 * document's name. The document score is computed for the documents of the DOCUMENT_POOL best
 * passages, from the chunks already read (exact whenever every question word was read in full,
 * see below). A corrected word's idf counts CORRECTION_WEIGHT of an exact word's.
 *
 * Candidates: the question's words (over all languages) are taken rarest first while their
 * chunk counts add up to FULL_READ_POSTINGS, and every chunk holding any of them is scored — in a
 * library of a few thousand passages that is every word. Words beyond that (held by thousands of
 * chunks in a large library) are not read one by one; chunks holding most of the question's
 * words of a language together (mostOf, led by the rarest words) are read instead,
 * MAX_CANDIDATES_READ at most, shared by the languages' shares of the library. The term
 * frequencies of a chunk come from its tsvector cut down to the question's lexemes (they are
 * given weight D, which no stored passage uses, and only D is kept: two passes in C over the
 * vector), so scoring a chunk never unnests its whole vocabulary.
 *
 * A question of only stopwords or punctuation, or of words none of the user's chunks hold and
 * nothing near, finds nothing (no error, no notice).
 *
 * `scope` (D70) limits every read to those documents of the person's, after the owner filter;
 * within them every question word is read in full (the scope bounds the read). The statistics
 * stay the whole library's, so a word weighs the same in and out of a scope.
 */
export async function searchPassages(
  db: Db,
  userId: string,
  question: string,
  limit: number,
  scope: readonly string[] | null = null,
): Promise<PassageSearch> {
  const language = await questionLanguage(question)
  const nothing: PassageSearch = { passages: [], corrections: [], terms: [], language }
  if (limit <= 0 || question.trim() === '' || scope?.length === 0) return nothing
  const analysis = await analyseQuestion(db, userId, question, language)
  if (analysis.languages.length === 0) return nothing
  const fixes = await corrected(db, userId, question, language, analysis)
  const terms = [...analysis.terms.filter((t) => t.chunks > 0), ...fixes.terms]
  if (terms.length === 0) return { ...nothing, corrections: fixes.corrections }
  const totals = new Map(analysis.languages.map((l) => [l.language, l]))
  const libraryChunks = analysis.languages.reduce((n, l) => n + l.chunks, 0)

  const full = new Set<Term>()
  let postings = 0
  for (const t of [...terms].sort((a, b) => a.chunks - b.chunks)) {
    if (scope === null && postings + t.chunks > FULL_READ_POSTINGS) break
    full.add(t)
    postings += t.chunks
  }
  const languages = [...new Set(terms.map((t) => t.language))]
  // What a candidate brings along, read with it (not looked up again by id): its vector cut down
  // to the question's lexemes (given weight D, which no stored passage uses, and only D kept).
  const picked = sql`c.id, c.document_id, c.token_count, c.language,
    ts_filter(setweight(c.tsv, 'D', ${sql.param([...new Set(terms.map((t) => t.lexeme))])}::text[]), '{d}') as words`
  // Every language's words in one scan of the owner-keyed index, then each passage checked
  // against its own language's words in its tsv (cheap): a condition per language on the index
  // would be checked again on every passage read, each time computing the passage's owner words.
  const fullKeys = terms.filter((t) => full.has(t)).map((t) => keyed(userId, t.language, t.lexeme))
  const fullReads = languages.flatMap((l) => {
    const lexemes = terms.filter((t) => t.language === l && full.has(t)).map((t) => quoted(t.lexeme))
    return lexemes.length > 0
      ? [sql`(c.language = ${l}::regconfig and c.tsv @@ ${lexemes.join(' | ')}::tsquery)`]
      : []
  })
  const mostReads = languages.flatMap((l) => {
    const own = terms.filter((t) => t.language === l)
    if (own.every((t) => full.has(t))) return []
    const [led, second] = mostOf(
      userId,
      l,
      [...own].sort((a, b) => a.chunks - b.chunks).map((t) => t.lexeme),
    )
    const share = (totals.get(l)?.chunks ?? 0) / Math.max(libraryChunks, 1)
    const read = Math.max(MIN_CANDIDATES_READ, Math.ceil(MAX_CANDIDATES_READ * share))
    const either =
      second === null
        ? sql`${ownerWords} @@ ${led}::tsquery`
        : sql`(${ownerWords} @@ ${led}::tsquery or ${ownerWords} @@ ${second}::tsquery)`
    return [
      sql`(select ${picked} from document_chunks c
           where ${readable(userId, scope)} and c.language = ${l}::regconfig and ${either}
           limit ${read})`,
    ]
  })
  const candidates = [
    ...(fullReads.length > 0
      ? [
          sql`(select ${picked} from document_chunks c
               where ${readable(userId, scope)} and ${ownerWords} @@ ${fullKeys.join(' | ')}::tsquery
                 and (${sql.join(fullReads, sql` or `)}))`,
        ]
      : []),
    ...mostReads,
  ]
  const column = <T>(pick: (t: Term) => T) => sql.param(terms.map(pick))
  // One question word, one rarity: the passages (documents) holding it in any language of the
  // library, each as its own language analyses it, of all the library's.
  const holding = new Map<number, { chunks: number; documents: number }>()
  for (const t of terms) {
    const h = holding.get(t.position) ?? { chunks: 0, documents: 0 }
    h.chunks += t.chunks
    h.documents += t.documents
    holding.set(t.position, h)
  }
  const libraryDocuments = Math.max(analysis.totals.documents, 1)
  const chunkIdf = (t: Term) => t.weight * idf(libraryChunks, holding.get(t.position)?.chunks ?? 0)
  const documentIdf = (t: Term) =>
    t.weight * idf(libraryDocuments, Math.min(holding.get(t.position)?.documents ?? 0, libraryDocuments))
  const averageChunk = (t: Term) => {
    const l = totals.get(t.language)
    return l && l.chunks > 0 ? Math.max(l.tokens / l.chunks, 1) : 1
  }
  const averageDocument = Math.max(analysis.totals.tokens / Math.max(analysis.totals.documents, 1), 1)
  const query = sql`
    with q as (
      select * from unnest(${column((t) => t.language)}::regconfig[], ${column((t) => t.lexeme)}::text[],
        ${column(chunkIdf)}::float8[], ${column(documentIdf)}::float8[], ${column(averageChunk)}::float8[])
        as q(language, lexeme, chunk_idf, document_idf, average)
    ), candidates as (
      ${sql.join(candidates, sql` union `)}
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
    ), document_term_hits as (
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
    ), ranked as (
      select p.id, p.document_id,
        p.score / nullif(max(p.score) over (), 0)
          + ${DOCUMENT_WEIGHT}::float8 * coalesce(ds.score / nullif(max(ds.score) over (), 0), 0) as rank
      from pool p left join document_scores ds on ds.document_id = p.document_id
    )
    select c.id as chunk_id, c.document_id, d.name as document_name, c.page, c.heading, d.link, c.text,
      c.language::text as language, r.rank
    from ranked r
    join document_chunks c on c.id = r.id
    join documents d on d.id = c.document_id
    order by r.rank desc, c.id
    limit ${limit}`
  const rows = await queryRows<PassageRow>(db, query)
  return {
    passages: rows.map(toPassage),
    corrections: fixes.corrections,
    terms: terms.map((t) => ({ language: t.language, lexeme: t.lexeme })),
    language,
  }
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
