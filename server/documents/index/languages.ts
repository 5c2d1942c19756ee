/**
 * Which language a text is written in, as the PostgreSQL text search configuration that analyses
 * it (D82): the Snowball stemmer PostgreSQL ships for that language, or 'simple' (lower case, no
 * stemming, no stop words) for a language it has none for. The detector is ELD (`eld`, its
 * smallest n-gram table), chosen by bench/language-detection.ts: the most accurate of the three
 * measured on short passages and questions, ~0.1 ms a passage. It is loaded on first use (~35 MB
 * of heap), so a server that never reads a document or answers a question does not pay for it.
 */
import type { Chunk } from '../reading/chunker.ts'
import { takingTurns } from '../reading/turns.ts'
import type { IndexedChunk } from './passage-writes-repository.ts'

/** What a text is analysed as when nothing can be told about it: what every passage was before D82. */
export const DEFAULT_LANGUAGE = 'english'
/** For a language PostgreSQL has no stemmer for: words as written, lower case. */
export const UNSTEMMED = 'simple'

/**
 * ISO 639-1 codes (as the detector answers) → the configurations PostgreSQL 15 and later ship
 * (`select cfgname from pg_ts_config`). Only languages the detector knows are listed.
 */
export const LANGUAGE_CONFIGS: Readonly<Record<string, string>> = {
  ar: 'arabic',
  hy: 'armenian',
  eu: 'basque',
  ca: 'catalan',
  da: 'danish',
  nl: 'dutch',
  en: 'english',
  fi: 'finnish',
  fr: 'french',
  de: 'german',
  el: 'greek',
  hi: 'hindi',
  hu: 'hungarian',
  it: 'italian',
  lt: 'lithuanian',
  no: 'norwegian',
  pt: 'portuguese',
  ro: 'romanian',
  ru: 'russian',
  sr: 'serbian',
  es: 'spanish',
  sv: 'swedish',
  ta: 'tamil',
  tr: 'turkish',
}

/**
 * Per configuration: the words a question is phrased with rather than about, which that
 * language's PostgreSQL stop list lacks (D82). The English and German lists drop the
 * interrogatives ("how", "which", "wie", "welche") and "all"/"alle"; the French one (Snowball's)
 * has no interrogative at all, nor the plural forms of the articles, pronouns and determiners
 * whose singular it drops ("les" beside "le" and "la", "ils" beside "il"). Such a word is then
 * searched as a topic: « comment », rare in manuals, was the rarest word of most French
 * questions and brought the few pages holding it to the top. These are dropped from a question
 * in that language (its own detected one) before it is analysed for any language of the library;
 * passages are indexed as before. Matched as written, lower case, Capitalised or UPPER CASE.
 */
export const QUESTION_WORDS: Readonly<Record<string, readonly string[]>> = {
  french: [
    // Interrogatives (« est-ce » of « est-ce que », « qu'est-ce que »).
    'comment|pourquoi|quand|où|combien|quel|quelle|quels|quelles|lequel|laquelle|lesquels|lesquelles|quoi|est-ce',
    // Plurals and other forms of the stop list's articles, pronouns and determiners; "all".
    'les|ils|leurs|cet|cette|ceci|cela|ça|tout|tous|toute|toutes',
  ]
    .join('|')
    .split('|'),
  // The German list has wie, was, wo, welche…: not these.
  german: 'warum|wann|wieso|weshalb|weswegen|wozu|woher|wohin|wieviel|wer|wen|wem|wessen'.split('|'),
}

/** A question's own words to leave out (QUESTION_WORDS), in the case forms a question may write them. */
export function questionWords(language: string): string[] {
  const words = QUESTION_WORDS[language] ?? []
  const capitalised = (w: string) => w.charAt(0).toUpperCase() + w.slice(1)
  return [...new Set(words.flatMap((w) => [w, capitalised(w), w.toUpperCase()]))]
}

/** The BCP 47 tag of a configuration (for Intl.Segmenter), 'und' for 'simple'. */
export function localeOf(config: string): string {
  for (const [code, name] of Object.entries(LANGUAGE_CONFIGS)) if (name === config) return code
  return 'und'
}

/**
 * Below this many letters a passage or section says too little to tell its language apart from
 * its document's (a heading, a line of code, a table row): it keeps its document's.
 */
const MIN_LETTERS = 200
/** How much of a document (spread over its passages) decides its language. */
const DOCUMENT_SAMPLE_CHARS = 6000
const SECTION_SAMPLE_CHARS = 3000

type Detection = { code: string; reliable: boolean }
type Detector = (text: string) => Detection

let detector: Promise<Detector> | null = null

function loadDetector(): Promise<Detector> {
  detector ??= import('eld/extrasmall').then(({ eld }) => (text: string) => {
    const result = eld.detect(text)
    return { code: result.language, reliable: result.isReliable() }
  })
  return detector
}

const letters = (text: string) => text.match(/\p{L}/gu)?.length ?? 0

function configOf(code: string): string | null {
  if (code === '') return null
  return LANGUAGE_CONFIGS[code] ?? UNSTEMMED
}

/** The configuration for a question (a few words: the detector's best guess, reliable or not). */
export async function questionLanguage(question: string): Promise<string> {
  const detect = await loadDetector()
  return configOf(detect(question).code) ?? DEFAULT_LANGUAGE
}

/** The text of `chunks`, taken evenly across them, up to about `chars` characters. */
function sample(chunks: readonly Chunk[], chars: number): string {
  const total = chunks.reduce((n, c) => n + c.text.length, 0)
  if (total <= chars) return chunks.map((c) => c.text).join('\n\n')
  const step = total / chars
  const picked: string[] = []
  let taken = 0
  for (let i = 0; i < chunks.length && taken < chars; i += Math.max(1, Math.round(step))) {
    const text = (chunks[i] as Chunk).text
    picked.push(text)
    taken += text.length
  }
  return picked.join('\n\n')
}

/**
 * Each passage's configuration: its document's language, unless the section it belongs to (the
 * passages under one heading, or one page of a PDF) or the passage itself is long enough and
 * reliably in another one. A document the detector can tell nothing about (numbers, code) is
 * analysed as before (DEFAULT_LANGUAGE). A section's and the document's languages are worked out
 * only for the passages that fall back on them (too short, or not reliably told): a page of long
 * passages in clear prose costs one detection per passage, not three. It lets the server's other
 * work run every few milliseconds (~0.1 ms a passage: a document of 8,000 would hold the thread
 * most of a second).
 */
export async function passageLanguages(chunks: readonly Chunk[]): Promise<string[]> {
  if (chunks.length === 0) return []
  const detect = await loadDetector()
  /** The text's language if it says enough, reliably; otherwise `fallback()`'s. */
  const decide = (text: string, fallback: () => string): string => {
    if (letters(text) < MIN_LETTERS) return fallback()
    const { code, reliable } = detect(text)
    return (reliable && configOf(code)) || fallback()
  }
  let document: string | undefined
  const documentLanguage = () => {
    document ??= configOf(detect(sample(chunks, DOCUMENT_SAMPLE_CHARS)).code) ?? DEFAULT_LANGUAGE
    return document
  }
  const languages: string[] = []
  const turns = takingTurns()
  for (let start = 0; start < chunks.length; ) {
    const first = chunks[start] as Chunk
    let end = start + 1
    while (end < chunks.length && sameSection(first, chunks[end] as Chunk)) end++
    const section = chunks.slice(start, end)
    let sectionLanguage: string | undefined
    const fallback = () => {
      sectionLanguage ??=
        section.length === chunks.length
          ? documentLanguage()
          : decide(sample(section, SECTION_SAMPLE_CHARS), documentLanguage)
      return sectionLanguage
    }
    for (const chunk of section) {
      languages.push(decide(chunk.text, fallback))
      await turns.pause()
    }
    start = end
  }
  return languages
}

/** The passages, each with its configuration (passageLanguages): what the document writer stores. */
export async function withLanguages(chunks: readonly Chunk[]): Promise<IndexedChunk[]> {
  const languages = await passageLanguages(chunks)
  return chunks.map((chunk, i) => ({ ...chunk, language: languages[i] ?? DEFAULT_LANGUAGE }))
}

function sameSection(a: Chunk, b: Chunk): boolean {
  return a.page === b.page && a.heading === b.heading
}
