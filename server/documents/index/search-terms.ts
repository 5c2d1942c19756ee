/**
 * What the keyword search weighs and how (D14, D15, D82, D83): its settings, chosen on
 * bench/quality.ts, and the shapes of a question's terms as the search's statements return them.
 * No SQL here: the statements are in passage-search-repository.ts and
 * question-analysis-repository.ts, the steps in passage-search.ts.
 */
import type { Correction } from '../../db/schema.ts'
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
export const MIN_CANDIDATES_READ = 50
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

/** The raw scores of the best passage (BM25) and the best document (document-level score) a search read. */
export type BestMatch = { passage: number; document: number }

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

/** Lucene's BM25 idf: never negative, even for a word in every chunk. */
export function idf(total: number, holding: number): number {
  return Math.log(1 + (total - holding + 0.5) / (holding + 0.5))
}

/** Per-language collection totals (BM25's N and average length), from retrieval_languages. */
export type LanguageTotals = { language: string; chunks: number; documents: number; tokens: number }

/** A question lexeme in one language, with the person's counts and where it stands in the question. */
export type Term = SearchedTerm & {
  chunks: number
  documents: number
  position: number
  /** 1 for the question's own words, CORRECTION_WEIGHT for a correction. */
  weight: number
}

export type Analysis = {
  languages: LanguageTotals[]
  totals: { documents: number; tokens: number }
  terms: Term[]
}

/** The nearest word of one language to a question word no vocabulary holds (typo tolerance, D83). */
export type CorrectionRow = {
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

/** A term as the statement scores it: read in full or not, with its idfs and its language's average passage. */
export type WeighedTerm = Term & { full: boolean; chunkIdf: number; documentIdf: number; average: number }
