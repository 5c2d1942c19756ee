/**
 * A scanned page's own picture for OCR (D103), without a canvas: pdf.js decodes the page's
 * images, and the largest is a PNM file Tesseract's image library reads.
 */
import { PDFDocument } from 'pdf-lib'
import { getDocumentProxy } from 'unpdf'
import { expect, test } from 'vitest'
import { pageImage, toPnm } from '#server/documents/reading/page-image.ts'
import { textImage } from '#tests/fakes/scans.ts'

const NO_CANVAS = { isOffscreenCanvasSupported: false, isImageDecoderSupported: false }
const headerOf = (pnm: Uint8Array) => new TextDecoder().decode(pnm.slice(0, 20)).split('\n').slice(0, 3)

test("a page's largest image comes out as its pixels, a JPEG scan's too, and a page of none gives nothing", async () => {
  const doc = await PDFDocument.create()
  const large = await doc.embedJpg(await textImage(['Gate code LANTERN-3021'], 'jpeg'))
  const small = await doc.embedPng(await textImage(['stamp']))
  const page = doc.addPage([612, 792])
  page.drawImage(small, { x: 400, y: 700, width: 100, height: 30 })
  page.drawImage(large, { x: 0, y: 400, width: 540, height: 126 })
  doc.addPage([612, 792]).drawRectangle({ x: 10, y: 10, width: 100, height: 100 })
  const pdf = await getDocumentProxy(await doc.save(), NO_CANVAS as never)

  const scan = await pageImage((await pdf.getPage(1)) as never)
  const none = await pageImage((await pdf.getPage(2)) as never)

  expect(scan && headerOf(scan)).toEqual(['P6', `${large.width} ${large.height}`, '255'])
  expect(scan?.length).toBe(
    headerOf(scan as Uint8Array).join('\n').length + 1 + large.width * large.height * 3,
  )
  expect(none).toBeNull()
})

test('black-and-white pixels keep their sense (pdf.js: 1 is white; PBM: 1 is black), rows padded to a byte', () => {
  // 10 × 2 pixels: the first row black then white, the second all white.
  const pnm = toPnm({
    width: 10,
    height: 2,
    kind: 1,
    data: new Uint8Array([0b00000111, 0b11000000, 255, 255]),
  })
  const body = pnm.slice(pnm.length - 4)

  expect(headerOf(pnm).slice(0, 2)).toEqual(['P4', '10 2'])
  expect([...body]).toEqual([0b11111000, 0b00111111, 0, 0])
})

test('colour with transparency is laid on white', () => {
  const pnm = toPnm({ width: 2, height: 1, kind: 3, data: new Uint8Array([0, 0, 0, 255, 0, 0, 0, 0]) })

  expect([...pnm.slice(pnm.length - 6)]).toEqual([0, 0, 0, 255, 255, 255])
})
