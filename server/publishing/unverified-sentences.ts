/**
 * An owner's choice for a published assistant (issue 39, `hideUnverified`): a visitor's answer
 * without the sentences the citation check could not find in the documents. Applied when the
 * answer is shaped for the visitor, so it also holds for answers stored before the owner chose it;
 * the stored answer stays whole (the owner's inbox shows it with its marks). Each unverified
 * sentence is found in the text with the check's own sentence splitting and cut out with its
 * markers; its check goes, and so does a snippet no sentence left cites; a closing note says how
 * many sentences were left out.
 */
import { FENCE, MARKER, type SentenceSpan, sentenceSpans } from '../answering/citation-checks/sentences.ts'
import type { VisitorSnippet } from '../db/schema.ts'

/**
 * The answer's language is not stored with a visitor's message; the splitting differs by language
 * only in German's ordinals ("am 3. März") and Intl.Segmenter's locale, so a sentence not found
 * with the first is looked for with the next.
 */
const SPLITTINGS = ['english', 'german', 'french', 'simple'] as const
/** Marks where a sentence was cut, to tidy its line afterwards (never in an answer's text). */
const CUT = '\u0000'
/** A line with nothing left but a bullet, number, heading or quote mark, or a table's bars. */
const BARE_LINE = /^\s*(?:#{1,6}|>|[-*+•]|\d{1,3}[.)])?[\s|]*$/

type Answer = { content: string; sources: VisitorSnippet[] }

export function leftOutNote(count: number): string {
  return count === 1
    ? "(One sentence was left out: the assistant's documents do not support it.)"
    : `(${count} sentences were left out: the assistant's documents do not support them.)`
}

export function withoutUnverified({ content, sources }: Answer): Answer {
  const unverified = sources
    .flatMap((s) => s.checks ?? [])
    .filter((c) => c.outcome === 'unverified')
    .sort((a, b) => a.at - b.at)
  if (unverified.length === 0) return { content, sources }
  const cuts: SentenceSpan[] = []
  const hidden = new Set<number>()
  const splits = new Map<string, SentenceSpan[]>()
  for (const check of unverified) {
    const span = findSentence(content, splits, cuts, check)
    if (!span) continue
    cuts.push(span)
    hidden.add(check.at)
  }
  if (cuts.length === 0) return { content, sources }
  const text = tidied(cutOut(content, cuts))
  const before = citedIn(content)
  const after = citedIn(text)
  return {
    content: `${text.trimEnd()}${text.trim() ? '\n\n' : ''}${leftOutNote(cuts.length)}`,
    sources: sources
      .filter((s) => !before.has(s.citation) || after.has(s.citation))
      .map((s) => (s.checks ? { ...s, checks: s.checks.filter((c) => !hidden.has(c.at)) } : s)),
  }
}

/** The first sentence not already cut whose words are the check's and which carries its marker. */
function findSentence(
  content: string,
  splits: Map<string, SentenceSpan[]>,
  cuts: readonly SentenceSpan[],
  check: { sentence: string; marker: number | null },
): SentenceSpan | undefined {
  for (const language of SPLITTINGS) {
    let spans = splits.get(language)
    if (!spans) {
      spans = sentenceSpans(content, language)
      splits.set(language, spans)
    }
    const found = spans.find(
      (s) =>
        s.text === check.sentence &&
        (check.marker === null || s.markers.includes(check.marker)) &&
        !cuts.some((c) => c.start < s.end && s.start < c.end),
    )
    if (found) return found
  }
  return undefined
}

/** The text without the spans, each with the spaces after it (or before it, at a line's end). */
function cutOut(content: string, cuts: readonly SentenceSpan[]): string {
  let text = content
  for (const { start, end } of [...cuts].sort((a, b) => b.start - a.start)) {
    const after = /^[ \t]*/.exec(text.slice(end))?.[0].length ?? 0
    const atLineEnd = end + after === text.length || text[end + after] === '\n'
    const before = atLineEnd ? (/[ \t]*$/.exec(text.slice(0, start))?.[0].length ?? 0) : 0
    text = `${text.slice(0, start - before)}${CUT}${text.slice(end + after)}`
  }
  return text
}

/** A line left with nothing but its bullet, heading or table mark goes, with a blank line beside it. */
function tidied(text: string): string {
  const out: string[] = []
  let dropped = false
  for (const line of text.split('\n')) {
    if (!line.includes(CUT)) {
      if (!(dropped && line.trim() === '' && (out.at(-1) ?? '').trim() === '')) out.push(line)
      dropped = false
      continue
    }
    const rest = line.replaceAll(CUT, '')
    dropped = BARE_LINE.test(rest)
    if (!dropped) out.push(rest)
  }
  while ((out[0] ?? 'x').trim() === '') out.shift()
  return out.join('\n')
}

/** The passages the text's markers cite (outside fenced code, as the check reads them). */
function citedIn(text: string): Set<number> {
  const cited = new Set<number>()
  let fenced = false
  for (const line of text.split('\n')) {
    if (FENCE.test(line)) fenced = !fenced
    if (fenced) continue
    for (const m of line.matchAll(MARKER))
      for (const n of (m[1] as string).split(',')) cited.add(Number(n.trim()))
  }
  return cited
}
