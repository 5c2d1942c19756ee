/**
 * The worst PDF of issue 25's attack run: one page whose text layer holds megabytes of tiny text
 * in one Flate stream, so that a file of a few dozen kilobytes reads as tens of megabytes of text
 * (tens of thousands of passages, unbounded).
 */
import { deflateSync } from 'node:zlib'
import { PDFDocument, PDFName, PDFRawStream, StandardFonts } from 'pdf-lib'

/** A one-page PDF whose text is about `megabytes` MB of repeated lines in 1-point type. */
export async function tinyTextPdf(megabytes: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create()
  const font = await doc.embedFont(StandardFonts.Helvetica)
  const page = doc.addPage([400, 300])
  page.drawText('A page of tiny text.', { x: 30, y: 250, size: 12, font })
  const fonts = page.node.Resources()?.lookup(PDFName.of('Font'))
  const fontName = (fonts as { keys(): PDFName[] } | undefined)?.keys()[0]?.asString() ?? '/F1'
  // Each line placed on the page (text outside it is not read), the same 250 lines over and over.
  const line = (n: number) =>
    `1 0 0 1 10 ${20 + (n % 250)} Tm (tiny text of a hostile file, line ${n % 250}) Tj\n`
  const lines: string[] = [`BT ${fontName} 1 Tf\n`]
  let length = 0
  for (let n = 0; length < megabytes * 1024 * 1024; n++) {
    const text = line(n)
    lines.push(text)
    length += text.length - 26
  }
  lines.push('ET\n')
  const packed = deflateSync(Buffer.from(lines.join('')), { level: 9 })
  const stream = doc.context.register(
    PDFRawStream.of(doc.context.obj({ Filter: 'FlateDecode', Length: packed.length }), packed),
  )
  page.node.addContentStream(stream)
  return doc.save()
}
