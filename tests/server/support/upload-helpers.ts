/**
 * The spec's upload call as a browser sends it: a multipart/form-data body with the file in
 * `file` (and an empty `message`), to one conversation of a signed-in person or (ours) into the
 * library alone; the body alone, for either upload call (`multipart`); the files the tests upload:
 * text of a given size holding one fact, and a two-page PDF with the fact on page 2.
 */
import type { LightMyRequestResponse } from 'fastify'
import { documentEndpoints } from '#contracts/documents.ts'
import { fillPath } from '#contracts/endpoint.ts'
import type { App } from '#server/app.ts'

export type Part = { name: string; type: string; bytes: Uint8Array }

/** A multipart/form-data body as a browser's FormData sends it. */
export function multipart(parts: { field: string; file?: Part; value?: string }[]) {
  const boundary = '----docchat-test-boundary'
  const chunks: Buffer[] = []
  for (const part of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\n`))
    if (part.file) {
      chunks.push(
        Buffer.from(
          `Content-Disposition: form-data; name="${part.field}"; filename="${part.file.name}"\r\n` +
            `Content-Type: ${part.file.type}\r\n\r\n`,
        ),
        Buffer.from(part.file.bytes),
        Buffer.from('\r\n'),
      )
    } else {
      chunks.push(
        Buffer.from(`Content-Disposition: form-data; name="${part.field}"\r\n\r\n${part.value}\r\n`),
      )
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`))
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` }
}

export function postUpload(
  app: App,
  person: { cookie: string },
  /** null: the library's own upload (`/documents/upload`), from the Documents section. */
  conversationId: string | null,
  file?: Part,
): Promise<LightMyRequestResponse> {
  const { uploadFile, uploadToLibrary } = documentEndpoints
  const body = multipart(
    file
      ? [
          { field: 'file', file },
          { field: 'message', value: '' },
        ]
      : [],
  )
  return app.inject({
    method: uploadFile.method,
    url: conversationId === null ? uploadToLibrary.path : fillPath(uploadFile.path, { id: conversationId }),
    headers: { cookie: person.cookie, 'content-type': body.contentType },
    payload: body.payload,
  })
}

/** A plain-text file of `size` bytes that says `fact` among filler sentences. */
export function textFile(name: string, fact: string, size = 12 * 1024): Part {
  let text = `${fact}\n\n`
  while (text.length < size) text += 'The committee met again and reviewed the quarterly figures in detail. '
  return { name, type: 'text/plain', bytes: new TextEncoder().encode(text.slice(0, size)) }
}

export async function pdfFile(name: string, fact: string): Promise<Part> {
  const { PDFDocument, StandardFonts } = await import('pdf-lib')
  const doc = await PDFDocument.create()
  const font = await doc.embedFont(StandardFonts.Helvetica)
  doc.addPage([400, 300]).drawText('Cover page of the pier survey.', { x: 20, y: 250, size: 11, font })
  doc.addPage([400, 300]).drawText(fact, { x: 20, y: 250, size: 11, font })
  // Padding in the metadata: the spec's minimum is 10 KB.
  doc.setSubject('survey '.repeat(2000))
  return { name, type: 'application/pdf', bytes: await doc.save({ useObjectStreams: false }) }
}
