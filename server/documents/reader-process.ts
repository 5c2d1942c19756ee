/**
 * Runs in a child process of its own: turns a PDF into one string per page with its outline
 * (pdf.js, through unpdf's serverless build), or a Word file into its paragraphs (mammoth).
 * Parsing is CPU-bound and a hostile file can be made to take a long time or a lot of memory, so
 * it stays out of the server's process, in one the reader can stop, and whose running out of
 * memory ends only itself (document-reader.ts).
 */
import { extractText, getDocumentProxy } from 'unpdf'
import type { Section } from './chunker.ts'
import { DocxTextError, docxSection, isOutOfMemory } from './docx-text.ts'

export type ReaderJob = { id: number; kind: 'pdf' | 'docx'; bytes: Uint8Array }
/** An outline entry: its title and the 1-based page it opens, in the outline's reading order. */
export type PdfOutlineEntry = { title: string; page: number }
export type ReaderResult =
  | { id: number; ok: true; kind: 'pdf'; pages: string[]; outline: PdfOutlineEntry[] }
  | { id: number; ok: true; kind: 'docx'; section: Section }
  | { id: number; ok: false; error: string }

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

async function readPdf(id: number, bytes: Uint8Array): Promise<ReaderResult> {
  try {
    const pdf = await getDocumentProxy(bytes, { stopAtErrors: true, verbosity: 0 })
    try {
      const { text } = await extractText(pdf, { mergePages: false })
      return { id, ok: true, kind: 'pdf', pages: text, outline: await outlineOf(pdf) }
    } finally {
      await pdf.cleanup()
    }
  } catch (error) {
    return { id, ok: false, error: reason(error) }
  }
}

async function readDocx(id: number, bytes: Uint8Array): Promise<ReaderResult> {
  try {
    return { id, ok: true, kind: 'docx', section: await docxSection(bytes) }
  } catch (error) {
    return {
      id,
      ok: false,
      error: error instanceof DocxTextError ? error.message : 'the Word document could not be read',
    }
  }
}

// Jobs arrive over the IPC channel (advanced serialization: the bytes come as a Uint8Array).
process.on('message', async ({ id, kind, bytes: sent }: ReaderJob) => {
  // A Buffer sent by the server arrives as a Buffer; pdf.js wants a plain Uint8Array (same memory).
  const bytes = new Uint8Array(sent.buffer, sent.byteOffset, sent.byteLength)
  process.send?.(kind === 'pdf' ? await readPdf(id, bytes) : await readDocx(id, bytes))
})
// The server went away: nothing is left to read for.
process.on('disconnect', () => process.exit(0))
