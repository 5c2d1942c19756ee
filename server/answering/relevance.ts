/**
 * Whether a keyword search found something relevant, for an assistant that answers only from its
 * documents (D114, measured in bench/quality's assistant run). Any one shared word is not enough:
 * a folder of unrelated pages nearly always holds one of a question's words ("request", "choose").
 * A search is relevant when one of its best passages holds at least a quarter of the distinct words it
 * searched for (stemmed in the passage's language, as the search itself stems them).
 */

import type { Passage } from '../documents/index/passages.ts'
import type { SearchedTerm } from '../documents/index/search-terms.ts'

/** The share of the searched words one passage must hold. */
export const RELEVANT_COVERAGE = 0.25
/** How many of the best passages are looked at. */
const JUDGED_PASSAGES = 5

export type AnalyseTexts = (items: readonly { text: string; language: string }[]) => Promise<string[][]>

/** The largest share of `terms` that one of the best `passages` holds (0 when either is empty). */
export async function bestCoverage(
  analyse: AnalyseTexts,
  passages: readonly Passage[],
  terms: readonly SearchedTerm[],
): Promise<number> {
  const wanted = new Set(terms.map((t) => `${t.language}\u0000${t.lexeme}`))
  const judged = passages.slice(0, JUDGED_PASSAGES)
  if (wanted.size === 0 || judged.length === 0) return 0
  const lexemes = await analyse(judged.map((p) => ({ text: p.text, language: p.language })))
  let best = 0
  judged.forEach((passage, i) => {
    const held = new Set((lexemes[i] ?? []).map((l) => `${passage.language}\u0000${l}`))
    let count = 0
    for (const word of wanted) if (held.has(word)) count += 1
    best = Math.max(best, count / wanted.size)
  })
  return best
}

// Why a quarter (bench/quality, the judged questions and both holdouts, 126 questions, 2026-11-28):
// over folders of one technical corpus, a quarter keeps every answer page (126/126) and makes 29 %
// of the questions asked of a folder without their answer fall back; a third loses 5 answerable
// questions, a half 39. Idf weighting and "holds the rarest word" separated worse. Keyword
// overlap cannot tell same-domain folders apart; the model, told to say so (DOCUMENTS_ONLY_PROMPT),
// is the second line for what passes.
