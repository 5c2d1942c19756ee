/**
 * How a `file` call answers (a document's own bytes, an exported conversation): never as a page
 * of ours. Whatever the bytes hold (an HTML file someone uploaded as text, a PDF with scripts),
 * the browser must not run it in our origin, sniff another type out of it, or keep a copy:
 * - `Content-Type` is the stored type, and `X-Content-Type-Options: nosniff` holds the browser to it;
 * - `Content-Security-Policy: sandbox` opens it, if ever navigated to, as a page of no origin with
 *   no scripts, forms or plugins, and `default-src 'none'` loads nothing beside it;
 * - `Content-Disposition` names it with a file name stripped of what could break the header or
 *   lead a save dialog elsewhere (quotes, slashes, control characters), in ASCII and in UTF-8;
 * - `Cache-Control: private, no-store`: a person's document stays out of every cache (D72).
 */
import type { FastifyReply } from 'fastify'

export type FileReply = {
  bytes: Uint8Array
  contentType: string
  /** The name a save dialog offers, as the person knows the file. */
  fileName: string
  /** `inline`: the browser may show it (the viewer's PDF); `attachment`: always a download. */
  disposition: 'inline' | 'attachment'
}

export const FILE_CSP = "sandbox; default-src 'none'; frame-ancestors 'none'"

/** The longest file name offered, in characters (file systems allow about 255 bytes). */
const MAX_NAME_LENGTH = 150

/**
 * A file name safe in a header and on a disk: no control characters, quotes, slashes or
 * backslashes, no leading dots, at most MAX_NAME_LENGTH characters; `fallback` when nothing is left.
 */
export function safeFileName(name: string, fallback = 'document'): string {
  const cleaned = Array.from(
    name
      .normalize('NFC')
      // biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point
      .replace(/[\u0000-\u001f\u007f-\u009f"\\/:*?<>|]/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
      .replace(/^\.+/, ''),
  )
    .slice(0, MAX_NAME_LENGTH)
    .join('')
    .trim()
  return cleaned === '' ? fallback : cleaned
}

/** `inline; filename="ascii"; filename*=UTF-8''percent-encoded` (RFC 6266), from a safe name. */
export function contentDisposition(disposition: FileReply['disposition'], name: string): string {
  const safe = safeFileName(name)
  const ascii = safe.replace(/[^\x20-\x7e]/g, '_')
  const encoded = encodeURIComponent(safe).replace(/['()]/g, (c) => `%${c.charCodeAt(0).toString(16)}`)
  return `${disposition}; filename="${ascii}"; filename*=UTF-8''${encoded}`
}

export function sendFile(reply: FastifyReply, file: FileReply): FastifyReply {
  return reply
    .code(200)
    .headers({
      'content-type': file.contentType,
      'content-disposition': contentDisposition(file.disposition, file.fileName),
      'content-length': String(file.bytes.byteLength),
      'x-content-type-options': 'nosniff',
      'cache-control': 'private, no-store',
      'content-security-policy': FILE_CSP,
    })
    .send(Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength))
}
