/**
 * Text as the check compares it: PDF line-break hyphenation joined ("exam-\nple"), soft hyphens
 * and zero-width characters dropped, typographic apostrophes made plain, compatibility forms
 * folded (NFKC: ligatures, full-width digits), spaces of every kind made one.
 */
const LINE_BREAK_HYPHEN = /(\p{Ll})-\s*\n\s*(\p{Ll})/gu
const INVISIBLE = /[\u00ad\u200b-\u200d\u2060\ufeff]/g
const APOSTROPHES = /[’‘ʼ`´]/g

export function normaliseText(text: string): string {
  return text
    .normalize('NFKC')
    .replace(INVISIBLE, '')
    .replace(LINE_BREAK_HYPHEN, '$1$2')
    .replace(APOSTROPHES, "'")
}

/**
 * The words of a text for comparing quotations and names: lower case, hyphens inside a word
 * dropped ("e-mail" and "email" alike), every other punctuation a word break.
 */
export function comparableWords(text: string): string[] {
  return (
    normaliseText(text)
      .toLowerCase()
      .replace(/(\p{L})-(?=\p{L})/gu, '$1')
      .match(/[\p{L}\p{N}]+/gu) ?? []
  )
}

/** Alphanumeric runs, upper case: how codes are compared ("ISO 27001" = "ISO-27001" = "iso27001"). */
export function alnumRuns(text: string): string[] {
  return (
    normaliseText(text)
      .toUpperCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  )
}
