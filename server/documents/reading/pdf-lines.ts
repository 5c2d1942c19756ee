/**
 * A PDF page's text as sentences, not as the printed lines (issue 40, item 9): pdf.js ends a
 * line where the page does, so a passage read "is turned\noff" and "docu-\nment", and a heading
 * ran into the paragraph under it. A line that goes on in lower case joins the one above
 * (with a space), a word hyphenated at a line's end is made whole ("docu-" + "ment"), while a
 * hyphen before a capitalised line stays ("Anglo-" + "Saxon"); a short line standing alone after
 * a sentence's end (a heading) becomes a paragraph of its own; blank lines and list items keep
 * their breaks. One pass over the lines, no backtracking: reading stays as fast as before.
 */

/** A line that ends a sentence (or a clause a new line may follow: "Note:", a closing quote). */
const ENDS_SENTENCE = /[.!?:;…)\]"'”’»]$/u
/** A word broken by a hyphen at the line's end. */
const HYPHENATED = /\p{L}[-\u00AD\u2010]$/u
const STARTS_LOWER = /^\p{Ll}/u
const STARTS_UPPER_OR_DIGIT = /^[\p{Lu}\p{N}]/u
/** A list item: a bullet, or "1." "a)" and a space. */
const LIST_ITEM = /^(?:[•◦▪‣∙·*–-]|\d{1,3}[.)]|\p{L}[.)])\s/u
/** Headings are short: a few words on a line of their own. */
const HEADING_MAX_CHARS = 60
const HEADING_MAX_WORDS = 8

function isHeading(line: string, next: string): boolean {
  return (
    line.length <= HEADING_MAX_CHARS &&
    STARTS_UPPER_OR_DIGIT.test(line) &&
    STARTS_UPPER_OR_DIGIT.test(next) &&
    !ENDS_SENTENCE.test(line) &&
    !/[,-]$/.test(line) &&
    // "Call the office at" ends in a short word that leads on: the sentence goes on below.
    !/\s\p{Ll}{1,3}$/u.test(line) &&
    line.split(/\s+/).length <= HEADING_MAX_WORDS
  )
}

/**
 * The page's text with its lines joined into sentences and, unless its outline says where its
 * headings are (`headings` false), its headings set apart.
 */
export function joinPdfLines(text: string, headings = true): string {
  if (!text.includes('\n')) return text
  let out = ''
  let previous: string | null = null
  // Whether `previous` began afresh (the page's first line, or after a blank line, a heading or
  // a sentence's end): only such a line can be a heading.
  let previousStartsLine = true
  for (const raw of text.split('\n')) {
    const line = raw.trim()
    const separator: string = previous === null ? '' : between(previous, line, headings && previousStartsLine)
    out = separator === 'unhyphenate' ? `${out.slice(0, -1)}${line}` : `${out}${separator}${line}`
    previousStartsLine =
      previous === null ||
      previous === '' ||
      separator === '\n\n' ||
      (separator === '\n' && ENDS_SENTENCE.test(previous))
    previous = line
  }
  return out
}

/**
 * What goes between two lines of a page: a space inside a sentence (the next line goes on in
 * lower case), nothing or the hyphen taken away in a hyphenated word, a blank line after a
 * heading; else the line break stays, as a line that may end a sentence before a capitalised one
 * ("…at" + "Mill Lane.") says too little to join them.
 */
function between(previous: string, line: string, previousStartsLine: boolean): string {
  if (previous === '' || line === '') return '\n'
  if (HYPHENATED.test(previous)) return STARTS_LOWER.test(line) ? 'unhyphenate' : ''
  if (LIST_ITEM.test(line)) return '\n'
  if (STARTS_LOWER.test(line)) return ' '
  if (previousStartsLine && isHeading(previous, line)) return '\n\n'
  return '\n'
}
