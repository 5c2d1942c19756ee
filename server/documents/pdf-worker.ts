/**
 * Runs in a worker thread: pdf.js (through unpdf's serverless build) turns a PDF into one string
 * per page. Parsing is CPU-bound, so it stays off the server's event loop.
 */
import { parentPort } from 'node:worker_threads'
import { extractText, getDocumentProxy } from 'unpdf'

export type PdfJob = { id: number; bytes: Uint8Array }
export type PdfResult = { id: number; ok: true; pages: string[] } | { id: number; ok: false; error: string }

function reason(error: unknown): string {
  const name = error instanceof Error ? error.name : ''
  if (name === 'PasswordException') return 'the PDF is password-protected'
  if (name === 'InvalidPDFException') return 'the file is not a readable PDF'
  return error instanceof Error ? error.message : 'the PDF could not be read'
}

parentPort?.on('message', async ({ id, bytes }: PdfJob) => {
  let result: PdfResult
  try {
    const pdf = await getDocumentProxy(bytes, { stopAtErrors: true, verbosity: 0 })
    try {
      const { text } = await extractText(pdf, { mergePages: false })
      result = { id, ok: true, pages: text }
    } finally {
      await pdf.cleanup()
    }
  } catch (error) {
    result = { id, ok: false, error: reason(error) }
  }
  parentPort?.postMessage(result)
})
