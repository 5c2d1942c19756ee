/**
 * A sentence cited to the wrong passage, told by its words (D141): when the cited passage holds
 * almost none of the sentence's content words and another passage given holds most of them, the
 * sentence comes from that other passage. This catches the wrong citations of sentences that
 * have nothing else to check (a German sentence of nouns alone), in any language. It only ever
 * moves a citation: words a passage shares never make a sentence "checked" (D128's meaning).
 *
 * Words are compared by their first STEM_LETTERS letters, not by the index's Snowball stemmer
 * (D82): that stemmer runs in PostgreSQL, and the check is synchronous, after the last token,
 * without the database (D128, D129). A prefix joins the inflections and compounds that matter
 * here ("Benutzer", "Benutzern", "Benutzerkennung") in English, German and French alike.
 */
import { comparableWords } from './normalise.ts'

/** How many letters of a word are compared (a longer word is cut; a shorter one kept whole). */
export const STEM_LETTERS = 5
/** Shorter words are mostly articles, pronouns and prepositions: left out. */
const MIN_LETTERS = 4
/** Below this many content words a sentence says too little to be placed by its words. */
export const MIN_CONTENT_WORDS = 3
/**
 * The cited passages may hold at most this share of the sentence's content words, another at
 * least OTHER_AT_LEAST, and that one MARGIN more. Chosen on the tuning half of
 * bench/citations.ts (0.3/0.6/0.3: no faithful sentence moved in any language, 93–95 % of the
 * wrong citations caught; 0.2/0.5 caught 80–91 %, 0.34 moved two faithful French sentences).
 */
export const CITED_AT_MOST = 0.3
export const OTHER_AT_LEAST = 0.6
export const MARGIN = 0.3

/** A text's content words, each as its first STEM_LETTERS letters. */
export function contentStems(text: string): Set<string> {
  const stems = new Set<string>()
  for (const word of comparableWords(text))
    if (word.length >= MIN_LETTERS && !/\p{N}/u.test(word)) stems.add(word.slice(0, STEM_LETTERS))
  return stems
}

/**
 * The passage (1-based) the sentence's words say it comes from, when the cited ones hold almost
 * none of them; null when the citation stands (or the sentence has too few words to tell).
 * `allowed`: whether a passage may be moved to (it must hold the sentence's items).
 */
export function passageByWords(
  sentence: ReadonlySet<string>,
  cited: readonly number[],
  passages: readonly ReadonlySet<string>[],
  allowed: (passage: number) => boolean = () => true,
): number | null {
  if (sentence.size < MIN_CONTENT_WORDS) return null
  const share = (p: ReadonlySet<string> | undefined) => {
    if (!p) return 0
    let held = 0
    for (const stem of sentence) if (p.has(stem)) held++
    return held / sentence.size
  }
  const inCited = Math.max(0, ...cited.map((m) => share(passages[m - 1])))
  if (inCited > CITED_AT_MOST) return null
  let best: number | null = null
  let bestShare = 0
  passages.forEach((p, i) => {
    const s = share(p)
    if (!cited.includes(i + 1) && s > bestShare && allowed(i + 1)) {
      best = i + 1
      bestShare = s
    }
  })
  return bestShare >= OTHER_AT_LEAST && bestShare - inCited >= MARGIN ? best : null
}
