/**
 * Which sources an answer lists under it, and how (issue 40, item 4): only the passages it cites,
 * each once its [n] has arrived in the text, grouped by document. The order is the order in
 * which the text first cites them, so while an answer streams its list only grows (nothing
 * moves or goes away), and the stored answer lists them in the same order: nothing jumps at the
 * end. Pure; the server decides which passages an answer may cite and which it kept.
 */
import type { Source } from '#contracts/chat.ts'
import { MARKER } from './citation-outcomes.ts'

/** One document's passages under an answer, in the order the answer first cites them. */
export type SourceGroup = { documentId: string; documentName: string; sources: Source[] }

/** The [n] of `text`'s markers, each once, in the order they first appear. */
function citedOrder(text: string): number[] {
  return [...new Set([...text.matchAll(MARKER)].map((m) => Number(m[1])))]
}

/**
 * The sources `text` has cited so far, in the order it first cites them; a source without a
 * number (a quotation of an answer written without a model, an older answer) stays, after them.
 */
export function citedSoFar(sources: readonly Source[], text: string): Source[] {
  const byNumber = new Map(sources.flatMap((s) => (s.citation ? [[s.citation, s] as const] : [])))
  const cited = citedOrder(text).flatMap((n) => byNumber.get(n) ?? [])
  return [...cited, ...sources.filter((s) => !s.citation)]
}

/**
 * The list under an answer. While it streams, its sources are the passages it may cite (so each
 * marker works the moment it is written): only those cited so far are listed. Once stored,
 * the server kept the ones it cited (all given, for an answer that cites none): all are listed,
 * the cited first, in the order the text cites them.
 */
export function listedSources(message: {
  content: string
  sources: Source[]
  streaming: boolean
}): SourceGroup[] {
  const cited = citedSoFar(message.sources, message.content)
  const listed = message.streaming
    ? cited
    : [...cited, ...message.sources.filter((s) => s.citation && !cited.includes(s))]
  const groups = new Map<string, SourceGroup>()
  for (const source of listed) {
    const group = groups.get(source.documentId)
    if (group) group.sources.push(source)
    else
      groups.set(source.documentId, {
        documentId: source.documentId,
        documentName: source.documentName,
        sources: [source],
      })
  }
  return [...groups.values()]
}
