/**
 * An answer's citations checked once it is complete (issue 39, D129): after the model's last
 * token and before the answer is stored, so the first token never waits for it. The check reads
 * the passages the model was given (all of them, for a repair may move a marker to any), moves
 * a repaired marker in the text, and never fails the answer: when it fails, the answer is stored
 * "not checked" (checks null) and the caller logs `checkError`.
 */
import type { Passage } from '../documents/index/passages.ts'
import { checkCitations } from './citation-checks/check-citations.ts'
import type { CitationCheck } from './citation-checks/types.ts'

/** The answer as stored: its text (markers moved by repairs), its sources and its checks. */
export type CheckedAnswer<S> = {
  content: string
  sources: S[]
  /** null: not checked (the check failed; `checkError` says why). */
  checks: CitationCheck[] | null
  checkError?: unknown
  /** How long the check took, for the answer's log line. */
  checkMs: number
}

/** What the model was asked about and given, in the order of its markers ([1] first). */
export type CheckContext = { question: string; language: string | null; passages: readonly Passage[] }

export function checkedAnswer<S>(
  content: string,
  { question, language, passages }: CheckContext,
  sourcesFor: (content: string) => S[],
): CheckedAnswer<S> {
  const started = performance.now()
  const result = checkCitations({
    answer: content,
    passages: passages.map((p) => ({ text: p.text, language: p.language })),
    question,
    ...(language ? { language } : {}),
  })
  const checkMs = performance.now() - started
  if (!result.ok)
    return { content, sources: sourcesFor(content), checks: null, checkError: result.error, checkMs }
  return { content: result.answer, sources: sourcesFor(result.answer), checks: result.checks, checkMs }
}

/**
 * An answer written without a model quotes its passages word for word: each quoted sentence is
 * checked, cited by its place among the answer's sources (it carries no marker).
 */
export function quotedChecks(
  quoted: readonly { sentence: string; passage: Passage }[],
  used: readonly Passage[],
): CitationCheck[] {
  return quoted.map(({ sentence, passage }) => ({
    marker: null,
    sentence,
    outcome: 'checked',
    sourceIndex: used.indexOf(passage) + 1,
    missing: [],
  }))
}

/**
 * Of an answer written without a model, the quotations `text` holds (all of them, unless it was
 * stopped) and the passages they quote, each check's sourceIndex counted among those.
 */
export function quotedIn<S>(text: string, sources: S[], checks: CitationCheck[] | null) {
  if (checks === null) return { sources, checks }
  const arrived = checks.filter((c) => text.includes(c.sentence))
  const kept = sources.filter((_, i) => arrived.some((c) => c.sourceIndex === i + 1))
  const renumbered = arrived.map((c) => {
    const source = c.sourceIndex === null ? undefined : sources[c.sourceIndex - 1]
    return { ...c, sourceIndex: source ? kept.indexOf(source) + 1 : c.sourceIndex }
  })
  return { sources: kept, checks: renumbered }
}
