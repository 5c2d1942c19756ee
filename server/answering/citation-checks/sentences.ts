/**
 * An answer cut into its sentences, each with the [n] markers it carries. Lines are cut first
 * (list items, headings and table rows are sentences of their own; fenced code is skipped), then
 * each line by Intl.Segmenter in the answer's language, joined again after what ICU ends a
 * sentence at wrongly (abbreviations "z.", "e.g.", "Nr.", and German ordinals "3. März"). A
 * marker written after the full stop ("… 20 knots. [2] Next…") belongs to the sentence before.
 */
import { localeOf } from '../../documents/index/languages.ts'

/**
 * `ordinals`: which of the answer's markers (MARKER matches outside fenced code, counted from 0
 * in reading order) the sentence holds, so a repaired citation's marker can be moved in the text.
 */
export type AnswerSentence = { text: string; markers: number[]; ordinals: number[] }
/**
 * A sentence with where it stands in the answer: [start, end) covers its words and its markers
 * (those written after its full stop too), so it can be left out of the text (a published
 * assistant hiding unverified sentences, issue 39).
 */
export type SentenceSpan = AnswerSentence & { start: number; end: number }

const ABBREVIATION_END =
  /(?:^|[\s(])(?:\p{L}|\p{L}\.\p{L}|z|vgl|bzw|ca|usw|etc|nr|no|abs|art|dr|mr|mrs|ms|st|vs|cf|env|approx|mio|mrd|p|pp|s|ff)\.$/iu
/** German writes ordinals with a full stop ("am 3. März"). */
const ORDINAL_END = /(?:^|\s)[0-3]?\d\.$/u
export const MARKER = /\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\]/g
/** A line that opens or closes fenced code, whose markers are not the answer's. */
export const FENCE = /^\s*(```|~~~)/
const LEADING_MARKERS = /^(?:\s*\[\d{1,3}(?:\s*,\s*\d{1,3})*\])+[.,;:]?/
const LINE_PREFIX = /^\s*(?:#{1,6}\s+|>\s*|[-*+•]\s+|\d{1,3}[.)]\s+|\|)?/

type Piece = { text: string; start: number }

export function answerSentences(answer: string, language: string): AnswerSentence[] {
  return sentenceSpans(answer, language).map(({ start: _s, end: _e, ...sentence }) => sentence)
}

export function sentenceSpans(answer: string, language: string): SentenceSpan[] {
  const segmenter = new Intl.Segmenter(localeOf(language), { granularity: 'sentence' })
  const german = language === 'german'
  const out: SentenceSpan[] = []
  const counter = { next: 0 }
  let fenced = false
  let lineStart = 0
  for (const rawLine of answer.split('\n')) {
    const offset = lineStart
    lineStart += rawLine.length + 1
    if (FENCE.test(rawLine)) {
      fenced = !fenced
      continue
    }
    if (fenced) continue
    const { line, origin } = bareLine(rawLine, offset)
    if (!line) continue
    // Offsets in `line` back to the answer's (a bold mark's characters are not in `line`).
    const at = (from: number, to: number) => ({ start: origin[from] ?? 0, end: (origin[to - 1] ?? 0) + 1 })
    let pending: Piece = { text: '', start: 0 }
    const pieces: Piece[] = []
    for (const { segment, index } of segmenter.segment(line)) {
      const joined = { text: `${pending.text}${segment}`, start: pending.text ? pending.start : index }
      const end = joined.text.trim()
      if (ABBREVIATION_END.test(end) || (german && ORDINAL_END.test(end))) pending = joined
      else {
        pieces.push(joined)
        pending = { text: '', start: 0 }
      }
    }
    if (pending.text.trim()) pieces.push(pending)
    const first = out.length
    for (const piece of pieces) {
      const trimmed = piece.text.trim()
      const from = piece.start + piece.text.length - piece.text.trimStart().length
      const lead = LEADING_MARKERS.exec(trimmed)
      const previous = out[out.length - 1]
      if (lead && previous && out.length > first) {
        const { markers, ordinals } = markersOf(lead[0], counter)
        previous.markers.push(...markers)
        previous.ordinals.push(...ordinals)
        previous.end = at(from, from + lead[0].length).end
        const rest = trimmed.slice(lead[0].length)
        const restFrom = from + lead[0].length + rest.length - rest.trimStart().length
        pushSentence(out, rest, counter, at(restFrom, restFrom + rest.trim().length))
      } else pushSentence(out, piece.text, counter, at(from, from + trimmed.length))
    }
  }
  for (const s of out) s.markers = [...new Set(s.markers)]
  return out
}

/**
 * The line without its list, heading, quote or table prefix, bold marks or surrounding spaces
 * (what is split into sentences), and where each of its characters stands in the answer.
 */
function bareLine(rawLine: string, lineStart: number): { line: string; origin: number[] } {
  const prefix = LINE_PREFIX.exec(rawLine)?.[0].length ?? 0
  let kept = ''
  const origin: number[] = []
  for (let i = prefix; i < rawLine.length; i++) {
    if (rawLine.startsWith('**', i) || rawLine.startsWith('__', i)) {
      i++
      continue
    }
    kept += rawLine[i]
    origin.push(lineStart + i)
  }
  const lead = kept.length - kept.trimStart().length
  const line = kept.trim()
  return { line, origin: origin.slice(lead, lead + line.length) }
}

function markersOf(text: string, counter: { next: number }): { markers: number[]; ordinals: number[] } {
  const matches = [...text.matchAll(MARKER)]
  return {
    markers: matches.flatMap((m) => (m[1] as string).split(',').map((n) => Number(n.trim()))),
    ordinals: matches.map(() => counter.next++),
  }
}

function pushSentence(
  out: SentenceSpan[],
  piece: string,
  counter: { next: number },
  span: { start: number; end: number },
) {
  const { markers, ordinals } = markersOf(piece, counter)
  const text = piece
    .replace(MARKER, '')
    .replace(/\s+([.,;:!?])/g, '$1')
    .replace(/\s+/g, ' ')
    .trim()
  if (text.replace(/[\p{P}\s]/gu, '') === '') {
    const previous = out[out.length - 1]
    if (previous) {
      previous.markers.push(...markers)
      previous.ordinals.push(...ordinals)
      previous.end = Math.max(previous.end, span.end)
    }
    return
  }
  out.push({ text, markers, ordinals, ...span })
}
