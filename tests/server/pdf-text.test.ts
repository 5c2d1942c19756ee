import { PDFDocument, StandardFonts } from 'pdf-lib'
import { afterAll, expect, test } from 'vitest'
import { createPdfExtractor, PdfTextError } from '#server/documents/pdf-text.ts'

async function pdfWithPages(texts: string[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create()
  const font = await doc.embedFont(StandardFonts.Helvetica)
  for (const text of texts) doc.addPage([400, 300]).drawText(text, { x: 30, y: 250, size: 12, font })
  return doc.save()
}

const extractor = createPdfExtractor()
afterAll(() => extractor.close())

test('a PDF becomes one text per page, in order', async () => {
  const pages = await extractor.pages(await pdfWithPages(['First page fact.', 'Second page fact.', 'Third.']))
  expect(pages.map((p) => p.trim())).toEqual(['First page fact.', 'Second page fact.', 'Third.'])
})

test('a broken PDF fails alone with a readable reason and the next one still works', async () => {
  const broken = new TextEncoder().encode('%PDF-1.7\nthis is not really a pdf at all')
  await expect(extractor.pages(broken)).rejects.toThrow(PdfTextError)
  const pages = await extractor.pages(await pdfWithPages(['Still fine.']))
  expect(pages[0]?.trim()).toBe('Still fine.')
})

test('a PDF that takes longer than the time limit fails and the extractor recovers', async () => {
  const slow = createPdfExtractor({ timeLimitMs: 1 })
  const bytes = await pdfWithPages(Array.from({ length: 50 }, (_, i) => `Page ${i}`))
  await expect(slow.pages(bytes)).rejects.toThrow(/longer than/)
  await slow.close()
})
