/**
 * The text of a Word (.docx) file, through mammoth (a kept, pure-JavaScript converter), loaded on
 * the first Word file so a server that never meets one never pays for it. Each Word paragraph is
 * a paragraph (table cells included, in reading order), and a paragraph in a heading style
 * ("Heading 1" to "Heading 6", or "Title") is a heading, so passages cite the section they come
 * from as they do for markdown and Google Docs. A file that is not a readable .docx fails alone
 * with a reason a person can read.
 */
import type { Paragraph, Section } from './chunker.ts'
import { joinParagraphs, type TextBudget, textBudget } from './document-bounds.ts'
import { FileReadError } from './read-error.ts'
import { removeControlCharacters } from './text-decoding.ts'

export class DocxTextError extends FileReadError {
  constructor(message: string) {
    super(message)
    this.name = 'DocxTextError'
  }
}

/** The part of mammoth's document model read here (its `transformDocument` hands over the tree). */
type DocxElement = {
  type: string
  value?: string
  styleId?: string | null
  styleName?: string | null
  children?: DocxElement[]
}

/**
 * Word's built-in heading styles are named "heading 1"… and "Title" in the file whatever the
 * language of the person's Word; their ids are localised ("berschrift1"), so the name decides
 * and the id ("Heading1") is only the fallback when a file carries no style definitions.
 */
const HEADING_NAME = /^(heading [1-6]|title)$/i
const HEADING_ID = /^(heading[1-6]|title)$/i

function isHeading(paragraph: DocxElement): boolean {
  if (paragraph.styleName) return HEADING_NAME.test(paragraph.styleName.trim())
  return HEADING_ID.test(paragraph.styleId ?? '')
}

/** A paragraph's text as mammoth's own raw-text reading gives it (tabs kept, breaks as spaces). */
function textOf(element: DocxElement): string {
  if (element.type === 'text') return element.value ?? ''
  if (element.type === 'tab') return '\t'
  if (element.type === 'break') return ' '
  return (element.children ?? []).map(textOf).join('')
}

function collect(element: DocxElement, out: Paragraph[], budget: TextBudget): void {
  if (budget.cut) return
  if (element.type === 'paragraph') {
    const text = budget.take(removeControlCharacters(textOf(element)).replace(/\s+/g, ' ').trim())
    if (text) out.push({ text, heading: isHeading(element) ? text : null })
    return
  }
  for (const child of element.children ?? []) collect(child, out, budget)
}

/**
 * Whether a parser gave up for want of memory: the reader process's ceilings (D66) make an
 * allocation fail, or a string or array would pass V8's own size limit.
 */
export function isOutOfMemory(error: unknown): boolean {
  return (
    error instanceof RangeError &&
    /allocation failed|failed to allocate|invalid (string|array|typed array) length|out of memory/i.test(
      error.message,
    )
  )
}

/**
 * The Word file's paragraphs as one section, within `budget` (D102: mammoth reads the whole file,
 * but the paragraphs past the bound are never made; `budget.cut` tells that some were left out).
 */
export async function docxSection(bytes: Uint8Array, budget: TextBudget = textBudget()): Promise<Section> {
  const { default: mammoth } = await import('mammoth')
  const paragraphs: Paragraph[] = []
  try {
    await mammoth.convertToHtml(
      { buffer: Buffer.from(bytes) },
      {
        // Read the paragraphs from the document tree, then hand mammoth an empty body: the HTML
        // (and every embedded image as a data URL) is never built.
        transformDocument: (document: DocxElement) => {
          collect(document, paragraphs, budget)
          return { ...document, children: [] }
        },
      },
    )
  } catch (error) {
    throw new DocxTextError(
      isOutOfMemory(error)
        ? 'the Word document is too large to read'
        : 'the file is not a readable Word document',
    )
  }
  if (paragraphs.length === 0) throw new DocxTextError('the Word document has no text to read')
  return { text: joinParagraphs(paragraphs), page: null, paragraphs }
}
