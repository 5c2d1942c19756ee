/**
 * Hostile files: what a small file built to expand costs the reader (README D66).
 * `node bench/hostile-files.ts [xml MB] [pdf MB]` (defaults 400 and 1500):
 * - a Word file whose word/document.xml inflates to [xml MB] of XML (a ZIP bomb, ~1 MB per
 *   400 MB), and one inflating to 1,500 MB;
 * - a PDF whose page content stream inflates to [pdf MB];
 * - the baseline: a plain Word file of 2,000 paragraphs, read by the same reader the same way.
 * For each: the outcome, the time to it, and the reader process's peak resident memory (sampled
 * every 20 ms from /proc; Linux only), with the ratio to the baseline's peak. The server's own
 * process never grows with them: that is the point of the reader process.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { crc32, deflateRawSync, deflateSync } from 'node:zlib'
import { PDFDocument, PDFName, PDFRawStream, StandardFonts } from 'pdf-lib'
import { createDocumentReader, type DocumentReader } from '../server/documents/document-reader.ts'

const xmlMb = Number(process.argv[2] ?? 400)
const pdfMb = Number(process.argv[3] ?? 1500)

const WORD_NS = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main'
const CONTENT_TYPES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`
const RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`

/** A ZIP of deflated entries (local headers, central directory, end record). */
function zip(entries: { name: string; data: Buffer }[]): Buffer {
  const locals: Buffer[] = []
  const centrals: Buffer[] = []
  let offset = 0
  for (const { name, data } of entries) {
    const nameBytes = Buffer.from(name)
    const packed = deflateRawSync(data, { level: 9 })
    const crc = crc32(data) >>> 0
    const local = Buffer.alloc(30)
    local.writeUInt32LE(0x04034b50, 0)
    local.writeUInt16LE(20, 4)
    local.writeUInt16LE(8, 8)
    local.writeUInt32LE(crc, 14)
    local.writeUInt32LE(packed.length, 18)
    local.writeUInt32LE(data.length, 22)
    local.writeUInt16LE(nameBytes.length, 26)
    const central = Buffer.alloc(46)
    central.writeUInt32LE(0x02014b50, 0)
    central.writeUInt16LE(20, 4)
    central.writeUInt16LE(20, 6)
    central.writeUInt16LE(8, 10)
    central.writeUInt32LE(crc, 16)
    central.writeUInt32LE(packed.length, 20)
    central.writeUInt32LE(data.length, 24)
    central.writeUInt16LE(nameBytes.length, 28)
    central.writeUInt32LE(offset, 42)
    locals.push(local, nameBytes, packed)
    centrals.push(central, nameBytes)
    offset += 30 + nameBytes.length + packed.length
  }
  const directory = Buffer.concat(centrals)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(entries.length, 8)
  end.writeUInt16LE(entries.length, 10)
  end.writeUInt32LE(directory.length, 12)
  end.writeUInt32LE(offset, 16)
  return Buffer.concat([...locals, directory, end])
}

/** A .docx of `count` copies of one paragraph. */
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
  return zip([
    { name: '[Content_Types].xml', data: Buffer.from(CONTENT_TYPES) },
    { name: '_rels/.rels', data: Buffer.from(RELS) },
    { name: 'word/document.xml', data: xml },
  ])
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
  page.node.set(PDFName.of('Contents'), doc.context.obj([stream, page.node.get(PDFName.of('Contents'))]))
  return doc.save()
}

/** The reader processes' summed resident memory now, in MiB. */
function readerRssMiB(): number {
  let kb = 0
  for (const pid of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('reader-process.ts')) continue
      kb += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0)
    } catch {
      // ended meanwhile
    }
  }
  return kb / 1024
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
