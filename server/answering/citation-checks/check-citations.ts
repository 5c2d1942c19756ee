/**
 * The citation check (issue 39, D128): every sentence of an answer that carries a marker [n] has
 * its figures, dates, codes, quotations and names looked up in the passage it cites, without a
 * second model. Outcomes: checked (every item in a cited passage); repaired (not there, but every
 * item in one other passage given: the marker moves there); unverified (the items no passage
 * given holds, or, when each is somewhere but no one passage holds them all, the ones the cited
 * passage lacks); nothing-to-check; not-cited (a sentence with a figure and no marker). A
 * sentence whose words are another passage's and hardly the cited one's is repaired too, items or
 * not (content-words.ts, D141). Pure and synchronous; it never throws (a failure is returned, for
 * the caller to log).
 */

import { contentStems, passageByWords } from './content-words.ts'
import {
  holds,
  indexPassage,
  isFigure,
  type PassageIndex,
  type SentenceItem,
  sentenceItems,
} from './items.ts'
import { type MarkerMove, moveMarkers } from './move-markers.ts'
import type { Known } from './names.ts'
import { comparableWords } from './normalise.ts'
import { answerSentences } from './sentences.ts'
import type { CheckedPassage, CitationCheck } from './types.ts'

export type CheckInput = {
  answer: string
  /** The passages the model was given, in the order of their markers ([1] first). */
  passages: readonly CheckedPassage[]
  question?: string
  /** The answer's language (a text search configuration, D82); else the passages' most common. */
  language?: string
}

/**
 * `answer`: the answer with each repaired sentence's marker moved to the passage now cited
 * (move-markers.ts); its check's `marker` is then the moved one, `movedFrom` the model's.
 */
export type CheckResult =
  | { ok: true; checks: CitationCheck[]; answer: string }
  | { ok: false; error: unknown }

export function checkCitations(input: CheckInput): CheckResult {
  try {
    const { checks, moves } = check(input)
    const { text, moved } = moveMarkers(input.answer, moves)
    for (const move of moved) move.check.marker = move.to
    return { ok: true, checks, answer: text }
  } catch (error) {
    return { ok: false, error }
  }
}

/** A repaired sentence's marker to move, with its check (whose `marker` follows the move). */
type Move = MarkerMove & { check: CitationCheck }

function check({ answer, passages, question = '', language }: CheckInput): {
  checks: CitationCheck[]
  moves: Move[]
} {
  if (passages.length === 0) return { checks: [], moves: [] }
  const lang = language ?? mostCommon(passages.map((p) => p.language))
  const indexes = passages.map(indexPassage)
  const questionWords = comparableWords(question)
  const known: Known = {
    words: new Set([...indexes.flatMap((p) => p.words), ...questionWords]),
    joined: ` ${[...indexes.map((p) => p.joined), ...questionWords].join(' ')}`,
  }
  const out: CitationCheck[] = []
  const moves: Move[] = []
  for (const { text, markers, ordinals } of answerSentences(answer, lang)) {
    const items = sentenceItems(text, lang, known)
    if (markers.length === 0) {
      if (items.some(isFigure))
        out.push({ marker: null, sentence: text, outcome: 'not-cited', sourceIndex: null, missing: [] })
      continue
    }
    const judged = judge(text, markers, items, indexes, new Set(questionWords))
    out.push(judged)
    const ordinal = ordinals[0]
    if (judged.movedFrom !== undefined && judged.sourceIndex !== null && ordinal !== undefined)
      moves.push({ ordinal, from: judged.movedFrom, to: judged.sourceIndex, check: judged })
  }
  return { checks: out, moves }
}

function judge(
  sentence: string,
  markers: number[],
  items: SentenceItem[],
  indexes: PassageIndex[],
  question: ReadonlySet<string>,
): CitationCheck {
  const marker = markers[0] as number
  const base = { marker, sentence, sourceIndex: marker, missing: [] as string[] }
  // A name the question gave is the person's own word, whatever the passages say.
  const inQuestion = (item: SentenceItem) => item.kind === 'name' && question.has(item.nameKey ?? '')
  const found = indexes.map((p) => items.map((item) => inQuestion(item) || holds(p, item)))
  const cited = markers.filter((m) => m >= 1 && m <= indexes.length)
  const inCited = (i: number) => cited.some((m) => found[m - 1]?.[i])
  if (items.every((_, i) => inCited(i))) {
    // The items may be in the cited passage by chance (a common word, a small figure) while its
    // words are another passage's: moved there, when that one holds the items too (D141).
    const byWords = passageByWords(
      contentStems(sentence),
      cited,
      indexes.map((p) => p.stems),
      (p) => found[p - 1]?.every(Boolean) ?? false,
    )
    if (byWords !== null) return { ...base, outcome: 'repaired', sourceIndex: byWords, movedFrom: marker }
    if (items.length === 0) return { ...base, outcome: 'nothing-to-check' }
    const best = [...cited].sort((a, b) => count(found[b - 1]) - count(found[a - 1]))[0] ?? marker
    return { ...base, outcome: 'checked', sourceIndex: best }
  }
  const whole = found.flatMap((f, p) => (f.every(Boolean) ? [p + 1] : []))
  if (whole.length > 0) {
    const to = closest(sentence, whole, indexes)
    return { ...base, outcome: 'repaired', sourceIndex: to, movedFrom: marker }
  }
  const nowhere = items.filter((_, i) => !found.some((f) => f[i]))
  const missing = nowhere.length > 0 ? nowhere : items.filter((_, i) => !inCited(i))
  return { ...base, outcome: 'unverified', missing: [...new Set(missing.map((i) => i.text))] }
}

const count = (found: boolean[] | undefined) => found?.filter(Boolean).length ?? 0

/** Of the passages holding every item, the one sharing the most words with the sentence. */
function closest(sentence: string, candidates: number[], indexes: PassageIndex[]): number {
  if (candidates.length === 1) return candidates[0] as number
  const words = comparableWords(sentence).filter((w) => w.length > 3)
  let best = candidates[0] as number
  let bestShared = -1
  for (const c of candidates) {
    const set = indexes[c - 1]?.wordSet
    const shared = set ? words.filter((w) => set.has(w)).length : 0
    if (shared > bestShared) {
      best = c
      bestShared = shared
    }
  }
  return best
}

function mostCommon(values: string[]): string {
  const counts = new Map<string, number>()
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1)
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 'english'
}
