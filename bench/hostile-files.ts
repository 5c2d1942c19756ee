/**
 * Hostile files: what a small file built to expand costs the reader (D66).
 * `node bench/hostile-files.ts [xml MB] [pdf MB]` (defaults 400 and 1500):
 * - a Word file whose word/document.xml inflates to [xml MB] of XML (a ZIP bomb, ~1 MB per
 *   400 MB), and one inflating to 1,500 MB;
 * - a PDF whose page content stream inflates to [pdf MB];
 * - the baseline: a plain Word file of 2,000 paragraphs, read by the same reader the same way.
 * For each: the outcome, the time to it, and the reader process's peak resident memory (sampled
 * every 20 ms from /proc; Linux only), with the ratio to the baseline's peak. The server's own
 * process never grows with them: that is the point of the reader process.
 */
import { deflateSync } from 'node:zlib'
import { PDFDocument, PDFRawStream, StandardFonts } from 'pdf-lib'
import { createDocumentReader, type DocumentReader } from '../server/documents/reading/document-reader.ts'
import { docxFromXml } from '../tests/fakes/google/docx.ts'
import { readerRssMiB } from './lib.ts'

const xmlMb = Number(process.argv[2] ?? 400)
const pdfMb = Number(process.argv[3] ?? 1500)

const WORD_NS = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main'

/** A .docx of `count` copies of one paragraph (built as bytes: a string could not hold 1.5 GB). */
function wordFile(count: number, text: string): Buffer {
  const paragraph = Buffer.from(`<w:p><w:r><w:t>${text}</w:t></w:r></w:p>`)
  const head = Buffer.from(
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="${WORD_NS}"><w:body>`,
  )
  const tail = Buffer.from('</w:body></w:document>')
  const xml = Buffer.allocUnsafe(head.length + count * paragraph.length + tail.length)
  head.copy(xml, 0)
  for (let i = 0; i < count; i++) paragraph.copy(xml, head.length + i * paragraph.length)
  tail.copy(xml, xml.length - tail.length)
  return docxFromXml(xml)
}

/** A Word file whose XML inflates to about `mb` MB. */
function zipBomb(mb: number): Buffer {
  const text = 'a'.repeat(1000)
  return wordFile(Math.ceil((mb * 1024 * 1024) / (text.length + 37)), text)
}

/** A one-page PDF with a line of text and a content stream that inflates to `mb` MB of spaces. */
async function pdfBomb(mb: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create()
  const font = await doc.embedFont(StandardFonts.Helvetica)
  const page = doc.addPage([400, 300])
  page.drawText('A page with a very large content stream.', { x: 30, y: 250, size: 12, font })
  const packed = deflateSync(Buffer.alloc(mb * 1024 * 1024, ' '), { level: 9 })
  const stream = doc.context.register(
    PDFRawStream.of(doc.context.obj({ Filter: 'FlateDecode', Length: packed.length }), packed),
  )
  page.node.addContentStream(stream)
  return doc.save()
}

async function measure(read: (reader: DocumentReader) => Promise<unknown>) {
  const reader = createDocumentReader()
  let peak = 0
  const sampler = setInterval(() => {
    peak = Math.max(peak, readerRssMiB())
  }, 20)
  const started = performance.now()
  let outcome: string
  try {
    await read(reader)
    outcome = 'read'
  } catch (error) {
    outcome = `failed: ${(error as Error).message}`
  }
  const seconds = (performance.now() - started) / 1000
  clearInterval(sampler)
  await reader.close()
  return { outcome, seconds, peak }
}

const plain = wordFile(2000, 'A plain paragraph of an ordinary report, as a person writes it.')
const cases: [string, number, (reader: DocumentReader) => Promise<unknown>][] = [
  ['baseline: plain .docx, 2,000 paragraphs', plain.length, (r) => r.docx(plain)],
]
const bomb = zipBomb(xmlMb)
cases.push([`ZIP bomb .docx, ${xmlMb} MB of XML`, bomb.length, (r) => r.docx(bomb)])
const bigBomb = zipBomb(1500)
cases.push(['ZIP bomb .docx, 1,500 MB of XML', bigBomb.length, (r) => r.docx(bigBomb)])
const pdf = await pdfBomb(pdfMb)
cases.push([`PDF bomb, a content stream of ${pdfMb} MB`, pdf.length, (r) => r.pdf(pdf)])

console.log('| file | size | outcome | time | reader peak RSS | × baseline |')
console.log('| --- | ---: | --- | ---: | ---: | ---: |')
let baseline = 0
for (const [name, size, read] of cases) {
  const { outcome, seconds, peak } = await measure(read)
  baseline ||= peak
  console.log(
    `| ${name} | ${size < 1e6 ? `${(size / 1e3).toFixed(0)} KB` : `${(size / 1e6).toFixed(2)} MB`} | ${outcome} | ${seconds.toFixed(1)} s | ${peak.toFixed(0)} MiB | ${(peak / baseline).toFixed(1)} |`,
  )
}
