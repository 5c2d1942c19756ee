/**
 * A PDF's passages read as sentences, not as its printed lines (issue 40, item 9): a line break
 * inside a sentence becomes a space, a word hyphenated at a line's end is whole again (a real
 * hyphen stays), and a heading is a paragraph of its own, not run into the text under it.
 */
import { PDFDocument, StandardFonts } from 'pdf-lib'
import { afterAll, expect, test } from 'vitest'
import { chunkDocument } from '#server/documents/reading/chunker.ts'
import { createDocumentReader } from '#server/documents/reading/document-reader.ts'
import { joinPdfLines } from '#server/documents/reading/pdf-lines.ts'

const reader = createDocumentReader({ onStop: (detail) => console.error('reader process stopped', detail) })
afterAll(() => reader.close())

/** One page, each line printed below the one before, as a PDF lays out a paragraph. */
async function pdfOfLines(lines: string[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create()
  const font = await doc.embedFont(StandardFonts.Helvetica)
  const page = doc.addPage([500, 400])
  for (const [i, line] of lines.entries()) page.drawText(line, { x: 30, y: 360 - i * 16, size: 11, font })
  return doc.save()
}

test("a PDF's passage joins the lines of its sentences and its hyphenated words, and keeps its heading apart", async () => {
  const bytes = await pdfOfLines([
    'Pump maintenance',
    'Before any work on the pump, the power is turned',
    'off at the main switch. The procedure is docu-',
    'mented in the well-known blue binder kept by the Anglo-',
    'Saxon archive.',
    'Every step is signed.',
  ])

  const passages = chunkDocument(await reader.pdf(bytes)).map((c) => c.text)

  expect(passages).toEqual([
    [
      'Pump maintenance',
      'Before any work on the pump, the power is turned off at the main switch. The procedure is documented in the well-known blue binder kept by the Anglo-Saxon archive.\nEvery step is signed.',
    ].join('\n\n'),
  ])
})

test('list items, blank lines and a line ending a sentence keep their breaks', () => {
  expect(joinPdfLines('Checks:\n• the valve is\nclosed\n• the lid is on\n\nDone. Next')).toBe(
    'Checks:\n• the valve is closed\n• the lid is on\n\nDone. Next',
  )
  // Too little to tell a heading from a sentence going on before a name: the break stays.
  expect(joinPdfLines('Call the office at\nMill Lane.')).toBe('Call the office at\nMill Lane.')
})
