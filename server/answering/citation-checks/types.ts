/**
 * What the citation check (issue 39, D128) reads and writes. An item is one checkable thing a
 * cited sentence says: a figure, a date, a code, a quotation or a name, with the keys it is
 * looked up by in a passage (every reading of an ambiguous form, so "1,200" may be 1200 or 1.2).
 */
export type ItemKind = 'number' | 'date' | 'code' | 'quote' | 'name'

export type Item = {
  kind: ItemKind
  /** As written in the answer: what `missing` names. */
  text: string
  /** Lookup keys (numbers, dates, codes); a passage holds the item when it holds any of them. */
  keys: string[]
}

export type CheckOutcome = 'checked' | 'repaired' | 'unverified' | 'nothing-to-check' | 'not-cited'

/** What the optional model judge (CITATION_JUDGE=model, D140) said of a sentence: the model's word, not a check. */
export type JudgeVerdict = 'supported' | 'not-supported'

/** One sentence's check; `marker`, `sourceIndex` and `movedFrom` are 1-based like the [n] markers. */
export type CitationCheck = {
  /** The [n] the sentence carries (its first when it carries several); null when it has none. */
  marker: number | null
  sentence: string
  outcome: CheckOutcome
  /** The passage the sentence is now cited to (moved there when repaired); null when not cited. */
  sourceIndex: number | null
  movedFrom?: number
  /** The items found in no passage given (unverified) or not in the cited one. */
  missing: string[]
  /** The model judge's verdict (D140), on nothing-to-check and unverified sentences it was asked about. */
  judge?: JudgeVerdict
}

/** A passage as the check needs it: its text and the configuration it is indexed in (D82). */
export type CheckedPassage = { text: string; language: string }
