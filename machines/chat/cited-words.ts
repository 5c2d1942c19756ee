/**
 * Which words of a cited passage the answer leans on, so the panel can mark them: the sentences
 * of the passage that share the most content words with what the answer says beside its [n]
 * marker (or with the whole answer, for a source cited by no number). Pure; no model.
 */

/** A stretch of the passage to mark: [start, end) in its characters. */
export type Span = { start: number; end: number }

/** At most this many sentences are marked: a highlight of everything marks nothing. */
export const MAX_MARKED_SENTENCES = 3
/** A sentence shares at least this many content words with the answer to be marked. */
const MIN_SHARED = 2

const STOPWORDS = new Set(
  (
    'a an and are as at be but by can could did do does for from had has have how i if in into is it its ' +
    'me my no not of on or our so than that the their them then there these they this to was we were what ' +
    'when where which who whom why will with would you your about also per each'
  ).split(' '),
)

function contentWords(text: string): Set<string> {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []
  return new Set(words.filter((w) => (w.length > 2 || /\d/.test(w)) && !STOPWORDS.has(w)))
}

/** What the answer says about passage `citation`: the sentences carrying its marker, else all of it. */
export function citingText(answer: string, citation: number | null | undefined): string {
  if (!citation) return answer
  const marker = `[${citation}]`
  const sentences = answer.split(/(?<=[.!?])\s+|\n+/).filter((s) => s.includes(marker))
  return sentences.length > 0 ? sentences.join(' ') : answer
}

/** The passage's sentences, with where each starts and ends. */
function sentenceSpans(passage: string): (Span & { text: string })[] {
  const spans: (Span & { text: string })[] = []
  for (const match of passage.matchAll(/[^.!?\n]+[.!?]*/g)) {
    const text = match[0]
    const lead = text.length - text.trimStart().length
    const body = text.trim()
    if (body === '') continue
    const start = match.index + lead
    spans.push({ start, end: start + body.length, text: body })
  }
  return spans
}

/** The spans of `passage` to mark for an answer citing it as `citation`, in reading order. */
export function citedSpans(answer: string, citation: number | null | undefined, passage: string): Span[] {
  const wanted = contentWords(citingText(answer, citation))
  if (wanted.size === 0) return []
  const scored = sentenceSpans(passage).map((span) => {
    let shared = 0
    for (const word of contentWords(span.text)) if (wanted.has(word)) shared += 1
    return { span, shared }
  })
  const best = Math.max(0, ...scored.map((s) => s.shared))
  if (best < MIN_SHARED) return []
  return scored
    .filter((s) => s.shared >= Math.max(MIN_SHARED, Math.ceil(best / 2)))
    .sort((a, b) => b.shared - a.shared)
    .slice(0, MAX_MARKED_SENTENCES)
    .map(({ span }) => ({ start: span.start, end: span.end }))
    .sort((a, b) => a.start - b.start)
}

/** The passage cut into plain and marked pieces, for rendering. */
export function markedPieces(passage: string, spans: Span[]): { text: string; marked: boolean }[] {
  const pieces: { text: string; marked: boolean }[] = []
  let at = 0
  for (const { start, end } of spans) {
    if (start > at) pieces.push({ text: passage.slice(at, start), marked: false })
    pieces.push({ text: passage.slice(start, end), marked: true })
    at = end
  }
  if (at < passage.length) pieces.push({ text: passage.slice(at), marked: false })
  return pieces
}
