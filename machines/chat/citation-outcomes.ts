/**
 * What an answer's citation checks (issue 39, D129) mean on screen: which check each [n] marker
 * of the text belongs to, the marker's accessible name, and, for the panel, the items of the
 * answer found in a passage (to highlight) and those missing from it (to list). Pure; the server
 * decided the outcomes.
 */
import type { CitationCheck } from '#contracts/citation-checks.ts'
import type { Span } from './cited-words.ts'

/** The markers as the answer's markdown links them (markdown-answer.tsx). */
export const MARKER = /\s?\[(\d+)\](?!\()/g

/**
 * The check of each marker of `text`, in order (null: none). The checks come in the order of
 * their sentences, each with its first marker: a marker with the next check's number starts that
 * sentence; any other belongs to the sentence before (its second marker).
 */
export function markerChecks(text: string, checks: readonly CitationCheck[] | null | undefined) {
  const cited = (checks ?? []).filter((c) => c.marker !== null)
  let next = 0
  let current: CitationCheck | null = null
  return [...text.matchAll(MARKER)].map((match) => {
    const candidate = cited[next]
    if (candidate && candidate.marker === Number(match[1])) {
      current = candidate
      next += 1
    }
    return current
  })
}

/**
 * What a marker says to a screen reader (and in its tooltip), from its sentence's check: what it
 * does first, as every marker says, then the outcome, then the model judge's verdict (D140),
 * always said to be the model's.
 */
export function markerLabel(n: number, check: CitationCheck | null): string {
  switch (check?.outcome) {
    case 'checked':
      return `Show passage ${n}, checked`
    case 'repaired':
      return `Show passage ${n}, checked (moved here from passage ${check.movedFrom})`
    case 'unverified':
      return `Show passage ${n}: ${listed(check.missing)} not found in the passage${judgedAs(check, '; ')}`
    default:
      return `Show passage ${n}${check ? judgedAs(check, ': ') : ''}`
  }
}

/** The model judge's verdict in words (D140), after `lead`; nothing when it gave none. */
function judgedAs(check: CitationCheck, lead: string): string {
  if (check.judge === 'supported') return `${lead}the model judged it supported, not checked`
  if (check.judge === 'not-supported') return `${lead}the model judged it not supported`
  return ''
}

/**
 * The sign a marker shows (D129, D140): ✓ checked or moved and checked, ⚠ unverified or judged
 * not supported by the model, ◇ judged supported by the model (never a check mark: it was not
 * checked against the passage's words); null: none.
 */
export function markerSign(check: CitationCheck | null): { sign: string; warn: boolean } | null {
  if (check?.outcome === 'checked' || check?.outcome === 'repaired') return { sign: '✓', warn: false }
  if (check?.outcome === 'unverified' || check?.judge === 'not-supported') return { sign: '⚠', warn: true }
  if (check?.judge === 'supported') return { sign: '◇', warn: false }
  return null
}

/** The sentences citing passage `citation` that the model judged (D140), with its verdict. */
export function judgedAt(
  checks: readonly CitationCheck[] | null | undefined,
  citation: number | null | undefined,
) {
  return (checks ?? []).filter((c) => c.judge !== undefined && c.sourceIndex === citation)
}

/** "a", "a and b", "a, b and c". */
export function listed(items: readonly string[]): string {
  if (items.length <= 1) return items.join('')
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`
}

/** The items of the checks citing passage `citation` that it lacks (unverified ones), once each. */
export function missingFrom(
  checks: readonly CitationCheck[] | null | undefined,
  citation: number | null | undefined,
) {
  const missing = (checks ?? [])
    .filter((c) => c.outcome === 'unverified' && c.sourceIndex === citation)
    .flatMap((c) => c.missing)
  return [...new Set(missing)]
}

/** The sentences with a figure that cite nothing. */
export function uncited(checks: readonly CitationCheck[] | null | undefined): string[] {
  return (checks ?? []).filter((c) => c.outcome === 'not-cited').map((c) => c.sentence)
}

const NUMBER = /\d(?:[\d.,]*\d)?/g
const QUOTED = /[“"„«‘]\s*([^“”"„«»‘’]{3,}?)\s*[”"“»’]/gu
const NAME = /(?<=\S\s+)\p{Lu}[\p{L}\d-]+/gu

/**
 * Where a passage holds the items of the sentences that cite it and were checked or repaired
 * there: figures (by their digits, so 1,200 finds 1200), capitalised names (as written) and
 * quotations (in any case). Every occurrence, in reading order.
 */
export function foundItems(
  checks: readonly CitationCheck[] | null | undefined,
  citation: number | null | undefined,
  passage: string,
): Span[] {
  const sentences = (checks ?? [])
    .filter((c) => (c.outcome === 'checked' || c.outcome === 'repaired') && c.sourceIndex === citation)
    .map((c) => c.sentence)
  const spans: Span[] = []
  const digits = new Set(
    sentences.flatMap((s) => [...s.matchAll(NUMBER)].map((m) => m[0].replace(/\D/g, ''))),
  )
  for (const m of passage.matchAll(NUMBER)) {
    if (digits.has(m[0].replace(/\D/g, ''))) spans.push({ start: m.index, end: m.index + m[0].length })
  }
  const lower = passage.toLowerCase()
  for (const sentence of sentences) {
    for (const [, quote] of sentence.matchAll(QUOTED))
      spans.push(...occurrences(lower, (quote ?? '').toLowerCase()))
    for (const [name] of sentence.matchAll(NAME)) spans.push(...occurrences(passage, name, true))
  }
  return spans.sort((a, b) => a.start - b.start)
}

function occurrences(text: string, word: string, whole = false): Span[] {
  const spans: Span[] = []
  if (!word) return spans
  for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + word.length)) {
    const end = at + word.length
    const bounded = !whole || (!/[\p{L}\d]/u.test(text[at - 1] ?? '') && !/[\p{L}\d]/u.test(text[end] ?? ''))
    if (bounded) spans.push({ start: at, end })
  }
  return spans
}

export type Part = { text: string; item: boolean }
/** A stretch of the passage in a sentence the answer leans on (`marked`) or not, its items found inside. */
export type Piece = { marked: boolean; parts: Part[] }

/**
 * The passage cut into stretches, marked or not as `sentences` say, each cut into parts that are
 * found items or not: an item inside a marked sentence stays inside its mark.
 */
export function highlightedPieces(
  passage: string,
  sentences: readonly Span[],
  items: readonly Span[],
): Piece[] {
  const flags = (spans: readonly Span[]) => {
    const on = new Uint8Array(passage.length)
    for (const { start, end } of spans) on.fill(1, start, end)
    return on
  }
  const marked = flags(sentences)
  const item = flags(items)
  const pieces: Piece[] = []
  for (let at = 0; at < passage.length; ) {
    let end = at + 1
    while (end < passage.length && marked[end] === marked[at] && item[end] === item[at]) end += 1
    const part = { text: passage.slice(at, end), item: item[at] === 1 }
    const last = pieces.at(-1)
    if (last && last.marked === (marked[at] === 1)) last.parts.push(part)
    else pieces.push({ marked: marked[at] === 1, parts: [part] })
    at = end
  }
  return pieces
}
