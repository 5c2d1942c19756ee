/**
 * OCR (D74), end to end with OCR on: a scanned PDF uploaded through the spec's call is read by
 * OCR, listed as such, and the answer quotes it with its page; a photo in Drive is read; with OCR
 * off a scan fails with the reason that says so; a hostile image (a decompression bomb) fails
 * alone and the next file is read; the per-page time and page-count limits end OCR with a note,
 * never a stuck job. Few and small on purpose: OCR takes about a second a page here.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { afterAll, beforeAll, expect, test, vi } from 'vitest'
import { documentEndpoints } from '#contracts/documents.ts'
import type { App } from '#server/app.ts'
import { createDocumentReader } from '#server/documents/reading/document-reader.ts'
import { PdfTextError } from '#server/documents/reading/read-document.ts'
import { createGoogleEmulator, type GoogleEmulator } from '#tests/fakes/google/emulator.ts'
import { ADA, FIXTURE_FILES, WHITEBOARD_LINES } from '#tests/fakes/google/fixtures.ts'
import { pngBomb, scannedPdf, textImage } from '#tests/fakes/scans.ts'
import { call, createConversation, sendOk } from '../support/chat-helpers.ts'
import { connectDrive, driveEnv, ingestOk, newPerson } from '../support/drive-helpers.ts'
import { buildTestApp } from '../support/helper.ts'
import { postUpload } from '../support/upload-helpers.ts'

const OCR_ON = { languages: 'eng', maxPages: 200, pageTimeMs: 30_000 }
const CONTRACT = [
  ['Service contract', 'Northwind Optics services every lens twice a year.'],
  ['Payment terms', 'The deposit for the lighthouse lens is 4,250 euros.'],
]
/** OCR takes a second or two a page here, more on a busy machine. */
const SLOW = 60_000

let emulator: GoogleEmulator
let app: App

beforeAll(async () => {
  emulator = await createGoogleEmulator()
  app = await buildTestApp({ env: { ...driveEnv(emulator), OCR: 'on' }, googleRetry: { baseDelayMs: 1 } })
})
afterAll(async () => {
  await app.close()
  await emulator.close()
})

const { listDocuments, uploadFile } = documentEndpoints

/** The command lines of the reader processes this test process started (Linux: /proc). */
function readerCommandLines(): string[][] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .flatMap((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
        const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
        const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')
        return parent === process.pid && args.some((arg) => arg.endsWith('reader-process.ts')) ? [args] : []
      } catch {
        return [] // gone meanwhile
      }
    })
}

/** The assistant's answer to `question` in a new conversation of `person`'s. */
async function answerTo(person: { cookie: string }, question: string, conversationId?: string) {
  const id = conversationId ?? (await createConversation(app, person.cookie, 'OCR'))._id
  return (await sendOk(app, person.cookie, id, question)).aiMessage
}

test(
  'a scanned PDF uploaded is read by OCR, the library says which pages, and the answer quotes it with its page',
  async () => {
    const ada = await newPerson(app, 'ocr')
    const conversation = await createConversation(app, ada.cookie, 'Scans')
    // A typed cover page (its text layer is read as it is), then a scanned page.
    const bytes = await scannedPdf(CONTRACT, { typed: [0] })

    const response = await postUpload(app, ada, conversation._id, {
      name: 'signed-contract.pdf',
      type: 'application/pdf',
      bytes,
    })

    expect(response.statusCode).toBe(201)
    expect(uploadFile.response.parse(response.json()).data).toMatchObject({
      status: 'ready',
      pages: 2,
      ocrPages: [2],
      reason: null,
    })
    const aiMessage = await answerTo(ada, 'What is the deposit for the lighthouse lens?', conversation._id)
    expect(aiMessage.content).toContain('4,250 euros')
    expect(aiMessage.sources[0]).toMatchObject({ documentName: 'signed-contract.pdf', page: 2 })
  },
  SLOW,
)

test(
  'a photo in Drive is read by OCR and found; it is listed as read by OCR',
  async () => {
    const ada = await newPerson(app, 'ocr-drive')
    await connectDrive(app, ada, { account: ADA })

    const report = await ingestOk(app, ada)

    expect(report.added).toContain('whiteboard.png')
    expect(report.skipped.map((s) => s.name)).not.toContain('whiteboard.png')
    const library = listDocuments.response.parse(
      (await call(app, listDocuments, { cookie: ada.cookie })).json(),
    )
    expect(library.data.documents.find((d) => d.name === FIXTURE_FILES.whiteboard.name)).toMatchObject({
      status: 'ready',
      ocrPages: [1],
      pages: null,
    })
    const aiMessage = await answerTo(ada, 'When does the demo move, per the board?')
    expect(aiMessage.content).toContain('HERON-6614')
    expect(aiMessage.sources[0]).toMatchObject({ documentName: 'whiteboard.png', page: null })
    expect(WHITEBOARD_LINES[1]).toContain('HERON-6614')
  },
  SLOW,
)

test('with OCR off a scanned PDF fails with the reason that says so', async () => {
  const off = createDocumentReader({ ocr: null })
  try {
    await expect(off.pdf(await scannedPdf([CONTRACT[0] ?? []]))).rejects.toThrow(
      new PdfTextError(
        'the PDF has no text to read (its pages are scanned images, and OCR is turned off on this server)',
      ),
    )
    await expect(off.read('image', await textImage(['Any text']))).rejects.toThrow(
      'images are read by OCR, which is turned off on this server',
    )
  } finally {
    await off.close()
  }
})

test(
  'a decompression bomb and a broken image fail alone, at once; the next image is read',
  async () => {
    const reader = createDocumentReader({ ocr: OCR_ON })
    try {
      const started = performance.now()
      // 60,000 × 60,000 pixels declared in a few KB: 3.6 gigapixels, 14 GB decoded.
      await expect(reader.read('image', pngBomb(60_000, 60_000))).rejects.toThrow(
        'the image is too large to read (60000 × 60000 pixels)',
      )
      await expect(
        reader.read('image', new TextEncoder().encode('not an image at all, only words')),
      ).rejects.toThrow('the file is not a readable image')
      expect(performance.now() - started).toBeLessThan(5_000)
      const read = await reader.read('image', await textImage(['Gate code LANTERN-3021'], 'jpeg'))
      expect(read.sections[0]?.text).toContain('LANTERN-3021')
      expect(read.ocrPages).toEqual([1])
    } finally {
      await reader.close()
    }
  },
  SLOW,
)

test(
  'every page of a scan is read by OCR into its own page, in order',
  async () => {
    const scan = await scannedPdf([...CONTRACT, ['Appendix', 'Spare bulbs are kept in store room B.']], {
      dpi: 100,
    })
    const reader = createDocumentReader({ ocr: OCR_ON })
    try {
      const reading = reader.read('pdf', scan)
      // While it reads the scan, the reader process may start a thread, and load no native addon.
      const flags = await vi.waitFor(() => {
        const [found] = readerCommandLines()
        if (!found?.includes('--permission')) throw new Error('no reader process yet')
        return found
      })
      expect(flags).toContain('--allow-worker')
      expect(flags).not.toContain('--allow-addons')
      const read = await reading
      expect(read.ocrPages).toEqual([1, 2, 3])
      expect(read.note).toBeNull()
      expect(read.sections.map((section) => section.page)).toEqual([1, 2, 3])
      expect(read.sections[0]?.text).toContain('Northwind Optics')
      expect(read.sections[1]?.text).toContain('4,250 euros')
      expect(read.sections[2]?.text).toContain('store room B')
    } finally {
      await reader.close()
    }
  },
  SLOW,
)

test(
  'over the page limit, and past a page over its time limit, the rest is left unread with a note',
  async () => {
    const scan = await scannedPdf([...CONTRACT, ['Appendix', 'A third scanned page.']], { dpi: 100 })
    const few = createDocumentReader({ ocr: { ...OCR_ON, maxPages: 1 } })
    try {
      const read = await few.read('pdf', scan)
      expect(read.ocrPages).toEqual([1])
      expect(read.note).toBe('only the first 1 of its 3 scanned pages were read by OCR')
      expect(read.sections[0]?.text).toContain('Northwind Optics')
    } finally {
      await few.close()
    }
    // No page can be read in 1 ms: OCR stops at the first, and the job ends with a reason.
    const hurried = createDocumentReader({ ocr: { ...OCR_ON, pageTimeMs: 1 } })
    try {
      await expect(hurried.read('pdf', scan)).rejects.toThrow(
        "the PDF's pages are scanned images, and OCR stopped at page 1, which took longer than 0 s; the scanned pages after it were not read",
      )
      // The reader goes on with the next file.
      expect(
        (await hurried.read('html', new TextEncoder().encode('<p>Next file.</p>'))).sections[0]?.text,
      ).toBe('Next file.')
    } finally {
      await hurried.close()
    }
  },
  SLOW,
)
