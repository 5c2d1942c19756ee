/**
 * What a visitor is shown of an answer's sources (issue 37, D117): the passages the answer cited,
 * each as a snippet of at most VISITOR_SNIPPET_MAX_LENGTH characters around the sentence the answer
 * cites (cited-snippet.ts) with its document's name and page — never a passage it did not cite, a
 * document id, a link, a score or the viewer. An answer that cited nothing shows nothing (the app
 * would show every passage it was given; a visitor does not). Without a model, the extractive
 * answer's quoted passages are what it cites. Each snippet keeps the citation checks of the
 * sentences citing it (D129, D135), read back as the answer's `checks` in their sentences' order.
 */
import type { CitationCheck } from '#contracts/citation-checks.ts'
import type { PublicMessage } from '#contracts/publishing.ts'
import type { CheckedAnswer } from '../answering/answer-checks.ts'
import type { UsedPassage } from '../answering/answer-shapes.ts'
import type { VisitorSnippet } from '../db/schema.ts'
import { citingSentences, snippetAround } from './cited-snippet.ts'
import { withoutUnverified } from './unverified-sentences.ts'
import type { VisitorMessageRecord } from './visitor-repository.ts'

/** The finished answer's cited snippets (its text as stored: a repaired marker moved, D129). */
export function citedSnippets({ content, sources, checks }: CheckedAnswer<UsedPassage>): VisitorSnippet[] {
  const cited = new Set([...content.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1])))
  const extractive = sources.some((p) => p.citation === null)
  const picked: UsedPassage[] = extractive
    ? sources.map((p, i) => ({ ...p, citation: i + 1 }))
    : sources.filter((p) => p.citation !== null && cited.has(p.citation))
  const seen = new Set<number>()
  return picked.flatMap((p) => {
    const citation = p.citation ?? 0
    if (seen.has(citation)) return []
    seen.add(citation)
    // The extractive answer (no markers) quotes its passages: all of it is the claim.
    const claim = extractive ? content : citingSentences(content, citation)
    const snippet = {
      citation,
      documentName: p.documentName,
      page: p.page,
      snippet: snippetAround(p.text, claim),
    }
    if (checks === null) return [snippet]
    // A check's sourceIndex is the passage its sentence cites now (moved there when repaired).
    const own = checks.flatMap((check, at) => (check.sourceIndex === citation ? [{ ...check, at }] : []))
    return [{ ...snippet, checks: own }]
  })
}

/**
 * An answer's checks from its snippets, in the order of its sentences; null: not checked (the
 * check failed, or the answer was stored before visitors' answers were checked). A sentence that
 * cites no passage ("not cited") has no snippet to be kept with, so a visitor's answer has none.
 */
export function checksOf(sources: readonly VisitorSnippet[]): CitationCheck[] | null {
  if (sources.length > 0 && sources.every((s) => s.checks === undefined)) return null
  return sources
    .flatMap((s) => s.checks ?? [])
    .sort((a, b) => a.at - b.at)
    .map(({ at: _at, ...check }) => check)
}

/**
 * A stored message as its visitor gets it, under the owner's settings as they are now (so they
 * hold for answers stored before): source names shown or not, unverified sentences left out or not.
 */
export function toPublicMessage(
  m: VisitorMessageRecord,
  settings: { showSourceNames: boolean; hideUnverified: boolean },
): PublicMessage {
  const { content, sources } = !m.isUser && settings.hideUnverified ? withoutUnverified(m) : m
  return {
    _id: m.id,
    isUser: m.isUser,
    content,
    createdAt: m.createdAt.toISOString(),
    feedback: m.feedback,
    sources: sources.map((s) => ({
      citation: s.citation,
      documentName: settings.showSourceNames ? s.documentName : null,
      page: s.page,
      snippet: s.snippet,
    })),
    ...(m.isUser ? {} : { checks: checksOf(sources) }),
  }
}
