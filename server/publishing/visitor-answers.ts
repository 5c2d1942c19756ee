/**
 * What a visitor is shown of an answer's sources (issue 37, D117): the passages the answer cited,
 * each as a snippet of at most VISITOR_SNIPPET_MAX_LENGTH characters around the sentence the answer
 * cites (cited-snippet.ts) with its document's name and page — never a passage it did not cite, a
 * document id, a link, a score or the viewer. An answer that cited nothing shows nothing (the app
 * would show every passage it was given; a visitor does not). Without a model, the extractive
 * answer's quoted passages are what it cites.
 */
import type { PublicMessage } from '#contracts/publishing.ts'
import type { AnswerDraft, UsedPassage } from '../answering/answerer.ts'
import type { VisitorSnippet } from '../db/schema.ts'
import { citingSentences, snippetAround } from './cited-snippet.ts'
import type { VisitorMessageRecord } from './visitor-repository.ts'

export function citedSnippets(draft: AnswerDraft, text: string): VisitorSnippet[] {
  const used = draft.sourcesFor(text)
  const cited = new Set([...text.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1])))
  const extractive = used.some((p) => p.citation === null)
  const picked: UsedPassage[] = extractive
    ? used.map((p, i) => ({ ...p, citation: i + 1 }))
    : used.filter((p) => p.citation !== null && cited.has(p.citation))
  const seen = new Set<number>()
  return picked.flatMap((p) => {
    const citation = p.citation ?? 0
    if (seen.has(citation)) return []
    seen.add(citation)
    // The extractive answer (no markers) quotes its passages: all of it is the claim.
    const claim = extractive ? text : citingSentences(text, citation)
    return [{ citation, documentName: p.documentName, page: p.page, snippet: snippetAround(p.text, claim) }]
  })
}

export function toPublicMessage(m: VisitorMessageRecord, showSourceNames: boolean): PublicMessage {
  return {
    _id: m.id,
    isUser: m.isUser,
    content: m.content,
    createdAt: m.createdAt.toISOString(),
    feedback: m.feedback,
    sources: m.sources.map((s) => ({
      citation: s.citation,
      documentName: showSourceNames ? s.documentName : null,
      page: s.page,
      snippet: s.snippet,
    })),
  }
}
