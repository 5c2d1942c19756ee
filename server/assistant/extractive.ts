/**
 * The answer given when no language model is configured: the sentences of the retrieved passages
 * that share the most (rare) words with the question, quoted with their documents. It never
 * pretends to be a model; it says plainly what it is.
 */
import { type Passage, passageLabel } from '../documents/passages.ts'

export const MAX_QUOTED_SENTENCES = 3
const MAX_SENTENCE_LENGTH = 400

const STOPWORDS = new Set(
  (
    'a an and are as at be but by can could did do does for from had has have how i if in into is it its ' +
    'me my no not of on or our so than that the their them then there these they this to was we were what ' +
    'when where which who whom why will with would you your about tell please know any all'
  ).split(' '),
)

export const NO_MODEL_NOTE =
  'No language model is configured on this server, so I answer by quoting the most relevant passages of your documents.'

export const NOTHING_FOUND_REPLY = [
  "I couldn't find anything about that in your documents.",
  'No language model is configured on this server, so I can only answer from documents you have ingested: connect Google Drive under Integrations, then choose Ingest Documents under Documents.',
  'For conversational answers, the server operator can set LLM_BASE_URL, LLM_API_KEY and LLM_MODEL to any OpenAI-compatible endpoint (OpenAI, Ollama, vLLM, llama.cpp).',
].join('\n\n')

export function terms(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((t) => t.length > 1 && !STOPWORDS.has(t))
}

export function sentences(text: string): string[] {
  return text
    .replace(/\s+/g, ' ')
    .split(/(?<=[.!?])\s+(?=[\p{Lu}\p{N}"'(])/u)
    .map((s) => s.trim())
    .filter((s) => s.length > 0)
}

type Scored = { sentence: string; passage: Passage; score: number; order: number }

/** Picks the best sentences; returns the quoted sentences and the passages they came from. */
export function extractiveAnswer(
  question: string,
  passages: Passage[],
): { content: string; used: Passage[] } {
  const wanted = new Set(terms(question))
  if (passages.length === 0 || wanted.size === 0) return { content: NOTHING_FOUND_REPLY, used: [] }

  // Rarer question words weigh more: a word in every sentence tells little.
  const all = passages.flatMap((passage) =>
    sentences(passage.text).map((sentence) => ({ passage, sentence })),
  )
  const df = new Map<string, number>()
  for (const { sentence } of all)
    for (const t of new Set(terms(sentence))) if (wanted.has(t)) df.set(t, (df.get(t) ?? 0) + 1)

  const scored: Scored[] = all.map(({ passage, sentence }, order) => {
    const present = new Set(terms(sentence).filter((t) => wanted.has(t)))
    let score = 0
    for (const t of present) score += Math.log(1 + all.length / (df.get(t) ?? 1))
    return { sentence, passage, score, order }
  })
  const best = scored
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .slice(0, MAX_QUOTED_SENTENCES)
    .sort((a, b) => a.order - b.order)
  if (best.length === 0) return { content: NOTHING_FOUND_REPLY, used: [] }

  const quotes = best.map((s) => `> ${clip(s.sentence)}\n> — ${passageLabel(s.passage)}`)
  const used = [...new Map(best.map((s) => [s.passage.chunkId, s.passage])).values()]
  return { content: [NO_MODEL_NOTE, ...quotes].join('\n\n'), used }
}

function clip(sentence: string): string {
  return sentence.length > MAX_SENTENCE_LENGTH ? `${sentence.slice(0, MAX_SENTENCE_LENGTH - 1)}…` : sentence
}
