/**
 * Which passages an answer used, by its [n] markers (the prompt numbers its passages from [1]).
 */
import type { Passage } from '../documents/index/passages.ts'

/** A passage an answer drew on; `citation` is its [n] in the answer, null when it has none. */
export type UsedPassage = Passage & { citation: number | null }

export function uncited(p: Passage): UsedPassage {
  return { ...p, citation: null }
}

/**
 * The passages the model cited as [n], each keeping its n; when it cited none, all it was given,
 * or for documents given whole (D71) the first passage of each (not every passage of them). A
 * marker that points at no passage names nothing and is left out.
 */
export function citedOrAll(content: string, passages: Passage[]): UsedPassage[] {
  const all = numbered(passages)
  const picked = citedOnly(content, passages)
  if (picked.length > 0) return picked
  if (!passages.some((p) => p.whole)) return all
  const seen = new Set<string>()
  return all.filter((p) => !seen.has(p.documentId) && seen.add(p.documentId))
}

/**
 * The passages the text cites as [n], and no others: what a stopped answer keeps (issue 40,
 * item 4), for the passages it had not cited yet are no sources of what it says.
 */
export function citedOnly(content: string, passages: Passage[]): UsedPassage[] {
  const cited = new Set([...content.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1])))
  return numbered(passages).filter((p) => cited.has(p.citation))
}

/** The passages as the prompt numbers them: [1] is the first. */
export function numbered(passages: Passage[]): (Passage & { citation: number })[] {
  return passages.map((p, i) => ({ ...p, citation: i + 1 }))
}
