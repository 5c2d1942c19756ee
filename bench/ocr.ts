/**
 * OCR: how well and how fast the reader reads scanned pages (D74).
 * `node bench/ocr.ts [pages] [dpi]` (defaults 12 and 150): a document of known text, typeset in a
 * PDF, drawn at [dpi] as a scanner would (pdf.js on @napi-rs/canvas), and saved as a PDF of page
 * pictures only, so no text layer is left; the reader (OCR on, English) reads it back. Printed:
 * - character accuracy per page and in all: 1 − (edit distance ÷ source length), after folding
 *   runs of white space to one space (line breaks are layout, not text); the target is ≥ 95 %;
 * - pages per second, and against the baseline: the same pages typeset (their text layer read by
 *   the same reader, no OCR), measured in the same run;
 * - the reader process's CPU time (every thread: a figure the machine's other load does not
 *   change, as wall time on a shared machine does) and peak resident memory (Tesseract's worker
 *   thread is inside it), sampled every 20 ms from /proc (Linux).
 * Pages are 12 pt Times, and mix words, figures, codes and punctuation; a lower [dpi] is a worse scan.
 */
import { availableParallelism, loadavg } from 'node:os'
import { PDFDocument, StandardFonts } from 'pdf-lib'
import { createDocumentReader, type ReadDocument } from '../server/documents/reading/document-reader.ts'
import { scannedPdf } from '../tests/fakes/scans.ts'
import { readerCpuSeconds, readerRssMiB } from './lib.ts'

const pageCount = Number(process.argv[2] ?? 12)
const dpi = Number(process.argv[3] ?? 150)

const SENTENCES = [
  'The maintenance contract for the north lighthouse renews on 14 March 2027.',
  'Northwind Optics services every lens twice a year and reports within 10 days.',
  'The deposit of 4,250 euros is due when the contract is signed; the rest follows in June.',
  'Late payment costs 2% a month, capped at 18% of the invoice.',
  'Spare bulbs (type HX-440) are kept in store room B, shelf 3.',
  'Inspections: April, August and December; the keeper signs each report.',
  'Either party may end the contract with 90 days notice in writing.',
  'Questions go to the harbour office, extension 2215, weekdays 9:00 to 17:00.',
  'The reference for this agreement is LH-2027-0412 and appears on every invoice.',
  'Damage caused by storms above force 10 is not covered by this contract.',
  'The supplier keeps a log of every visit, with the date, the work done and the parts used.',
  'Prices rise each January by the consumer price index, at most 4 percent.',
]

/** Each page's lines: its number, then sentences in a page-specific order, wrapped at ~80 chars. */
function pageLines(n: number): string[] {
  const lines = [`Page ${n} of ${pageCount}`]
  for (let i = 0; i < 9; i++) lines.push(SENTENCES[(n * 5 + i * 7) % SENTENCES.length] ?? '')
  return lines
}

const pages = Array.from({ length: pageCount }, (_, i) => pageLines(i + 1))
const fold = (text: string) => text.replace(/\s+/g, ' ').trim()

/** Levenshtein distance, two rows (a page is ~800 characters: under a million steps). */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost)
    }
    previous = current
  }
  return previous[b.length] ?? 0
}

/** The same pages with a text layer, in the sizes the scan uses (the baseline). */
async function typedPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create()
  const font = await doc.embedFont(StandardFonts.TimesRoman)
  for (const lines of pages) {
    const page = doc.addPage([612, 792])
    lines.forEach((line, i) => {
      page.drawText(line, { x: 54, y: 792 - 72 - i * 18, size: 12, font })
    })
  }
  return doc.save()
}

async function measure(bytes: Uint8Array, ocr: boolean) {
  const reader = createDocumentReader({
    ocr: ocr ? { languages: 'eng', maxPages: 1000, pageTimeMs: 120_000 } : null,
    timeLimitMs: 600_000,
  })
  let peak = 0
  let cpu = 0
  const sampler = setInterval(() => {
    peak = Math.max(peak, readerRssMiB())
    cpu = Math.max(cpu, readerCpuSeconds())
  }, 20)
  const started = performance.now()
  let read: ReadDocument
  try {
    read = await reader.read('pdf', bytes)
    cpu = Math.max(cpu, readerCpuSeconds())
  } finally {
    clearInterval(sampler)
    await reader.close()
  }
  return { read, seconds: (performance.now() - started) / 1000, peak, cpu }
}

const scan = await scannedPdf(pages, { dpi })
const baseline = await measure(await typedPdf(), false)
const ocr = await measure(scan, true)

console.log(
  `${pageCount} pages scanned at ${dpi} dpi (${(scan.length / 1e6).toFixed(2)} MB), read at 200 dpi by OCR\n`,
)
console.log('| page | characters | edit distance | accuracy |')
console.log('| ---: | ---: | ---: | ---: |')
let characters = 0
let errors = 0
for (const [i, lines] of pages.entries()) {
  const source = fold(lines.join('\n'))
  const read = fold(ocr.read.sections[i]?.text ?? '')
  const distance = editDistance(source, read)
  characters += source.length
  errors += distance
  console.log(
    `| ${i + 1} | ${source.length} | ${distance} | ${(100 * (1 - distance / source.length)).toFixed(2)} % |`,
  )
}
const accuracy = 100 * (1 - errors / characters)
console.log(
  `\ncharacter accuracy: ${accuracy.toFixed(2)} % (target ≥ 95 %): ${accuracy >= 95 ? 'met' : 'NOT met'}`,
)
console.log(`pages read by OCR: ${ocr.read.ocrPages?.length ?? 0} of ${pageCount}`)
console.log('\n| read | time | pages/s | reader CPU | CPU s/page | reader peak RSS |')
console.log('| --- | ---: | ---: | ---: | ---: | ---: |')
for (const [name, m] of [
  ['baseline: the same pages typeset (text layer, no OCR)', baseline],
  ['scanned, by OCR (first page includes starting Tesseract)', ocr],
] as const) {
  console.log(
    `| ${name} | ${m.seconds.toFixed(1)} s | ${(pageCount / m.seconds).toFixed(2)} | ${m.cpu.toFixed(1)} s | ${(m.cpu / pageCount).toFixed(2)} | ${m.peak.toFixed(0)} MiB |`,
  )
}
console.log(
  `\nOCR against the text layer: ${(baseline.seconds / ocr.seconds).toFixed(3)}× the pages per second, ${(baseline.cpu / ocr.cpu).toFixed(3)}× by CPU time (load average ${loadavg()[0]?.toFixed(1)} on ${availableParallelism()} cores)`,
)
