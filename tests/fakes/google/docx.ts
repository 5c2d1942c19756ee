/**
 * A minimal Word (.docx) file for tests and the emulator: the three parts Word needs
 * ([Content_Types].xml, _rels/.rels, word/document.xml), one paragraph per line, in a ZIP written
 * here (stored entries, or deflated ones), so no zip library is needed to make one.
 */
import { crc32, deflateRawSync } from 'node:zlib'

const CONTENT_TYPES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`

const RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

/** A body paragraph, or one in a paragraph style (by its id, e.g. a heading: "Heading1"). */
export type DocxParagraph = string | { text: string; style: string }

function paragraphXml(p: DocxParagraph): string {
  const [text, style] = typeof p === 'string' ? [p, null] : [p.text, p.style]
  const properties = style ? `<w:pPr><w:pStyle w:val="${escapeXml(style)}"/></w:pPr>` : ''
  return `<w:p>${properties}<w:r><w:t xml:space="preserve">${escapeXml(text)}</w:t></w:r></w:p>`
}

function documentXml(paragraphs: readonly DocxParagraph[]): string {
  const body = paragraphs.map(paragraphXml)
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body.join('')}</w:body></w:document>`
}

/**
 * A ZIP: local headers, then the central directory, then its end record. Entries are stored as
 * they are, or deflated (as Word writes them; a bench builds ZIP bombs this way).
 */
export function zip(entries: readonly { name: string; data: Buffer }[], { deflate = false } = {}): Buffer {
  const locals: Buffer[] = []
  const centrals: Buffer[] = []
  let offset = 0
  for (const { name, data } of entries) {
    const nameBytes = Buffer.from(name, 'utf8')
    const crc = crc32(data)
    const packed = deflate ? deflateRawSync(data, { level: 9 }) : data
    const method = deflate ? 8 : 0
    const local = Buffer.alloc(30)
    local.writeUInt32LE(0x04034b50, 0)
    local.writeUInt16LE(20, 4) // version needed
    local.writeUInt16LE(method, 8)
    local.writeUInt32LE(crc, 14)
    local.writeUInt32LE(packed.length, 18)
    local.writeUInt32LE(data.length, 22)
    local.writeUInt16LE(nameBytes.length, 26)
    const central = Buffer.alloc(46)
    central.writeUInt32LE(0x02014b50, 0)
    central.writeUInt16LE(20, 4) // version made by
    central.writeUInt16LE(20, 6) // version needed
    central.writeUInt16LE(method, 10)
    central.writeUInt32LE(crc, 16)
    central.writeUInt32LE(packed.length, 20)
    central.writeUInt32LE(data.length, 24)
    central.writeUInt16LE(nameBytes.length, 28)
    central.writeUInt32LE(offset, 42)
    locals.push(local, nameBytes, packed)
    centrals.push(central, nameBytes)
    offset += local.length + nameBytes.length + packed.length
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

/** A .docx whose word/document.xml is `xml` as given (built elsewhere, of any size), deflated. */
export function docxFromXml(xml: Buffer): Buffer {
  return zip(
    [
      { name: '[Content_Types].xml', data: Buffer.from(CONTENT_TYPES, 'utf8') },
      { name: '_rels/.rels', data: Buffer.from(RELS, 'utf8') },
      { name: 'word/document.xml', data: xml },
    ],
    { deflate: true },
  )
}

export const DOCX_MIME = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'

const DOCUMENT_RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>`

/** word/styles.xml naming each paragraph style id, as Word writes it ("Heading1" → "heading 1"). */
function stylesXml(names: Readonly<Record<string, string>>): string {
  const styles = Object.entries(names).map(
    ([id, name]) =>
      `<w:style w:type="paragraph" w:styleId="${escapeXml(id)}"><w:name w:val="${escapeXml(name)}"/></w:style>`,
  )
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:styles xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">${styles.join('')}</w:styles>`
}

/**
 * A .docx whose body is `paragraphs`, one Word paragraph each; with `styles` (style id → name),
 * the file also carries the style definitions Word writes, so a paragraph's style has a name.
 */
export function docxFile(
  paragraphs: readonly DocxParagraph[],
  styles?: Readonly<Record<string, string>>,
): Buffer {
  const parts = [
    { name: '[Content_Types].xml', data: Buffer.from(CONTENT_TYPES, 'utf8') },
    { name: '_rels/.rels', data: Buffer.from(RELS, 'utf8') },
    { name: 'word/document.xml', data: Buffer.from(documentXml(paragraphs), 'utf8') },
  ]
  if (styles)
    parts.push(
      { name: 'word/_rels/document.xml.rels', data: Buffer.from(DOCUMENT_RELS, 'utf8') },
      { name: 'word/styles.xml', data: Buffer.from(stylesXml(styles), 'utf8') },
    )
  return zip(parts)
}
