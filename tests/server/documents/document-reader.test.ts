import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { PDFDocument, StandardFonts } from 'pdf-lib'
import { afterAll, expect, test, vi } from 'vitest'
import { chunkDocument } from '#server/documents/reading/chunker.ts'
import { createDocumentReader } from '#server/documents/reading/document-reader.ts'
import { DocxTextError } from '#server/documents/reading/docx-text.ts'
import { PdfTextError, pdfSections } from '#server/documents/reading/read-document.ts'
import { readerNodeFlags } from '#server/documents/reading/reader-process-flags.ts'
import { docxFile } from '#tests/fakes/google/docx.ts'
import { addPdfOutline } from '#tests/fakes/pdf-outline.ts'
import { tinyTextPdf } from '../support/tiny-text-pdf.ts'

async function pdfWithPages(texts: string[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create()
  const font = await doc.embedFont(StandardFonts.Helvetica)
  for (const text of texts) doc.addPage([400, 300]).drawText(text, { x: 30, y: 250, size: 12, font })
  return doc.save()
}

// Should the reader process ever end unexpectedly here, the run's log says why.
const reader = createDocumentReader({ onStop: (detail) => console.error('reader process stopped', detail) })
afterAll(() => reader.close())

/** Lines of text per page, and an outline (title → 0-based page index) as a PDF viewer shows it. */
async function pdfWithOutline(
  pages: string[][],
  outline: [string, number][],
  options: { named?: boolean } = {},
): Promise<Uint8Array> {
  const doc = await PDFDocument.create()
  const font = await doc.embedFont(StandardFonts.Helvetica)
  for (const lines of pages) {
    const page = doc.addPage([500, 400])
    for (const [i, line] of lines.entries()) page.drawText(line, { x: 30, y: 360 - i * 20, size: 12, font })
  }
  addPdfOutline(doc, outline, options)
  return doc.save()
}

test('a PDF becomes one section per page, in order, without headings when it has no outline', async () => {
  const sections = await reader.pdf(await pdfWithPages(['First page fact.', 'Second page fact.', 'Third.']))
  expect(sections.map((s) => [s.page, s.text.trim()])).toEqual([
    [1, 'First page fact.'],
    [2, 'Second page fact.'],
    [3, 'Third.'],
  ])
  expect(chunkDocument(sections).map((c) => c.heading)).toEqual([null, null, null])
})

test("a PDF's outline gives its passages their headings, from where each title is printed", async () => {
  const bytes = await pdfWithOutline(
    [
      ['Fleet handbook, edition 3.'],
      ['Radio', 'Every trawler carries the call sign TIDEPOOL-88.', 'Fuel', 'Refuel at Harbour 4 only.'],
      ['Fuel is paid by the cooperative.'],
      ['Safety drills happen on Mondays.'],
    ],
    [
      ['Radio', 1],
      ['Fuel', 1],
      ['Safety drills', 3],
      ['Broken bookmark', 99],
    ],
  )
  const chunks = chunkDocument(await reader.pdf(bytes))
  expect(chunks.map((c) => [c.page, c.heading, c.text.replace(/\s+/g, ' ').trim()])).toEqual([
    [1, null, 'Fleet handbook, edition 3.'],
    [2, 'Radio', 'Radio Every trawler carries the call sign TIDEPOOL-88.'],
    [2, 'Fuel', 'Fuel Refuel at Harbour 4 only.'],
    [3, 'Fuel', 'Fuel is paid by the cooperative.'],
    [4, 'Safety drills', 'Safety drills happen on Mondays.'],
  ])
})

test('outline entries that open named destinations are followed to their pages too', async () => {
  const bytes = await pdfWithOutline(
    [['Cover page.'], ['Radio', 'Call sign TIDEPOOL-88.']],
    [
      ['Cover', 0],
      ['Radio', 1],
    ],
    { named: true },
  )
  const chunks = chunkDocument(await reader.pdf(bytes))
  expect(chunks.map((c) => [c.page, c.heading])).toEqual([
    [1, 'Cover'],
    [2, 'Radio'],
  ])
})

test('an outline title that is not printed starts its section at the top of its page', () => {
  const sections = pdfSections(
    ['Intro text.', 'Chapter body without its title.\n\nSecond paragraph.'],
    [{ title: 'Chapter Two', page: 2 }],
  )
  expect(chunkDocument(sections).map((c) => [c.page, c.heading])).toEqual([
    [1, null],
    [2, 'Chapter Two'],
  ])
  expect(pdfSections(['a\u0000b'], [])).toEqual([{ text: 'ab', page: 1 }])
})

test("what is printed above the document's first outline entry opens its first section", () => {
  const sections = pdfSections(
    ['Fleet handbook\nRadio\nCall sign TIDEPOOL-88.\n\nFuel\nRefuel at Harbour 4.', 'More on fuel.'],
    [
      { title: 'Radio', page: 1 },
      { title: 'Fuel', page: 1 },
    ],
  )
  expect(chunkDocument(sections).map((c) => [c.page, c.heading, c.text])).toEqual([
    [1, 'Radio', 'Fleet handbook\nRadio\nCall sign TIDEPOOL-88.'],
    [1, 'Fuel', 'Fuel\nRefuel at Harbour 4.'],
    [2, 'Fuel', 'More on fuel.'],
  ])
})

test('a title printed across a line break, and in other letter case, is still found', () => {
  const [section] = pdfSections(
    ['Terms\n\nBefore.\n\nRETURNS AND\nREFUNDS within 30 days.'],
    [
      { title: 'Terms', page: 1 },
      { title: 'Returns and refunds', page: 1 },
    ],
  )
  expect(section?.paragraphs).toEqual([
    { text: 'Terms', heading: 'Terms' },
    { text: 'Before.', heading: null },
    { text: 'RETURNS AND\nREFUNDS within 30 days.', heading: 'Returns and refunds' },
  ])
})

test('a PDF without any text fails with a reason', async () => {
  await expect(reader.pdf(await pdfWithPages(['', '']))).rejects.toThrow(
    'the PDF has no text to read (its pages are scanned images, and OCR is turned off on this server)',
  )
})

test('a broken PDF fails alone with a readable reason and the next one still works', async () => {
  const broken = new TextEncoder().encode('%PDF-1.7\nthis is not really a pdf at all')
  await expect(reader.pdf(broken)).rejects.toThrow(PdfTextError)
  // A Node Buffer (what a download gives) is read like a Uint8Array.
  const sections = await reader.pdf(Buffer.from(await pdfWithPages(['Still fine.'])))
  expect(sections[0]?.text.trim()).toBe('Still fine.')
})

test('a PDF that takes longer than the time limit fails and the extractor recovers', async () => {
  const slow = createDocumentReader({ timeLimitMs: 1 })
  const bytes = await pdfWithPages(Array.from({ length: 50 }, (_, i) => `Page ${i}`))
  await expect(slow.pdf(bytes)).rejects.toThrow(/longer than/)
  await slow.close()
})

test('a Word file is read in the reader process too, with its heading styles; a broken one fails alone', async () => {
  const [section] = await reader.docx(
    docxFile([{ text: 'Radio', style: 'Heading1' }, 'Call sign TIDEPOOL-88.']),
  )
  expect(section?.paragraphs).toEqual([
    { text: 'Radio', heading: 'Radio' },
    { text: 'Call sign TIDEPOOL-88.', heading: null },
  ])
  await expect(reader.docx(Buffer.from('not a zip at all'))).rejects.toThrow(
    new DocxTextError('the file is not a readable Word document'),
  )
  expect(await reader.pdf(await pdfWithPages(['Still fine.']))).toHaveLength(1)
})

test('a file that needs more memory than the ceiling fails alone, and the next one is read', async () => {
  const stops: { exit: string; stderr: string }[] = []
  const small = createDocumentReader({ memoryLimitMb: 64, onStop: (detail) => stops.push(detail) })
  // 200,000 paragraphs: a few MB of XML (a ZIP bomb's expanded size, in miniature), far more
  // than 64 MB once parsed.
  const huge = docxFile(
    Array.from({ length: 200_000 }, (_, i) => `Paragraph ${i} of a very long generated report.`),
  )
  await expect(small.docx(huge)).rejects.toThrow(new DocxTextError('the Word document is too large to read'))
  // The operator is told why the process ended (V8's own words).
  expect(stops).toHaveLength(1)
  expect(stops[0]?.stderr).toMatch(/out of memory|heap limit/i)
  const [section] = await small.docx(docxFile(['Short and fine.']))
  expect(section?.text).toBe('Short and fine.')
  await small.close()
  // Filling a 64 MB heap until V8 gives up takes a child process 10–20 s of CPU on a busy machine.
}, 60_000)

/** The reader processes this test process started (Linux: read from /proc). */
function readerProcesses(): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
        const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
        return (
          ppid === process.pid && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('reader-process.ts')
        )
      } catch {
        return false // gone meanwhile
      }
    })
    .map(Number)
}

test.skipIf(!existsSync('/proc/self/environ'))(
  "the reader process gets none of the server's environment, and the system caps all its memory",
  async () => {
    process.env.READER_TEST_SECRET = 'correct-horse-battery-staple'
    const own = createDocumentReader({ memoryLimitMb: 100 })
    try {
      expect(await own.pdf(await pdfWithPages(['Read without secrets.']))).toHaveLength(1)
      const pids = readerProcesses()
      expect(pids.length).toBeGreaterThan(0)
      for (const pid of pids) {
        const environ = readFileSync(`/proc/${pid}/environ`, 'utf8')
        expect(environ).not.toContain('correct-horse-battery-staple')
        expect(environ).not.toContain('PATH=')
        // Started under Node's permission model (what it may read is checked below).
        expect(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')).toContain('--permission')
      }
      // Where prlimit exists (it does on Debian), the heap ceiling plus 1 GB for Node's own
      // reservations and the parsers' array buffers, which V8's heap flag does not count.
      if (existsSync('/usr/bin/prlimit')) {
        const limits = pids.map(
          (pid) => /^Max data size\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/limits`, 'utf8'))?.[1],
        )
        expect(limits).toContain(String((100 + 1024) * 1024 * 1024))
      }
    } finally {
      delete process.env.READER_TEST_SECRET
      await own.close()
    }
  },
)

test("under the reader's flags Node reads its code and packages, but no other file, and writes nothing", () => {
  // A file like the data directory's app secret, outside what the reader may read.
  const dir = mkdtempSync(path.join(tmpdir(), 'reader-permission-'))
  const secret = path.join(dir, 'app-secret')
  writeFileSync(secret, 'correct-horse-battery-staple')
  const own = path.resolve(import.meta.dirname, '../../../server/documents/reading/chunker.ts')
  const probe = `
    const fs = require('node:fs')
    const tryTo = (what, act) => { try { act(); return what + ': allowed' } catch (e) { return what + ': ' + e.code } }
    console.log([
      tryTo('own code', () => fs.readFileSync(${JSON.stringify(own)})),
      tryTo('package', () => require.resolve('mammoth') && require('mammoth')),
      tryTo('secret', () => fs.readFileSync(${JSON.stringify(secret)})),
      tryTo('write', () => fs.writeFileSync(${JSON.stringify(path.join(dir, 'out'))}, 'x')),
      tryTo('spawn', () => require('node:child_process').execFileSync('true')),
    ].join('\\n'))`
  try {
    const out = execFileSync(process.execPath, [...readerNodeFlags(128), '-e', probe], {
      cwd: path.resolve(import.meta.dirname, '../../../server/documents'),
      encoding: 'utf8',
      env: {},
    })
    expect(out.trim().split('\n')).toEqual([
      'own code: allowed',
      'package: allowed',
      'secret: ERR_ACCESS_DENIED',
      'write: ERR_ACCESS_DENIED',
      'spawn: ERR_ACCESS_DENIED',
    ])
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('with OCR on the reader may also start a thread, and nothing more: no native addon either', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'reader-permission-'))
  const secret = path.join(dir, 'app-secret')
  writeFileSync(secret, 'correct-horse-battery-staple')
  const canvasAddon = createRequire(import.meta.url).resolve('@napi-rs/canvas')
  const languageData = path.join(
    path.dirname(createRequire(import.meta.url).resolve('@tesseract.js-data/eng')),
    '4.0.0_best_int/eng.traineddata.gz',
  )
  const probe = `
    const fs = require('node:fs')
    const tryTo = (what, act) => { try { act(); return what + ': allowed' } catch (e) { return what + ': ' + (e.code ?? e.message) } }
    console.log([
      tryTo('thread', () => new (require('node:worker_threads').Worker)('1', { eval: true }).terminate()),
      tryTo('addon', () => require(${JSON.stringify(canvasAddon)})),
      tryTo('language data', () => fs.readFileSync(${JSON.stringify(languageData)})),
      tryTo('secret', () => fs.readFileSync(${JSON.stringify(secret)})),
      tryTo('write', () => fs.writeFileSync(${JSON.stringify(path.join(dir, 'out'))}, 'x')),
      tryTo('spawn', () => require('node:child_process').execFileSync('true')),
    ].join('\\n'))`
  const run = (ocr: boolean) =>
    execFileSync(process.execPath, [...readerNodeFlags(128, { ocr }), '-e', probe], {
      cwd: path.resolve(import.meta.dirname, '../../../server/documents'),
      encoding: 'utf8',
      env: {},
      stdio: ['ignore', 'pipe', 'ignore'],
    })
      .trim()
      .split('\n')
  try {
    expect(readerNodeFlags(128, { ocr: true })).toEqual([
      ...readerNodeFlags(128, { ocr: false }),
      '--allow-worker',
    ])
    const [thread, addon, ...rest] = run(true)
    expect(thread).toBe('thread: allowed')
    // Not loaded (the addon's loader words the refusal its own way; D103).
    expect(addon).toMatch(/^addon: /)
    expect(addon).not.toBe('addon: allowed')
    expect(rest).toEqual([
      'language data: allowed',
      'secret: ERR_ACCESS_DENIED',
      'write: ERR_ACCESS_DENIED',
      'spawn: ERR_ACCESS_DENIED',
    ])
    // Without OCR no thread either.
    expect(run(false)[0]).toBe('thread: ERR_ACCESS_DENIED')
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test("files are read in turns across people: one person's queued files never keep another's waiting", async () => {
  const one = createDocumentReader({ processes: 1 })
  const order: string[] = []
  const read = (owner: string, name: string) => one.pdf(bytes, { owner }).then(() => order.push(name))
  const bytes = await pdfWithPages(Array.from({ length: 20 }, (_, i) => `Page ${i} of a report.`))
  const reads = [read('ada', 'ada 1'), read('ada', 'ada 2'), read('ada', 'ada 3'), read('bob', 'bob 1')]
  await Promise.all(reads)
  await one.close()
  expect(order).toEqual(['ada 1', 'bob 1', 'ada 2', 'ada 3'])
})

test("with two reader processes another person's small file is read beside one person's slow file", async () => {
  const two = createDocumentReader({ processes: 2 })
  const order: string[] = []
  const slow = two.pdf(await tinyTextPdf(3), { owner: 'ada' }).then(() => order.push('ada slow'))
  const small = two
    .pdf(await pdfWithPages(['A small file.']), { owner: 'bob' })
    .then(() => order.push('bob small'))
  await Promise.all([slow, small])
  await two.close()
  expect(order).toEqual(['bob small', 'ada slow'])
}, 60_000)

test.runIf(existsSync('/proc/self/stat'))(
  'warming starts one reader process before any file, and the first file is read by it',
  async () => {
    const warmed = createDocumentReader({ processes: 2 })
    const before = readerProcesses()
    warmed.warm()
    warmed.warm()
    // A child shows its own command line only once it has exec'd node: until then it reads as
    // this process's, so the new ones are looked for until one appears (CI once looked too soon).
    const started = await vi.waitFor(
      () => {
        const now = readerProcesses().filter((pid) => !before.includes(pid))
        expect(now).toHaveLength(1)
        return now
      },
      { timeout: 5_000, interval: 20 },
    )
    const sections = await warmed.pdf(await pdfWithPages(['Read by the warm process.']))
    expect(sections.map((s) => s.text.trim())).toEqual(['Read by the warm process.'])
    expect(readerProcesses().filter((pid) => !before.includes(pid))).toEqual(started)
    await warmed.close()
  },
)
