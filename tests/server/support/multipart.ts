/**
 * Multipart bodies for the two upload calls, as a browser's FormData sends them (`formData`), and
 * a text file of a given size to put in one.
 */
export type FilePart = { name: string; type: string; bytes: Uint8Array }

export const FORM_BOUNDARY = '----docchat-test-boundary'

/** A multipart/form-data body with `parts` in order, each a file or a plain field. */
export function formData(parts: { field: string; file?: FilePart; value?: string }[]) {
  const chunks: Buffer[] = []
  for (const part of parts) {
    chunks.push(Buffer.from(`--${FORM_BOUNDARY}\r\n`))
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
  chunks.push(Buffer.from(`--${FORM_BOUNDARY}--\r\n`))
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${FORM_BOUNDARY}` }
}

/** A plain-text file of `size` bytes that says `fact` among filler sentences. */
export function textFile(name: string, fact: string, size = 12 * 1024): FilePart {
  let text = `${fact}\n\n`
  while (text.length < size) text += 'The committee met again and reviewed the quarterly figures in detail. '
  return { name, type: 'text/plain', bytes: new TextEncoder().encode(text.slice(0, size)) }
}
