/**
 * The text of an HTML file, read with htmlparser2 (a kept, forgiving, streaming parser): block
 * elements (paragraphs, list items, table rows, divisions…) end a paragraph, `<h1>`–`<h6>` are
 * headings (D16: real structure), and what a browser would not show as text (scripts, styles,
 * templates, the head but its title) is left out. No DOM is built: a 10 MB page is one pass.
 */
import { Parser } from 'htmlparser2'
import type { Paragraph, Section } from './chunker.ts'
import { joinParagraphs, type TextBudget, textBudget } from './document-bounds.ts'
import { FileReadError } from './read-error.ts'
import { removeControlCharacters } from './text-decoding.ts'

const HIDDEN = new Set(['script', 'style', 'noscript', 'template', 'head', 'svg', 'math', 'iframe', 'object'])
const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6'])
const BLOCKS = new Set([
  'p',
  'div',
  'section',
  'article',
  'main',
  'header',
  'footer',
  'aside',
  'nav',
  'li',
  'ul',
  'ol',
  'dl',
  'dt',
  'dd',
  'tr',
  'table',
  'thead',
  'tbody',
  'blockquote',
  'pre',
  'figure',
  'figcaption',
  'form',
  'fieldset',
  'address',
  'details',
  'summary',
  'br',
  'hr',
  'title',
  'caption',
  'body',
])

/** The page is parsed this much at a time, and not past the piece where its text bound is reached. */
const HTML_PIECE = 64 * 1024

/** The page's paragraphs, within `budget` (D102): the page past it is not parsed. */
export function htmlSection(html: string, budget: TextBudget = textBudget()): Section {
  const paragraphs: Paragraph[] = []
  let buffer = ''
  let hidden = 0
  let heading = false
  let title = false
  const flush = () => {
    const text = budget.take(removeControlCharacters(buffer).replace(/\s+/g, ' ').trim())
    buffer = ''
    if (text) paragraphs.push({ text, heading: heading ? text : null })
  }
  const parser = new Parser(
    {
      onopentag(name) {
        if (name === 'title') title = true
        if (HIDDEN.has(name) && !title) hidden += 1
        else if (HEADINGS.has(name)) {
          flush()
          heading = true
        } else if (BLOCKS.has(name)) flush()
        // Cells of one row stay in one paragraph, apart.
        if (name === 'td' || name === 'th') buffer += ' '
      },
      ontext(text) {
        if (hidden === 0 || title) buffer += text
      },
      onclosetag(name) {
        if (name === 'title') {
          flush()
          title = false
        }
        if (HIDDEN.has(name)) hidden = Math.max(0, hidden - 1)
        else if (HEADINGS.has(name)) {
          flush()
          heading = false
        } else if (BLOCKS.has(name)) flush()
      },
    },
    { decodeEntities: true },
  )
  // In pieces, so that parsing stops soon after the text bound is reached.
  for (let at = 0; at < html.length && !budget.cut; at += HTML_PIECE)
    parser.write(html.slice(at, at + HTML_PIECE))
  parser.end()
  flush()
  if (paragraphs.length === 0) throw new FileReadError('the web page has no text to read')
  return { text: joinParagraphs(paragraphs), page: null, paragraphs }
}
