/**
 * Scanned documents made from known text, for tests, the emulator and bench/ocr.ts: each page's
 * lines are typeset in a PDF (pdf-lib, a standard font, so no system font is needed), the page
 * is drawn by pdf.js on @napi-rs/canvas as a scanner would see it (150 dpi unless told), and the
 * picture becomes either an image file or the only thing on a page of a new PDF, which then has
 * no text layer at all: what OCR must read back.
 */
import { crc32, deflateSync } from 'node:zlib'
import { createCanvas } from '@napi-rs/canvas'
import { PDFDocument, StandardFonts } from 'pdf-lib'
import { createIsomorphicCanvasFactory, getDocumentProxy } from 'unpdf'

const PAGE = { width: 612, height: 792 } // US Letter, in points
export type ImageFormat = 'png' | 'jpeg' | 'webp'

async function typeset(pages: readonly (readonly string[])[], size: { width: number; height: number }) {
  const doc = await PDFDocument.create()
  const font = await doc.embedFont(StandardFonts.TimesRoman)
  for (const lines of pages) {
    const page = doc.addPage([size.width, size.height])
    lines.forEach((line, i) => {
      page.drawText(line, { x: 54, y: size.height - 72 - i * 18, size: 12, font })
    })
  }
  return doc.save()
}

/** Each page drawn at `dpi`, encoded as `format`. */
async function pictures(
  pages: readonly (readonly string[])[],
  options: { dpi?: number; format?: ImageFormat; size?: { width: number; height: number } } = {},
): Promise<Buffer[]> {
  const { dpi = 150, format = 'png', size = PAGE } = options
  const Factory = await createIsomorphicCanvasFactory(() => import('@napi-rs/canvas'))
  const pdf = await getDocumentProxy(await typeset(pages, size), { CanvasFactory: Factory } as never)
  const out: Buffer[] = []
  for (let n = 1; n <= pdf.numPages; n++) {
    const page = await pdf.getPage(n)
    const viewport = page.getViewport({ scale: dpi / 72 })
    const canvas = createCanvas(Math.ceil(viewport.width), Math.ceil(viewport.height))
    const context = canvas.getContext('2d')
    await page.render({ canvas, canvasContext: context, viewport } as never).promise
    out.push(format === 'png' ? await canvas.encode('png') : await canvas.encode(format, 90))
  }
  await pdf.cleanup()
  return out
}

/**
 * A PDF whose pages are only pictures of these lines: no text layer, as a scanner makes it.
 * `typed`: the 0-based pages that keep their text instead (a typed cover before scanned pages).
 */
export async function scannedPdf(
  pages: readonly (readonly string[])[],
  options: { dpi?: number; typed?: readonly number[] } = {},
) {
  const images = await pictures(pages, options)
  const doc = await PDFDocument.create()
  const typed = await PDFDocument.load(await typeset(pages, PAGE))
  for (const [i, png] of images.entries()) {
    if (options.typed?.includes(i)) {
      const [page] = await doc.copyPages(typed, [i])
      if (page) doc.addPage(page)
      continue
    }
    const image = await doc.embedPng(png)
    doc.addPage([PAGE.width, PAGE.height]).drawImage(image, { x: 0, y: 0, ...PAGE })
  }
  return Buffer.from(await doc.save())
}

/** A picture of these lines (a screenshot, a photo of a notice), a little wider than tall. */
export async function textImage(lines: readonly string[], format: ImageFormat = 'png'): Promise<Buffer> {
  const [image] = await pictures([lines], {
    dpi: 150,
    format,
    size: { width: 540, height: 72 + lines.length * 18 + 36 },
  })
  if (!image) throw new Error('no picture drawn')
  return image
}

/**
 * A PNG that declares `width` × `height` pixels of one colour: its rows compress to almost
 * nothing, so a few KB claim gigapixels (a decompression bomb). Only the header and a start of the
 * data are written; a reader that checks the size never decodes it.
 */
export function pngBomb(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4)
    length.writeUInt32BE(data.length)
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
    const crc = Buffer.alloc(4)
    crc.writeUInt32BE(crc32(body))
    return Buffer.concat([length, body, crc])
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header.writeUInt8(8, 8) // bit depth
  header.writeUInt8(0, 9) // greyscale
  const rows = deflateSync(Buffer.alloc(65_536))
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', rows),
    chunk('IEND', Buffer.alloc(0)),
  ])
}
