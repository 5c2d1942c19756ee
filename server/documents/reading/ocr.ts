/**
 * Optical character recognition, in the reader process only (D66, D74): tesseract.js (Tesseract
 * compiled to WebAssembly, in a worker thread of that process) with the language data of the
 * installed `@tesseract.js-data/<code>` packages, read from disk and handed over as bytes, so
 * nothing is ever downloaded. One engine is started on the first page to read and kept for the
 * next; a page that takes longer than its time limit ends that engine (the worker thread is
 * terminated mid-page) and the next page gets a fresh one. An image is measured from its header
 * before it is decoded, so a decompression bomb (a few KB declaring gigapixels) fails at once.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { imageSize } from 'image-size'
import type { Worker } from 'tesseract.js'

/** What the server hands the reader with each file when OCR is on. */
export type OcrOptions = {
  /** Tesseract language codes joined by '+', each an installed `@tesseract.js-data/<code>`. */
  languages: string
  /** Pages of one PDF read by OCR at most; the rest are left out with a note. */
  maxPages: number
  /** How long one page (rendering and recognition) may take. */
  pageTimeMs: number
}

/**
 * The most pixels an image (or a rendered PDF page) may have to be read: 40 million, a 48 MP
 * phone photo's 8064 × 6048 less a margin is over, a 24 MP one or a page at 300 dpi far under.
 * Decoded, that is 160 MB of RGBA; the reader's memory ceiling holds the rest.
 */
export const MAX_OCR_PIXELS = 40_000_000

export class OcrError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'OcrError'
  }
}

export class OcrTimeout extends OcrError {}

/** The language data a package holds: the LSTM ("best, integer") model tesseract.js reads. */
export function languageDataFile(code: string, resolve: (id: string) => string): string {
  const main = resolve(`@tesseract.js-data/${code}`)
  return path.join(path.dirname(main), '4.0.0_best_int', `${code}.traineddata.gz`)
}

const WORKER_SCRIPT = fileURLToPath(new URL('./ocr-worker.ts', import.meta.url))

let engine: { languages: string; worker: Promise<Worker> } | null = null

async function startEngine(languages: string): Promise<Worker> {
  const { createWorker, OEM } = await import('tesseract.js')
  const require = createRequire(import.meta.url)
  const langs = languages.split('+').map((code) => ({
    code,
    data: readFileSync(languageDataFile(code, require.resolve)),
  }))
  // No langPath, no cache: the data comes as bytes, and nothing is written (the process may not).
  const worker = await createWorker(langs, OEM.LSTM_ONLY, {
    cacheMethod: 'none',
    gzip: true,
    workerPath: WORKER_SCRIPT,
    // Without it a failed job is thrown in tesseract.js's message handler, ending the process;
    // with it the job's promise rejects, and recognize() below fails the page.
    errorHandler: () => undefined,
  })
  // A worker thread that dies (its own heap limit, a WebAssembly abort) fails the page it was
  // reading rather than ending the process with an unhandled 'error'.
  ;(worker as unknown as { worker: import('node:worker_threads').Worker }).worker.on('error', () => {
    if (engine?.worker) engine = null
  })
  return worker
}

function engineFor(languages: string): Promise<Worker> {
  if (engine?.languages !== languages) {
    void stopEngine()
    engine = { languages, worker: startEngine(languages) }
  }
  return engine.worker
}

export async function stopEngine(): Promise<void> {
  const current = engine
  engine = null
  if (!current) return
  try {
    await (await current.worker).terminate()
  } catch {
    // A worker that never started, or is gone already: nothing to stop.
  }
}

/**
 * The pixels an encoded image declares, from its header alone; throws OcrError for an image whose
 * type cannot be told or whose size is over the limit.
 */
export function checkImageSize(bytes: Uint8Array): { width: number; height: number } {
  let size: { width: number; height: number }
  try {
    size = imageSize(bytes)
  } catch {
    throw new OcrError('the file is not a readable image')
  }
  const { width, height } = size
  if (!(width > 0 && height > 0)) throw new OcrError('the file is not a readable image')
  if (width * height > MAX_OCR_PIXELS) {
    throw new OcrError(`the image is too large to read (${width} × ${height} pixels)`)
  }
  return size
}

/**
 * The words on one encoded image (PNG, JPEG, WebP, TIFF, GIF's first frame), within the time
 * limit; a page Tesseract reads with very low confidence (a photo without text, noise) is no text.
 */
export async function recognize(image: Uint8Array, options: OcrOptions): Promise<string> {
  const current = engineFor(options.languages)
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new OcrTimeout(`took longer than ${Math.round(options.pageTimeMs / 1000)} s`)),
      options.pageTimeMs,
    )
  })
  try {
    const { data } = await Promise.race([
      current.then((w) => {
        // Stopped meanwhile (this page's time ran out while the engine started): not to be used.
        if (engine?.worker !== current) throw new OcrTimeout('was stopped')
        return w.recognize(Buffer.from(image.buffer, image.byteOffset, image.byteLength))
      }),
      timeout,
    ])
    return data.confidence < MIN_CONFIDENCE ? '' : data.text
  } catch (error) {
    // Stuck or broken: this engine is not used again.
    await stopEngine()
    if (error instanceof OcrError) throw error
    throw new OcrError(
      `the image could not be read (${error instanceof Error ? error.message : String(error)})`,
    )
  } finally {
    clearTimeout(timer)
  }
}

/** Tesseract's mean word confidence (0–100) under which a page is taken to hold no text. */
const MIN_CONFIDENCE = 30
