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

const ABBREVIATION_END =
  /(?:^|[\s(])(?:\p{L}|\p{L}\.\p{L}|z|vgl|bzw|ca|usw|etc|nr|no|abs|art|dr|mr|mrs|ms|st|vs|cf|env|approx|mio|mrd|p|pp|s|ff)\.$/iu
/** German writes ordinals with a full stop ("am 3. März"). */
const ORDINAL_END = /(?:^|\s)[0-3]?\d\.$/u
export const MARKER = /\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\]/g
/** A line that opens or closes fenced code, whose markers are not the answer's. */
export const FENCE = /^\s*(```|~~~)/
const LEADING_MARKERS = /^(?:\s*\[\d{1,3}(?:\s*,\s*\d{1,3})*\])+[.,;:]?/
const LINE_PREFIX = /^\s*(?:#{1,6}\s+|>\s*|[-*+•]\s+|\d{1,3}[.)]\s+|\|)?/

export function answerSentences(answer: string, language: string): AnswerSentence[] {
  const segmenter = new Intl.Segmenter(localeOf(language), { granularity: 'sentence' })
  const german = language === 'german'
  const out: AnswerSentence[] = []
  const counter = { next: 0 }
  let fenced = false
  for (const rawLine of answer.split('\n')) {
    if (FENCE.test(rawLine)) {
      fenced = !fenced
      continue
    }
    if (fenced) continue
    const line = rawLine
      .replace(LINE_PREFIX, '')
      .replace(/\*\*|__/g, '')
      .trim()
    if (!line) continue
    let pending = ''
    const pieces: string[] = []
    for (const { segment } of segmenter.segment(line)) {
      const joined = `${pending}${segment}`
      const end = joined.trim()
      if (ABBREVIATION_END.test(end) || (german && ORDINAL_END.test(end))) pending = joined
      else {
        pieces.push(joined)
        pending = ''
      }
    }
    if (pending.trim()) pieces.push(pending)
    const first = out.length
    for (const piece of pieces) {
      const lead = LEADING_MARKERS.exec(piece.trim())
      const previous = out[out.length - 1]
      if (lead && previous && out.length > first) {
        const { markers, ordinals } = markersOf(lead[0], counter)
        previous.markers.push(...markers)
        previous.ordinals.push(...ordinals)
        pushSentence(out, piece.trim().slice(lead[0].length), counter)
      } else pushSentence(out, piece, counter)
    }
  }
  for (const s of out) s.markers = [...new Set(s.markers)]
  return out
}

function markersOf(text: string, counter: { next: number }): { markers: number[]; ordinals: number[] } {
  const matches = [...text.matchAll(MARKER)]
  return {
    markers: matches.flatMap((m) => (m[1] as string).split(',').map((n) => Number(n.trim()))),
    ordinals: matches.map(() => counter.next++),
  }
}

function pushSentence(out: AnswerSentence[], piece: string, counter: { next: number }) {
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
    }
    return
  }
  out.push({ text, markers, ordinals })
}
