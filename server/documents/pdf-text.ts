/**
 * PDF text per page, extracted in a worker thread with a time limit per document, as the sections
 * the chunker reads: one per page, and headings where the PDF's outline says a section starts. A
 * PDF that is broken, encrypted, too slow or without text fails alone (PdfTextError with a reason
 * a person can read); the worker is replaced after a time-out so the next document starts clean.
 */
import { Worker } from 'node:worker_threads'
import { type Paragraph, paragraphsOf, type Section } from './chunker.ts'
import type { PdfJob, PdfOutlineEntry, PdfResult } from './pdf-worker.ts'
import { removeControlCharacters } from './text-decoding.ts'

export const PDF_TIME_LIMIT_MS = 30_000

export class PdfTextError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'PdfTextError'
  }
}

export type PdfExtractor = {
  /** One section per page, page 1 first, with the outline's headings. */
  sections(bytes: Uint8Array): Promise<Section[]>
  close(): Promise<void>
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
 * above, which runs on across pages until the next entry. A PDF without an outline has no
 * headings, as before: its passages cite their pages. Control characters (a text layer may hold
 * NULs, which PostgreSQL refuses in text) are removed.
 */
export function pdfSections(pages: readonly string[], outline: readonly PdfOutlineEntry[]): Section[] {
  return pages.map((raw, i) => {
    const text = removeControlCharacters(raw)
    const page = i + 1
    const entries = outline.filter((e) => e.page === page)
    if (entries.length === 0) return { text, page }
    const starts: { at: number; heading: string }[] = []
    let cursor = 0
    for (const { title } of entries) {
      const found = titlePattern(title).exec(text.slice(cursor))
      if (found) cursor += found.index
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

export function createPdfExtractor({ timeLimitMs = PDF_TIME_LIMIT_MS } = {}): PdfExtractor {
  let worker: Worker | null = null
  let nextId = 1
  // Jobs run one at a time: a worker is one thread, and ingest is sequential per user anyway.
  let queue: Promise<unknown> = Promise.resolve()

  function ensureWorker(): Worker {
    worker ??= new Worker(new URL('./pdf-worker.ts', import.meta.url))
    worker.unref()
    return worker
  }

  async function stopWorker(): Promise<void> {
    const w = worker
    worker = null
    if (w) await w.terminate()
  }

  function run(bytes: Uint8Array): Promise<Section[]> {
    const w = ensureWorker()
    const id = nextId++
    return new Promise<Section[]>((resolve, reject) => {
      const timer = setTimeout(() => {
        cleanup()
        void stopWorker()
        reject(new PdfTextError(`reading the PDF took longer than ${Math.round(timeLimitMs / 1000)} s`))
      }, timeLimitMs)
      const onMessage = (result: PdfResult) => {
        if (result.id !== id) return
        cleanup()
        if (!result.ok) reject(new PdfTextError(result.error))
        else if (result.pages.every((page) => page.trim() === ''))
          reject(new PdfTextError('the PDF has no text to read (scanned pages are not supported)'))
        else resolve(pdfSections(result.pages, result.outline))
      }
      const onError = (error: Error) => {
        cleanup()
        worker = null
        reject(new PdfTextError(`the PDF reader failed: ${error.message}`))
      }
      function cleanup() {
        clearTimeout(timer)
        w.off('message', onMessage)
        w.off('error', onError)
      }
      w.on('message', onMessage)
      w.on('error', onError)
      // A copy is transferred so the caller's buffer stays usable. `new Uint8Array(bytes)` copies
      // into a fresh ArrayBuffer even for a Node Buffer, whose slice() is a view of a shared pool
      // that cannot be transferred.
      const copy = new Uint8Array(bytes)
      w.postMessage({ id, bytes: copy } satisfies PdfJob, [copy.buffer])
    })
  }

  return {
    sections(bytes) {
      const job = queue.then(() => run(bytes))
      queue = job.catch(() => undefined)
      return job
    },
    close: stopWorker,
  }
}
