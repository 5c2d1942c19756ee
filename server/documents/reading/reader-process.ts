/**
 * Runs in a child process of its own: turns a PDF into one string per page with its outline
 * (pdf.js, through unpdf's serverless build), pages without a text layer read by OCR (ocr.ts)
 * from their own picture (page-image.ts: no canvas, no native addon, D103); an image into its
 * text by OCR; a Word file into its
 * paragraphs (mammoth); a spreadsheet into its tables, a presentation into its slides, a web page
 * into its paragraphs and headings. Parsing is CPU-bound and a hostile file can be made to take a
 * long time or a lot of memory, so it stays out of the server's process, in one the reader can
 * stop, and whose running out of memory ends only itself (document-reader.ts). Every reader stops
 * at the document bounds here (D102): what is sent to the server is never more than they hold.
 */
import { getDocumentProxy, getResolvedPDFJS } from 'unpdf'
import type { Paragraph, Section } from './chunker.ts'
import { boundReaderSections, CUT_REASONS, type TextBudget, textBudget } from './document-bounds.ts'
import { docxSection, isOutOfMemory } from './docx-text.ts'
import { htmlSection } from './html-text.ts'
import { checkImageSize, MAX_OCR_PIXELS, OcrError, type OcrOptions, OcrTimeout, recognize } from './ocr.ts'
import { pageImage } from './page-image.ts'
import { FileReadError } from './read-error.ts'
import { slidesText } from './slides-text.ts'
import { spreadsheetText } from './spreadsheet-text.ts'
import { decodeText } from './text-decoding.ts'

/** What the reader reads: `workbook` is .xlsx, .ods, .xls; `csv` a CSV file's bytes. */
export type ReaderKind = 'pdf' | 'docx' | 'workbook' | 'csv' | 'pptx' | 'html' | 'image'
/** `ocr`: null when OCR is off (OCR=off): scanned pages and images are then not read. */
/**
 * `maxChars`: the most text the document may give (document-bounds.ts): every reader stops there,
 * and what is sent back is within it and the passage bound (D102).
 */
export type ReaderJob = {
  id: number
  kind: ReaderKind
  bytes: Uint8Array
  ocr: OcrOptions | null
  maxChars: number
}
/**
 * A section as sent: a reader's paragraphs without the text they join into (the server joins them
 * again, joinParagraphs), or a text without paragraphs of its own; half the bytes of both.
 */
export type SentSection = { page: number | null } & (
  | { paragraphs: Paragraph[]; text?: never }
  | { text: string; paragraphs?: never }
)
/** An outline entry: its title and the 1-based page it opens, in the outline's reading order. */
export type PdfOutlineEntry = { title: string; page: number }
/**
 * `ocrPages`: the pages whose text OCR gave (1-based; an image is page 1). `note`: what was left
 * unread of a file that was otherwise read (a limit reached), a phrase a person reads.
 * A `progress` message says a page has begun to be read by OCR: the server gives each such page
 * its own time limit rather than the whole file one.
 */
export type ReaderResult =
  | {
      id: number
      ok: true
      kind: 'pdf'
      pages: string[]
      outline: PdfOutlineEntry[]
      ocrPages: number[]
      note: string | null
    }
  | {
      id: number
      ok: true
      kind: 'sections'
      sections: SentSection[]
      ocrPages: number[]
      note: string | null
    }
  | { id: number; ok: false; error: string }
export type ReaderProgress = { id: number; progress: 'ocr-page'; page: number }
/** Sent before any file: load pdf.js now, so the first PDF does not wait for it. No answer. */
export type ReaderWarmUp = { warm: true }

/** The most outline entries read: a generated outline of every paragraph is no structure. */
export const MAX_OUTLINE_ENTRIES = 2000
/** An outline title longer than this is cut: it names a section, it is not its text. */
export const MAX_OUTLINE_TITLE = 200

type Pdf = Awaited<ReturnType<typeof getDocumentProxy>>
type OutlineItem = { title: string; dest: string | unknown[] | null; items?: OutlineItem[] }

function reason(error: unknown): string {
  const name = error instanceof Error ? error.name : ''
  if (name === 'PasswordException') return 'the PDF is password-protected'
  if (name === 'InvalidPDFException') return 'the file is not a readable PDF'
  if (isOutOfMemory(error)) return 'the PDF is too large to read'
  return error instanceof Error ? error.message : 'the PDF could not be read'
}

/** The 1-based page an outline destination opens (named or explicit), or null when it names none. */
async function pageOf(pdf: Pdf, dest: OutlineItem['dest']): Promise<number | null> {
  const explicit = typeof dest === 'string' ? await pdf.getDestination(dest) : dest
  const target = explicit?.[0]
  // Some writers give the page as its index instead of a reference to the page object.
  if (typeof target === 'number') return target >= 0 && target < pdf.numPages ? target + 1 : null
  if (!target || typeof target !== 'object') return null
  return (await pdf.getPageIndex(target as Parameters<Pdf['getPageIndex']>[0])) + 1
}

/**
 * The outline, flattened in reading order (a chapter, then its sections). An entry whose
 * destination cannot be resolved (an action, a broken reference) is left out; an outline that
 * cannot be read at all is no outline, never a failed PDF.
 */
async function outlineOf(pdf: Pdf): Promise<PdfOutlineEntry[]> {
  const out: PdfOutlineEntry[] = []
  const walk = async (items: readonly OutlineItem[] | null | undefined) => {
    for (const item of items ?? []) {
      if (out.length >= MAX_OUTLINE_ENTRIES) return
      const title = item.title.replace(/\s+/g, ' ').trim().slice(0, MAX_OUTLINE_TITLE).trim()
      const page = await pageOf(pdf, item.dest).catch(() => null)
      if (title && page !== null) out.push({ title, page })
      await walk(item.items)
    }
  }
  try {
    await walk((await pdf.getOutline()) as OutlineItem[] | null)
  } catch {
    return []
  }
  return out
}

/**
 * Each page's text as unpdf's extractText joins it (an item's string, a line break where it ends
 * a line), page after page, until one character past `maxChars`: a PDF can pack megabytes of
 * tiny text into one compressed page, and pdf.js would spend many seconds on all of it. The page
 * that crosses the limit is read only that far: its text stream is cancelled there (without
 * that, pdf.js's paused task kept destroying the document waiting forever).
 */
async function pageTexts(pdf: Pdf, maxChars: number): Promise<string[]> {
  const pages: string[] = []
  let total = 0
  for (let number = 1; number <= pdf.numPages && total <= maxChars; number++) {
    const reader = (await pdf.getPage(number)).streamTextContent().getReader()
    let text = ''
    let done = false
    while (!done && total + text.length <= maxChars) {
      const chunk = await reader.read()
      done = chunk.done
      if (chunk.value)
        for (const item of chunk.value.items) if ('str' in item) text += item.str + (item.hasEOL ? '\n' : '')
    }
    // Stopped early: pdf.js's task is cancelled, or destroying the document would wait for it forever.
    if (!done) await reader.cancel(new Error('the document holds more text than is read'))
    text = text.slice(0, maxChars + 1 - total)
    pages.push(text)
    total += text.length
  }
  return pages
}

/**
 * A page with fewer letters and digits than this in its text layer is taken to be a scan (a
 * page number or a scanner's stamp is all some scans carry) and read by OCR when OCR is on.
 */
export const MIN_PAGE_TEXT = 25
const hasText = (page: string) => (page.match(/[\p{L}\p{N}]/gu)?.length ?? 0) >= MIN_PAGE_TEXT

/** One scanned page's own picture (page-image.ts), as a PNM file; null when it paints none. */
async function scanOf(pdf: Pdf, pageNumber: number): Promise<Uint8Array | null> {
  const page = await pdf.getPage(pageNumber)
  try {
    return await pageImage(page as unknown as Parameters<typeof pageImage>[0])
  } finally {
    page.cleanup()
  }
}

/**
 * The text of the pages without a text layer, read by OCR, in page order: up to `maxPages` of
 * them; a page over its time limit (or whose picture cannot be decoded) ends OCR for this file, and the
 * pages after it keep only their own text, with a note that says so.
 */
async function readScannedPages(
  id: number,
  pdf: Pdf,
  pages: string[],
  ocr: OcrOptions,
): Promise<{ read: number[]; note: string | null }> {
  const scanned = pages.flatMap((text, i) => (hasText(text) ? [] : [i + 1]))
  if (scanned.length === 0) return { read: [], note: null }
  const read: number[] = []
  const toRead = scanned.slice(0, ocr.maxPages)
  const decode = (i: number): Promise<Uint8Array | null> | null => {
    const page = toRead[i]
    if (page === undefined) return null
    const decoding = scanOf(pdf, page)
    // Awaited in its own turn; until then a failure is not unhandled.
    decoding.catch(() => undefined)
    return decoding
  }
  let next = decode(0)
  for (const [i, page] of toRead.entries()) {
    process.send?.({ id, progress: 'ocr-page', page } satisfies ReaderProgress)
    try {
      const image = await (next as Promise<Uint8Array | null>)
      // The next page's image is decoded on this thread while Tesseract reads this one on its
      // own: a scanned PDF's pages take both cores, not one after the other on one.
      next = decode(i + 1)
      // A page without a text layer that paints no image (text drawn as outlines) is not read.
      if (!image) continue
      const text = await recognize(image, ocr)
      if (text.trim()) {
        pages[page - 1] = text
        read.push(page)
      }
    } catch (error) {
      if (isOutOfMemory(error)) throw error
      const why = error instanceof OcrTimeout ? error.message : 'could not be read'
      return {
        read,
        note: `OCR stopped at page ${page}, which ${why}; the scanned pages after it were not read`,
      }
    }
  }
  const note =
    scanned.length > ocr.maxPages
      ? `only the first ${ocr.maxPages} of its ${scanned.length} scanned pages were read by OCR`
      : null
  return { read, note }
}

/** The notes of what was left out, in one phrase; null when nothing was. */
const notes = (...phrases: (string | null)[]) => phrases.filter((p) => p !== null).join('; ') || null

/** Without OCR, the scanned pages of a PDF that has others: a note says they were not read. */
function unreadScans(pages: readonly string[]): string | null {
  const scanned = pages.filter((page) => page.trim() === '').length
  // All pages scanned: the server fails the file with its own sentence; some: say so.
  return scanned > 0 && scanned < pages.length
    ? `${scanned} scanned ${scanned === 1 ? 'page was' : 'pages were'} not read (OCR is turned off on this server)`
    : null
}

async function readPdf(
  id: number,
  bytes: Uint8Array,
  ocr: OcrOptions | null,
  maxChars: number,
): Promise<ReaderResult> {
  try {
    const pdf = await getDocumentProxy(bytes, {
      stopAtErrors: true,
      verbosity: 0,
      // Images are decoded by pdf.js's own JavaScript into pixels (no canvas, no ImageDecoder:
      // D103), and none over OCR's pixel ceiling is decoded at all.
      isOffscreenCanvasSupported: false,
      isImageDecoderSupported: false,
      maxImageSize: MAX_OCR_PIXELS,
    } as Parameters<typeof getDocumentProxy>[1])
    try {
      const text = await pageTexts(pdf, maxChars)
      const outline = await outlineOf(pdf)
      const { read, note } = ocr
        ? await readScannedPages(id, pdf, text, ocr)
        : { read: [], note: unreadScans(text) }
      // Read one character past the bound (and OCR's pages added): cut to the bounds here (D102).
      const bounded = boundReaderSections(
        text.map((page, i) => ({ text: page, page: i + 1 })),
        maxChars,
      )
      const pages = bounded.sections.map((section) => section.text)
      const ocrPages = read.filter((page) => page <= pages.length)
      return { id, ok: true, kind: 'pdf', pages, outline, ocrPages, note: notes(note, bounded.cut) }
    } finally {
      await pdf.loadingTask.destroy()
    }
  } catch (error) {
    return { id, ok: false, error: reason(error) }
  }
}

/** An image's text, by OCR: its size checked from its header first (a bomb fails here). */
async function readImage(id: number, bytes: Uint8Array, ocr: OcrOptions | null): Promise<Section[]> {
  if (!ocr) throw new FileReadError('images are read by OCR, which is turned off on this server')
  checkImageSize(bytes)
  process.send?.({ id, progress: 'ocr-page', page: 1 } satisfies ReaderProgress)
  let text: string
  try {
    text = await recognize(bytes, ocr)
  } catch (error) {
    if (error instanceof OcrTimeout) throw new FileReadError(`reading the image by OCR ${error.message}`)
    throw error
  }
  if (!text.trim()) throw new FileReadError('no text was found in the image')
  return [{ text: removeBlankLines(text), page: null }]
}

/** OCR's lines, with the runs of blank lines it leaves between blocks made paragraph breaks. */
const removeBlankLines = (text: string) => text.replace(/\n{3,}/g, '\n\n').trim()

const NAMES: Record<ReaderKind, string> = {
  pdf: 'the PDF',
  docx: 'the Word document',
  workbook: 'the spreadsheet',
  csv: 'the spreadsheet',
  pptx: 'the presentation',
  html: 'the web page',
  image: 'the image',
}

const sent = ({ text, page, paragraphs }: Section): SentSection =>
  paragraphs ? { page, paragraphs: [...paragraphs] } : { page, text }

/** Every kind but PDF: its sections, what OCR read, and what was left out. */
async function readSections(job: ReaderJob, bytes: Uint8Array): Promise<ReaderResult> {
  const { id, kind } = job
  try {
    // Every reader stops where the document's text bound is reached (D102).
    const budget = textBudget(job.maxChars)
    const read = await sectionsOf(job, bytes, budget)
    const bounded = boundReaderSections(read.sections, job.maxChars)
    const note = notes(read.note, bounded.cut ?? (budget.cut ? CUT_REASONS.text : null))
    return {
      id,
      ok: true,
      kind: 'sections',
      sections: bounded.sections.map(sent),
      ocrPages: read.ocrPages,
      note,
    }
  } catch (error) {
    if (error instanceof FileReadError || error instanceof OcrError)
      return { id, ok: false, error: error.message }
    if (isOutOfMemory(error)) return { id, ok: false, error: `${NAMES[kind]} is too large to read` }
    return { id, ok: false, error: `${NAMES[kind]} could not be read` }
  }
}

async function sectionsOf(
  job: ReaderJob,
  bytes: Uint8Array,
  budget: TextBudget,
): Promise<{ sections: Section[]; note: string | null; ocrPages: number[] }> {
  const done = (sections: Section[], note: string | null = null, ocrPages: number[] = []) => ({
    sections,
    note,
    ocrPages,
  })
  switch (job.kind) {
    case 'docx':
      return done([await docxSection(bytes, budget)])
    case 'workbook': {
      const { sections, note } = await spreadsheetText(bytes, { tabs: true, budget })
      return done(sections, note)
    }
    case 'csv': {
      const { sections, note } = await spreadsheetText(decodeText(bytes), { tabs: false, budget })
      return done(sections, note)
    }
    case 'pptx': {
      const { sections, note } = await slidesText(bytes, budget)
      return done(sections, note)
    }
    case 'html':
      return done([htmlSection(decodeText(bytes), budget)])
    case 'image':
      return done(await readImage(job.id, bytes, job.ocr), null, [1])
    default:
      throw new FileReadError(`${NAMES[job.kind]} cannot be read here`)
  }
}

// Jobs arrive over the IPC channel (advanced serialization: the bytes come as a Uint8Array).
process.on('message', async (job: ReaderJob | ReaderWarmUp) => {
  if ('warm' in job) {
    await getResolvedPDFJS().catch(() => undefined)
    return
  }
  const { id, kind, bytes: sent } = job
  // A Buffer sent by the server arrives as a Buffer; pdf.js wants a plain Uint8Array (same memory).
  const bytes = new Uint8Array(sent.buffer, sent.byteOffset, sent.byteLength)
  process.send?.(
    kind === 'pdf' ? await readPdf(id, bytes, job.ocr, job.maxChars) : await readSections(job, bytes),
  )
})
// A promise a library dropped (tesseract.js posting to a worker just terminated) fails nothing:
// the file being read has its own outcome; the next file must not find the process gone.
process.on('unhandledRejection', (reason) => {
  console.error('reader: unhandled rejection', reason instanceof Error ? reason.message : reason)
})
// The server went away: nothing is left to read for.
process.on('disconnect', () => process.exit(0))
