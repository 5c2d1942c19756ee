/**
 * Quotations: text between quotation marks of any of the three languages ("…", “…”, „…“, «…»,
 * »…«, ‘…’, '…'). A quotation is found in a passage when its words follow one another there,
 * compared as comparableWords makes them (case, punctuation, hyphenation, line breaks aside).
 * Tolerated: an ellipsis (… or [...]) standing for words left out, words trimmed at either end
 * (the quote is any stretch of the passage), and one passage word left out inside each piece;
 * never a changed word, nor a word cut short ("file" for "files" is a changed word).
 */
import { comparableWords } from './normalise.ts'
import { matches, type Span } from './spans.ts'

const QUOTED = [
  /"(?<q>[^"\n]{2,500})"/gu,
  /“(?<q>[^“”\n]{2,500})[”“]/gu,
  /„(?<q>[^„“”\n]{2,500})[“”]/gu,
  /«(?<q>[^«»\n]{2,500})»/gu,
  /»(?<q>[^«»\n]{2,500})«/gu,
  /‘(?<q>[^‘’\n]{2,500})’(?!\p{L})/gu,
  /‚(?<q>[^‚‘’\n]{2,500})[‘’]/gu,
  // Plain single quotes only around words, so an apostrophe (l'option, don't) is never one.
  /(?<![\p{L}\d])'(?<q>[^'\n]{2,500})'(?![\p{L}\d])/gu,
]
const ELLIPSIS = /\[?(?:…|\.\.\.)\]?|\[\s*\]/u

export type Quote = { text: string; pieces: string[][] }

export function quotations(text: string): Span<Quote>[] {
  const found: Span<Quote>[] = []
  for (const pattern of QUOTED)
    for (const span of matches(text, pattern, (m) => {
      const pieces = (m.groups?.q ?? '')
        .split(ELLIPSIS)
        .map(comparableWords)
        .filter((words) => words.length > 0)
      return pieces.length > 0 ? { text: m[0], pieces } : null
    }))
      if (!found.some((f) => span.start < f.end && f.start < span.end)) found.push(span)
  return found
}

/** Whether the passage's words hold every piece of the quotation. */
export function holdsQuote(passage: readonly string[], quote: Quote): boolean {
  return quote.pieces.every((piece) => holdsPiece(passage, piece))
}

function holdsPiece(passage: readonly string[], piece: readonly string[]): boolean {
  const first = piece[0] as string
  for (let i = 0; i < passage.length; i++) {
    if (passage[i] === first && alignsFrom(passage, i + 1, piece)) return true
  }
  return false
}

/** Whether piece[1…] follows from passage[k], one passage word at most left out inside. */
function alignsFrom(passage: readonly string[], start: number, piece: readonly string[]): boolean {
  let k = start
  let skipped = false
  for (let j = 1; j < piece.length; j++) {
    const want = piece[j] as string
    const at = (i: number) => passage[i] === want
    if (at(k)) k++
    else if (!skipped && at(k + 1)) {
      skipped = true
      k += 2
    } else return false
  }
  return true
}
