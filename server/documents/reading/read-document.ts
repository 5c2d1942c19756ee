/**
 * What the reader process sends back, as the server keeps it (D102): a file's sections (a PDF's
 * pages with its outline's headings), its pages, the pages OCR read and what was left unread;
 * and the error each kind of file fails with.
 */
import { type Paragraph, paragraphsOf, type Section } from './chunker.ts'
import { joinParagraphs } from './document-bounds.ts'
import { DocxTextError } from './docx-text.ts'
import { joinPdfLines } from './pdf-lines.ts'
import { FileReadError } from './read-error.ts'
import type { PdfOutlineEntry, ReaderKind, ReaderResult, SentSection } from './reader-process.ts'
import { removeControlCharacters } from './text-decoding.ts'

export class PdfTextError extends FileReadError {
  constructor(message: string) {
    super(message)
    this.name = 'PdfTextError'
  }
}

/** A file as read: its sections, and what the library says of how it was read. */
export type ReadDocument = {
  sections: Section[]
  /** A PDF's pages; null for other kinds. */
  pages: number | null
  /** The pages OCR gave the text of (an image: [1]); null when OCR read none. */
  ocrPages: number[] | null
  /** What was left unread of a file otherwise read (a limit reached); null when nothing was. */
  note: string | null
}

/** The outline title as it may be printed: its words in order, any spacing or line breaks between. */
function titlePattern(title: string): RegExp {
  const words = title.split(' ').map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
  return new RegExp(words.join('\\s+'), 'iu')
}

/**
 * The sections of a PDF's pages, with headings from its outline. An outline entry's section
 * starts where its title is printed on the page it opens (searched after the previous entry's
 * start on that page), or at the top of that page (or the previous entry's start) when the title
 * is not printed as such; the text before the first entry of a page still belongs to the section
 * above, which runs on across pages until the next entry (except above the document's first
entry: that text, a title or a date, opens the first section). A PDF without an outline has no
 * headings, as before: its passages cite their pages. Lines are joined into sentences and
 * headings set apart (pdf-lines.ts). Control characters (a text layer may hold
 * NULs, which PostgreSQL refuses in text) are removed.
 */
export function pdfSections(pages: readonly string[], outline: readonly PdfOutlineEntry[]): Section[] {
  const firstPage = Math.min(...outline.map((e) => e.page))
  return pages.map((raw, i) => {
    const page = i + 1
    const entries = outline.filter((e) => e.page === page)
    const text = joinPdfLines(removeControlCharacters(raw), entries.length === 0)
    if (entries.length === 0) return { text, page }
    const starts: { at: number; heading: string }[] = []
    let cursor = 0
    for (const { title } of entries) {
      const found = titlePattern(title).exec(text.slice(cursor))
      // What is printed above the document's first section on its page (the document's own
      // title, a date) belongs to that section, not to a passage of a few words of its own.
      if (found && !(page === firstPage && starts.length === 0)) cursor += found.index
      starts.push({ at: cursor, heading: title })
    }
    const paragraphs: Paragraph[] = paragraphsOf(text.slice(0, starts[0]?.at ?? 0), false)
    starts.forEach(({ at, heading }, j) => {
      const [first, ...rest] = paragraphsOf(text.slice(at, starts[j + 1]?.at ?? text.length), false)
      // The section's first paragraph carries its heading (empty when the next entry starts at
      // once), so the chunker starts a passage there and the passages below remember it.
      paragraphs.push({ text: first?.text ?? '', heading }, ...rest)
    })
    return { text, page, paragraphs }
  })
}

const generic = (message: string) => new FileReadError(message)
export const KINDS: Record<ReaderKind, { name: string; error: (message: string) => FileReadError }> = {
  pdf: { name: 'the PDF', error: (message) => new PdfTextError(message) },
  docx: { name: 'the Word document', error: (message) => new DocxTextError(message) },
  workbook: { name: 'the spreadsheet', error: generic },
  csv: { name: 'the spreadsheet', error: generic },
  pptx: { name: 'the presentation', error: generic },
  html: { name: 'the web page', error: generic },
  image: { name: 'the image', error: generic },
}

/** A section as the reader sent it, with the text its paragraphs join into (D102). */
const received = (section: SentSection): Section =>
  section.paragraphs ? { ...section, text: joinParagraphs(section.paragraphs) } : section

export function documentOf(result: ReaderResult & { ok: true }, ocr: boolean): ReadDocument {
  const ocrPages = result.ocrPages.length > 0 ? result.ocrPages : null
  if (result.kind === 'sections')
    return { sections: result.sections.map(received), pages: null, ocrPages, note: result.note }
  if (result.pages.every((page) => page.trim() === '')) {
    if (!ocr)
      throw new PdfTextError(
        'the PDF has no text to read (its pages are scanned images, and OCR is turned off on this server)',
      )
    throw new PdfTextError(
      result.note
        ? `the PDF's pages are scanned images, and ${result.note}`
        : 'no text was found in the PDF, not even by OCR',
    )
  }
  const sections = pdfSections(result.pages, result.outline)
  return { sections, pages: sections.length, ocrPages, note: result.note }
}
