/**
 * PDF text per page, extracted in a worker thread with a time limit per document. A PDF that is
 * broken, encrypted or too slow fails alone (PdfTextError with a reason a person can read); the
 * worker is replaced after a time-out so the next document starts clean.
 */
import { Worker } from 'node:worker_threads'
import type { PdfJob, PdfResult } from './pdf-worker.ts'

export const PDF_TIME_LIMIT_MS = 30_000

export class PdfTextError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'PdfTextError'
  }
}

export type PdfExtractor = {
  /** One string per page, page 1 first. */
  pages(bytes: Uint8Array): Promise<string[]>
  close(): Promise<void>
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

  function run(bytes: Uint8Array): Promise<string[]> {
    const w = ensureWorker()
    const id = nextId++
    return new Promise<string[]>((resolve, reject) => {
      const timer = setTimeout(() => {
        cleanup()
        void stopWorker()
        reject(new PdfTextError(`reading the PDF took longer than ${Math.round(timeLimitMs / 1000)} s`))
      }, timeLimitMs)
      const onMessage = (result: PdfResult) => {
        if (result.id !== id) return
        cleanup()
        if (result.ok) resolve(result.pages)
        else reject(new PdfTextError(result.error))
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
    pages(bytes) {
      const job = queue.then(() => run(bytes))
      queue = job.catch(() => undefined)
      return job
    },
    close: stopWorker,
  }
}
