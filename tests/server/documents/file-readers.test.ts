/**
 * The reader's spreadsheets, presentations and web pages (D75), read in the reader process:
 * every tab of a workbook a section named after it, rows repeating their headers, formulas as
 * their saved values, the row and cell bounds with a note; slides in the show's order with their
 * titles; a web page's headings and no scripts. Broken files fail alone with a reason.
 */
import { fork } from 'node:child_process'
import { serialize } from 'node:v8'
import { afterAll, expect, test } from 'vitest'
import { chunkDocument } from '#server/documents/reading/chunker.ts'
import {
  CUT_REASONS,
  MAX_DOCUMENT_CHARS,
  MAX_DOCUMENT_PASSAGES,
} from '#server/documents/reading/document-bounds.ts'
import { createDocumentReader } from '#server/documents/reading/document-reader.ts'
import { htmlSection } from '#server/documents/reading/html-text.ts'
import type { ReaderJob, ReaderResult } from '#server/documents/reading/reader-process.ts'
import { readerNodeFlags } from '#server/documents/reading/reader-process-flags.ts'
import { MAX_SHEET_CELLS, MAX_SHEET_ROWS } from '#server/documents/reading/spreadsheet-text.ts'
import { docxFile } from '#tests/fakes/google/docx.ts'
import { pptxFile } from '#tests/fakes/google/pptx.ts'
import { workbookFile } from '#tests/fakes/google/xlsx.ts'
import { sharedStringWorkbook } from '#tests/fakes/shared-string-workbook.ts'

const reader = createDocumentReader({ onStop: (detail) => console.error('reader process stopped', detail) })
afterAll(() => reader.close())

const utf8 = (text: string) => new TextEncoder().encode(text)

test('every tab of a workbook is a section named after it; rows repeat their headers; formulas give their values', async () => {
  const book = workbookFile([
    { name: 'Summary', rows: [['Budget 2027']] },
    {
      name: 'Revenue',
      rows: [
        ['Region', 'Quarter', 'Revenue'],
        ['North', 'Q3', 1200],
        ['South', 'Q3', { formula: 'C2*2', value: 2400 }],
      ],
    },
    {
      name: 'Forecast',
      rows: [
        ['Source', '', 'Expected'],
        ['Grant', 'GR-7', 5000],
      ],
    },
  ])

  const { sections, note } = await reader.read('workbook', book)

  expect(note).toBeNull()
  expect(sections.map((s) => s.paragraphs?.map((p) => p.text))).toEqual([
    ['Summary', 'Budget 2027'],
    ['Revenue', 'Region: North · Quarter: Q3 · Revenue: 1200', 'Region: South · Quarter: Q3 · Revenue: 2400'],
    // A column without a header is named by its letter.
    ['Forecast', 'Source: Grant · Column B: GR-7 · Expected: 5000'],
  ])
  // Each tab's passages carry its name as their heading.
  const chunks = chunkDocument(sections)
  expect(chunks.find((c) => c.text.includes('South'))?.heading).toBe('Revenue')
  expect(chunks.find((c) => c.text.includes('GR-7'))?.heading).toBe('Forecast')
})

test('an OpenDocument spreadsheet and a CSV file are tables too; a CSV keeps its cells as written', async () => {
  const ods = await reader.read(
    'workbook',
    workbookFile(
      [
        {
          name: 'Stock',
          rows: [
            ['Item', 'Count'],
            ['Lens', 7],
          ],
        },
      ],
      'ods',
    ),
  )
  expect(ods.sections[0]?.paragraphs?.map((p) => p.text)).toEqual(['Stock', 'Item: Lens · Count: 7'])
  // Latin-1, as a spreadsheet program of some locales saves it; "1,200" and "03/04" stay as written.
  const csv = Buffer.from('Name,Amount,Due\nJosé,"1,200",03/04\n', 'latin1')
  const { sections } = await reader.read('csv', csv)
  // A CSV has one table and no tab name: no heading.
  expect(sections[0]?.paragraphs).toEqual([
    { text: 'Name: José · Amount: 1,200 · Due: 03/04', heading: null },
  ])
})

test('past the row bound the rest of a spreadsheet is left out, with a note that says so', async () => {
  const rows = Array.from({ length: MAX_SHEET_ROWS + 5 }, (_, i) => `row-${i + 1},${i}`)
  const { sections, note } = await reader.read('csv', utf8(`Key,Value\n${rows.join('\n')}\n`))
  const texts = sections.flatMap((s) => s.paragraphs ?? []).map((p) => p.text)
  expect(texts).toHaveLength(MAX_SHEET_ROWS)
  expect(texts.at(-1)).toBe(`Key: row-${MAX_SHEET_ROWS} · Value: ${MAX_SHEET_ROWS - 1}`)
  expect(note).toBe('only the first 20,000 rows of the spreadsheet were read')
})

test('past the cell bound too', async () => {
  const width = 100
  const header = Array.from({ length: width }, (_, i) => `c${i}`).join(',')
  const row = Array.from({ length: width }, (_, i) => `v${i}`).join(',')
  const count = Math.ceil(MAX_SHEET_CELLS / width) + 10
  const { sections, note } = await reader.read('csv', utf8(`${header}\n${`${row}\n`.repeat(count)}`))
  expect(sections.flatMap((s) => s.paragraphs ?? [])).toHaveLength(MAX_SHEET_CELLS / width)
  expect(note).toBe('only the first 200,000 cells of the spreadsheet were read')
})

test('a PowerPoint file is one section per slide, in the order of the show, headed with its number and title', async () => {
  const deck = pptxFile([
    { title: 'Roadmap', lines: ['Three launches this year.'] },
    { lines: ['The beta opens on 2 June with code PPTX-5150.'] },
  ])
  const { sections } = await reader.read('pptx', deck)
  expect(sections.map((s) => s.paragraphs?.map((p) => [p.text, p.heading]))).toEqual([
    [
      ['Slide 1: Roadmap', 'Slide 1: Roadmap'],
      ['Three launches this year.', null],
    ],
    [
      ['Slide 2', 'Slide 2'],
      ['The beta opens on 2 June with code PPTX-5150.', null],
    ],
  ])
})

test('a web page keeps its headings and its text, not its scripts or styles', async () => {
  const page = utf8(
    '<!doctype html><html><head><title>FAQ</title><style>p{color:red}</style><script>alert(1)</script></head>' +
      '<body><h1>Questions</h1><p>Opening hours: <b>9&ndash;17</b>.</p><h2>Parking</h2><ul><li>Gate code PARK-88</li></ul></body></html>',
  )
  const { sections } = await reader.read('html', page)
  expect(sections[0]?.paragraphs).toEqual([
    { text: 'FAQ', heading: null },
    { text: 'Questions', heading: 'Questions' },
    { text: 'Opening hours: 9–17.', heading: null },
    { text: 'Parking', heading: 'Parking' },
    { text: 'Gate code PARK-88', heading: null },
  ])
})

test('broken spreadsheets, presentations and empty pages fail alone with a reason', async () => {
  await expect(reader.read('workbook', utf8('not a workbook at all'))).rejects.toThrow(
    'the file is not a readable spreadsheet',
  )
  await expect(reader.read('pptx', utf8('PK not really a zip'))).rejects.toThrow(
    'the file is not a readable PowerPoint presentation',
  )
  await expect(reader.read('html', utf8('<script>only()</script>'))).rejects.toThrow(
    'the web page has no text to read',
  )
  expect((await reader.read('csv', utf8('a,b\n1,2\n'))).sections).toHaveLength(1)
})

/**
 * What the reader process sends the server for one file, read by the same script the server
 * forks, and its size on the channel (the channel's advanced serialization is V8's).
 */
async function sentByReader(job: Omit<ReaderJob, 'id'>): Promise<{ result: ReaderResult; bytes: number }> {
  const script = new URL('../../../server/documents/reading/reader-process.ts', import.meta.url)
  const child = fork(script, [], {
    execArgv: readerNodeFlags(512),
    serialization: 'advanced',
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    env: {},
  })
  try {
    const result = await new Promise<ReaderResult>((resolve, reject) => {
      child.once('message', (message) => resolve(message as ReaderResult))
      child.once('exit', (code) => reject(new Error(`the reader process ended (${code})`)))
      child.send({ id: 1, ...job } satisfies ReaderJob)
    })
    return { result, bytes: serialize(result).length }
  } finally {
    child.kill('SIGKILL')
  }
}

const textOf = (sections: readonly { text: string }[]) => sections.reduce((n, s) => n + s.text.length, 0)

test('a 5 KB spreadsheet whose rows all show one long shared string sends the server no more than the text bound', async () => {
  // 120 rows × 2 cells of one 1 MB string: read whole, ~250 MB of text crossed to the server.
  const bytes = await sharedStringWorkbook(120, 1_000_000)
  expect(bytes.length).toBeLessThan(8 * 1024)

  const { result, bytes: sent } = await sentByReader({
    kind: 'workbook',
    bytes,
    ocr: null,
    maxChars: MAX_DOCUMENT_CHARS,
  })

  expect(result).toMatchObject({ ok: true, note: CUT_REASONS.text })
  // The bound's characters, and the message's own few hundred bytes (on main: ~250 MB).
  expect(sent).toBeLessThan(MAX_DOCUMENT_CHARS + 4096)
  // The bound's worth of text did cross: the file is read up to it, not refused.
  expect(sent).toBeGreaterThan(0.9 * MAX_DOCUMENT_CHARS)
}, 60_000)

test('every kind of file the reader reads stops at the text bound in the reader, and says so', async () => {
  const maxChars = 2_000
  const small = createDocumentReader({ maxChars })
  const line = (i: number) => `Paragraph ${i} of a long file, with a few words more to read.`
  const lines = Array.from({ length: 200 }, (_, i) => line(i))
  try {
    const files = {
      docx: docxFile(lines),
      html: utf8(`<h1>Long page</h1>${lines.map((l) => `<p>${l}</p>`).join('')}`),
      csv: utf8(`Key,Value\n${lines.map((l, i) => `${i},${l}`).join('\n')}\n`),
      pptx: pptxFile(lines.map((l) => ({ title: l, lines: [l] }))),
    } as const
    for (const [kind, bytes] of Object.entries(files)) {
      const read = await small.read(kind as keyof typeof files, bytes)
      expect({ kind, note: read.note }).toEqual({ kind, note: CUT_REASONS.text })
      expect(textOf(read.sections)).toBeLessThanOrEqual(maxChars)
      expect(textOf(read.sections)).toBeGreaterThan(maxChars / 2)
      // The text is each section's paragraphs, as the server chunks them.
      for (const section of read.sections)
        expect(section.text).toBe(section.paragraphs?.map((p) => p.text).join('\n\n'))
    }
  } finally {
    await small.close()
  }
})

test('a web page of headings stops at the passage bound in the reader, and says so', async () => {
  const page = Array.from(
    { length: MAX_DOCUMENT_PASSAGES + 2_000 },
    (_, i) => `<h2>Part ${i}</h2><p>word</p>`,
  )

  const { result } = await sentByReader({
    kind: 'html',
    bytes: utf8(page.join('')),
    ocr: null,
    maxChars: MAX_DOCUMENT_CHARS,
  })

  expect(result).toMatchObject({ ok: true, kind: 'sections', note: CUT_REASONS.passages })
  expect(result.ok && result.kind === 'sections' && result.sections[0]?.paragraphs?.length).toBeLessThan(
    2 * (MAX_DOCUMENT_PASSAGES + 2),
  )
  // The server finds the same first passages as in the whole page, and more: it cuts there itself.
  const read = await reader.read('html', utf8(page.join('')))
  const chunks = chunkDocument(read.sections)
  expect(chunks.length).toBeGreaterThan(MAX_DOCUMENT_PASSAGES)
  expect(chunks.length).toBeLessThan(MAX_DOCUMENT_PASSAGES + 3)
  const whole = chunkDocument([htmlSection(page.join(''))], { markdown: false, limit: MAX_DOCUMENT_PASSAGES })
  expect(chunks.slice(0, MAX_DOCUMENT_PASSAGES)).toEqual(whole)
})
