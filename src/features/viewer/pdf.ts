/**
 * pdf.js, loaded only when a PDF is opened: the library is in this chunk's own import, and its
 * worker is a separate file the browser fetches when the first document opens (never on /login
 * or the dashboard). The worker runs from our own origin (`script-src 'self'` allows it) and
 * no WebAssembly is compiled (`useWasm: false`: the page CSP has no 'wasm-unsafe-eval'), so the page CSP stays as it is (D72).
 */
import type { PDFDocumentProxy } from 'pdfjs-dist'

export type PdfDocument = PDFDocumentProxy

let loading: Promise<typeof import('pdfjs-dist')> | undefined

export function loadPdfJs(): Promise<typeof import('pdfjs-dist')> {
  loading ??= Promise.all([import('pdfjs-dist'), import('pdfjs-dist/build/pdf.worker.min.mjs?url')]).then(
    ([pdfjs, worker]) => {
      pdfjs.GlobalWorkerOptions.workerSrc = worker.default
      return pdfjs
    },
  )
  return loading
}

/**
 * Opens the PDF at `url` (the file call, with the session cookie). The bytes are fetched here, not
 * by pdf.js, so a refusal (Drive not connected, the file too large) fails with the server's own
 * sentence rather than a bare status.
 */
export async function openPdf(url: string): Promise<PdfDocument> {
  const [pdfjs, response] = await Promise.all([
    loadPdfJs(),
    fetch(url, { credentials: 'include' }).catch(() => {
      throw new Error('The file could not be reached. Check your connection and try again.')
    }),
  ])
  if (!response.ok) {
    const body: unknown = await response.json().catch(() => null)
    const message =
      typeof body === 'object' && body !== null && 'message' in body && typeof body.message === 'string'
        ? body.message
        : `The file could not be opened (${response.status}).`
    throw new Error(message)
  }
  const data = new Uint8Array(await response.arrayBuffer())
  return pdfjs.getDocument({ data, useWasm: false }).promise
}
