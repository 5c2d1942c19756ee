/**
 * The checkable items of a sentence, and what a passage holds of them. Extractors run in turn on
 * what the previous ones left (quotations, dates, codes, figures, names), so "ISO 27001" is one
 * code and not also the figure 27001, and a quotation is checked whole, not word by word.
 */

import { codes, holdsCode } from './codes.ts'
import { contentStems } from './content-words.ts'
import { dates, passageDateKeys } from './dates.ts'
import { holdsName, type Known, names } from './names.ts'
import { alnumRuns, comparableWords, normaliseText } from './normalise.ts'
import { addNumberWordKeys, answerFigureKeys, figures, passageFigureKeys } from './numbers.ts'
import { holdsQuote, type Quote, quotations } from './quotes.ts'
import { blank } from './spans.ts'
import type { CheckedPassage, Item } from './types.ts'

/** An item with what it is compared by. */
export type SentenceItem = Item & { runs?: string[]; quote?: Quote; nameKey?: string }

/** A passage read once for every sentence of the answer. */
export type PassageIndex = {
  keys: Set<string>
  words: string[]
  wordSet: Set<string>
  /** Its words, each after a space: for names at the start of a compound. */
  joined: string
  runs: string[]
  /**
   * Its words as a reader sees them in markdown, link targets left out ("[Vercel](https://…)
   * supports" reads "Vercel supports"): a quotation may follow either (D141).
   */
  prose: string[] | null
  /** Its content words, as content-words.ts compares them. */
  stems: Set<string>
}

/** A markdown link's or image's target: `](url)`, `](url "title")`, one level of parentheses inside. */
const LINK_TARGET = /\]\((?:[^()\s]|\([^()\s]*\))*(?:\s+"[^"]*")?\)/g

export function indexPassage(passage: CheckedPassage): PassageIndex {
  const text = normaliseText(passage.text)
  const words = comparableWords(text)
  const keys = new Set<string>()
  addNumberWordKeys(words, keys)
  for (const d of dates(text)) for (const k of passageDateKeys(d.value.keys)) keys.add(k)
  for (const f of figures(text, passage.language === 'french'))
    for (const k of passageFigureKeys(f.value)) keys.add(k)
  return {
    keys,
    words,
    wordSet: new Set(words),
    joined: ` ${words.join(' ')}`,
    runs: alnumRuns(text),
    prose: LINK_TARGET.test(text) ? comparableWords(text.replace(LINK_TARGET, ']')) : null,
    stems: contentStems(text),
  }
}

export function sentenceItems(sentence: string, language: string, known: Known): SentenceItem[] {
  let text = normaliseText(sentence)
  const items: SentenceItem[] = []
  const quoted = quotations(text)
  for (const q of quoted) items.push({ kind: 'quote', text: q.value.text, keys: [], quote: q.value })
  text = blank(text, quoted)
  const dated = dates(text)
  for (const d of dated) items.push({ kind: 'date', text: d.value.text, keys: d.value.keys })
  text = blank(text, dated)
  const coded = codes(text)
  for (const c of coded) items.push({ kind: 'code', text: c.value.text, keys: [], runs: c.value.runs })
  text = blank(text, coded)
  const figured = figures(text, language === 'french')
  for (const f of figured) items.push({ kind: 'number', text: f.value.text, keys: answerFigureKeys(f.value) })
  text = blank(text, figured)
  for (const n of names(text, language, known))
    items.push({ kind: 'name', text: n.value.text, keys: [], nameKey: n.value.key })
  return items
}

export function holds(passage: PassageIndex, item: SentenceItem): boolean {
  switch (item.kind) {
    case 'quote':
      if (!item.quote) return false
      return (
        holdsQuote(passage.words, item.quote) ||
        (passage.prose !== null && holdsQuote(passage.prose, item.quote))
      )
    case 'code':
      return item.runs ? holdsCode(passage.runs, item.runs) : false
    case 'name':
      return item.nameKey
        ? holdsName(passage.wordSet, passage.joined, { text: item.text, key: item.nameKey })
        : false
    default:
      return item.keys.some((k) => passage.keys.has(k))
  }
}

/** A figure, a date or an amount: what makes an uncited sentence "not cited". */
export const isFigure = (item: Item) => item.kind === 'number' || item.kind === 'date'
