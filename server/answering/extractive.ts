/**
 * The answer given when no language model is configured: the sentences of the retrieved passages
 * that hold the most (rare) searched words, quoted with their documents. It never pretends to be
 * a model; it says plainly what it is.
 *
 * It works in each passage's own language (D82): sentences are cut by the passage's language
 * (Intl.Segmenter), and a sentence's words are compared with the searched ones as the index
 * analyses them (the passage language's stemmer and stop words, through PostgreSQL), so a
 * German question's "Dateien" finds a sentence about a "Datei", and a corrected word (D83) counts.
 * The product's own sentences (NO_MODEL_NOTE, NOTHING_FOUND_REPLY) stay English, as every text
 * of the product does.
 */
import { localeOf } from '../documents/index/languages.ts'
import { type Passage, passageLabel } from '../documents/index/passages.ts'
import type { SearchedTerm } from '../documents/index/search-terms.ts'

export const MAX_QUOTED_SENTENCES = 3
const MAX_SENTENCE_LENGTH = 400

export const NO_MODEL_NOTE =
  'No language model is configured on this server, so I answer by quoting the most relevant passages of your documents.'

const FOR_CONVERSATIONAL_ANSWERS =
  'For conversational answers, the server operator can set LLM_BASE_URL, LLM_API_KEY and LLM_MODEL to any OpenAI-compatible endpoint (OpenAI, Ollama, vLLM, llama.cpp).'

export const NOTHING_FOUND_REPLY = [
  "I couldn't find anything about that in your documents.",
  'No language model is configured on this server, so I can only answer from documents you have ingested: connect Google Drive under Integrations, then choose Ingest Documents under Documents.',
  FOR_CONVERSATIONAL_ANSWERS,
].join('\n\n')

/** The same on a server without Google Drive (D133): uploads are the only way in. */
export const NOTHING_FOUND_NO_DRIVE_REPLY = [
  "I couldn't find anything about that in your documents.",
  'No language model is configured on this server, so I can only answer from documents in your library: upload them under Documents, or attach a file with the paperclip.',
  FOR_CONVERSATIONAL_ANSWERS,
].join('\n\n')

/** The same, in a conversation limited to chosen documents (D70): only those were searched. */
export const NOTHING_FOUND_IN_SCOPE_REPLY = [
  "I couldn't find anything about that in the documents this conversation is limited to.",
  'No language model is configured on this server, so I can only quote sentences that share words with your question.',
  FOR_CONVERSATIONAL_ANSWERS,
].join('\n\n')

/** The lexemes of each text, in its language, as the passages' index makes them. */
export type Analyse = (items: readonly { text: string; language: string }[]) => Promise<string[][]>

/**
 * A sentence that ends in what is most likely an abbreviation ("z.", "Nr.", "e.g.", "Mr."):
 * Intl.Segmenter (ICU's rules without their abbreviation lists) ends a sentence there.
 */
const ABBREVIATION_END = /(?:^|[\s(])(?:\p{L}{1,2}\.|\p{L}\.\p{L}\.)$/u

/** The sentences of a passage, as its language cuts them. */
export function sentences(text: string, language: string): string[] {
  const segmenter = new Intl.Segmenter(localeOf(language), { granularity: 'sentence' })
  const out: string[] = []
  let pending = ''
  for (const { segment } of segmenter.segment(text.replace(/\s+/g, ' '))) {
    const sentence = `${pending}${segment}`
    if (ABBREVIATION_END.test(sentence.trim())) pending = sentence
    else {
      if (sentence.trim()) out.push(sentence.trim())
      pending = ''
    }
  }
  if (pending.trim()) out.push(pending.trim())
  return out
}

type Scored = { sentence: string; passage: Passage; score: number; order: number }

/**
 * Picks the sentences that hold the most (rare) `terms` (what the search looked for, per
 * language); returns the answer, the passages it quotes (`used`) and each quoted sentence with
 * its passage (`quoted`: checked as quotations, D129). `scoped`: only the
 * documents a conversation is limited to were searched (D70), and a reply of nothing says so;
 * `drive`: this server has Google Drive to offer (else a reply of nothing says to upload, D133).
 */
export async function extractiveAnswer(
  passages: readonly Passage[],
  terms: readonly SearchedTerm[],
  analyse: Analyse,
  { scoped = false, drive = true }: { scoped?: boolean; drive?: boolean } = {},
): Promise<{ content: string; used: Passage[]; quoted: { sentence: string; passage: Passage }[] }> {
  const unscoped = drive ? NOTHING_FOUND_REPLY : NOTHING_FOUND_NO_DRIVE_REPLY
  const nothing = {
    content: scoped ? NOTHING_FOUND_IN_SCOPE_REPLY : unscoped,
    used: [],
    quoted: [],
  }
  if (passages.length === 0 || terms.length === 0) return nothing
  const key = (language: string, lexeme: string) => `${language}\u0000${lexeme}`
  const wanted = new Set(terms.map((t) => key(t.language, t.lexeme)))

  const all = distinct(
    passages.flatMap((passage) =>
      sentences(passage.text, passage.language).map((sentence) => ({ passage, sentence })),
    ),
  )
  const analysed = await analyse(
    all.map(({ passage, sentence }) => ({ text: sentence, language: passage.language })),
  )
  const present = all.map(
    ({ passage }, i) =>
      new Set((analysed[i] ?? []).map((l) => key(passage.language, l)).filter((k) => wanted.has(k))),
  )
  // Rarer searched words weigh more: a word in every sentence tells little.
  const df = new Map<string, number>()
  for (const words of present) for (const w of words) df.set(w, (df.get(w) ?? 0) + 1)

  const scored: Scored[] = all.map(({ passage, sentence }, order) => {
    let score = 0
    for (const w of present[order] ?? []) score += Math.log(1 + all.length / (df.get(w) ?? 1))
    return { sentence, passage, score, order }
  })
  const best = scored
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .slice(0, MAX_QUOTED_SENTENCES)
    .sort((a, b) => a.order - b.order)
  if (best.length === 0) return nothing

  const quotes = best.map((s) => `> ${clip(s.sentence)}\n> — ${passageLabel(s.passage)}`)
  const used = [...new Map(best.map((s) => [s.passage.chunkId, s.passage])).values()]
  const quoted = best.map((s) => ({
    sentence: clip(s.sentence),
    passage: used.find((p) => p.chunkId === s.passage.chunkId) ?? s.passage,
  }))
  return { content: [NO_MODEL_NOTE, ...quotes].join('\n\n'), used, quoted }
}

/**
 * Each sentence once, where it first appears (issue 40, item 7): a file that repeats itself
 * (a notice pasted twice, a header on every page) would otherwise fill every quotation with the
 * same sentence, and count its words as common, so the sentence that answers loses to it.
 * Sentences are the same when their letters and digits are, whatever the case, spaces and
 * punctuation.
 */
function distinct<T extends { sentence: string }>(items: T[]): T[] {
  const seen = new Set<string>()
  return items.filter(({ sentence }) => {
    const key = sentence
      .toLocaleLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, ' ')
      .trim()
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

function clip(sentence: string): string {
  return sentence.length > MAX_SENTENCE_LENGTH ? `${sentence.slice(0, MAX_SENTENCE_LENGTH - 1)}…` : sentence
}
