/**
 * The search retrieval runs over one person's passages: BM25 with document-level evidence (D14,
 * D15), per language (D82), tolerant of typos against the person's own vocabulary (D83). The
 * reasons for each step are at `searchPassages`; its settings are in search-terms.ts, its
 * statements in question-analysis-repository.ts and passage-search-repository.ts.
 */

import type { Db } from '../../db/database.ts'
import type { Correction } from '../../db/schema.ts'
import { questionLanguage } from './languages.ts'
import { bestScores, type RankingPlan, rankedPassages } from './passage-search-repository.ts'
import { toPassage } from './passages.ts'
import { analyseQuestion, nearestWords, writtenForms } from './question-analysis-repository.ts'
import {
  type Analysis,
  type BestMatch,
  CORRECTION_WEIGHT,
  type CorrectionRow,
  DOCUMENT_POOL,
  FULL_READ_POSTINGS,
  idf,
  MAX_CANDIDATES_READ,
  MIN_CANDIDATES_READ,
  type PassageSearch,
  type Term,
} from './search-terms.ts'

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
  const rows = await rankedPassages(db, { userId, scope, limit, ...weighed(analysis, terms, scope) })
  return {
    passages: rows.map(toPassage),
    corrections: fixes.corrections,
    terms: terms.map((t) => ({ language: t.language, lexeme: t.lexeme })),
    language,
  }
}

/**
 * The raw scores of the best passage and document for a question within `scope` (null: the whole
 * library), analysed, corrected and weighed exactly as `searchPassages` does; null when nothing
 * matched. Scores only, no passage: what bench/quality-judge.ts compares (not used by answering).
 */
export async function bestMatch(
  db: Db,
  userId: string,
  question: string,
  scope: readonly string[] | null,
): Promise<BestMatch | null> {
  if (question.trim() === '' || scope?.length === 0) return null
  const language = await questionLanguage(question)
  const analysis = await analyseQuestion(db, userId, question, language)
  if (analysis.languages.length === 0) return null
  const fixes = await corrected(db, userId, question, language, analysis)
  const terms = [...analysis.terms.filter((t) => t.chunks > 0), ...fixes.terms]
  if (terms.length === 0) return null
  return bestScores(db, { userId, scope, limit: DOCUMENT_POOL, ...weighed(analysis, terms, scope) })
}

/**
 * The terms weighed for the statement (see `searchPassages`): which are read in full, each one's
 * idf over the whole library (one question word, one rarity, in any language) and its language's
 * average passage, and how many "most of the words" candidates each language reads.
 */
function weighed(
  analysis: Analysis,
  terms: readonly Term[],
  scope: readonly string[] | null,
): Omit<RankingPlan, 'userId' | 'scope' | 'limit'> {
  const totals = new Map(analysis.languages.map((l) => [l.language, l]))
  const libraryChunks = analysis.languages.reduce((n, l) => n + l.chunks, 0)
  const full = new Set<Term>()
  let postings = 0
  for (const t of [...terms].sort((a, b) => a.chunks - b.chunks)) {
    if (scope === null && postings + t.chunks > FULL_READ_POSTINGS) break
    full.add(t)
    postings += t.chunks
  }
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
  const averageChunk = (t: Term) => {
    const l = totals.get(t.language)
    return l && l.chunks > 0 ? Math.max(l.tokens / l.chunks, 1) : 1
  }
  const languages = [...new Set(terms.map((t) => t.language))]
  const read = (l: string) => {
    const share = (totals.get(l)?.chunks ?? 0) / Math.max(libraryChunks, 1)
    return Math.max(MIN_CANDIDATES_READ, Math.ceil(MAX_CANDIDATES_READ * share))
  }
  return {
    terms: terms.map((t) => ({
      ...t,
      full: full.has(t),
      chunkIdf: t.weight * idf(libraryChunks, holding.get(t.position)?.chunks ?? 0),
      documentIdf:
        t.weight * idf(libraryDocuments, Math.min(holding.get(t.position)?.documents ?? 0, libraryDocuments)),
      average: averageChunk(t),
    })),
    candidatesRead: new Map(languages.map((l) => [l, read(l)])),
    averageDocument: Math.max(analysis.totals.tokens / Math.max(analysis.totals.documents, 1), 1),
  }
}
