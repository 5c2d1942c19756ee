/**
 * The exported conversation as a PDF (pdfkit, server side; loaded on the first PDF export so the
 * server's start does not pay for it). DejaVu Sans is embedded, so Latin, Greek and Cyrillic
 * text prints as written (pdfkit's built-in fonts know Latin-1 only); scripts DejaVu lacks
 * (Chinese, Japanese, Korean…) print as empty boxes: a limit the Markdown export does not have.
 * Answers are Markdown: headings, lists and code blocks keep their shape, emphasis marks go.
 */
import { createRequire } from 'node:module'
import { httpErrors } from '@fastify/sensible'
import { EXPORT_MESSAGES, type ExportModel, noteLocation, withNotes } from './conversation-export.ts'
import { SAFE_LINK } from './markdown-safety.ts'

/** Characters of text a PDF export lays out at most (about 400 pages); Markdown has no such limit. */
export const PDF_EXPORT_MAX_CHARS = 1_000_000

const require = createRequire(import.meta.url)
const FONTS = {
  regular: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'),
  bold: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf'),
  mono: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSansMono.ttf'),
}

const MUTED = '#555555'

export async function toPdf(model: ExportModel): Promise<Buffer> {
  const size =
    model.title.length +
    model.turns.reduce((n, t) => n + t.text.length, 0) +
    model.notes.reduce((n, note) => n + note.quote.length + note.documentName.length, 0)
  if (size > PDF_EXPORT_MAX_CHARS) throw httpErrors.payloadTooLarge(EXPORT_MESSAGES.tooLong)
  const { default: PDFDocument } = await import('pdfkit')
  const doc = new PDFDocument({
    size: 'A4',
    margin: 56,
    info: { Title: model.title, Creator: 'DocChat' },
    autoFirstPage: true,
  })
  doc.registerFont('regular', FONTS.regular)
  doc.registerFont('bold', FONTS.bold)
  doc.registerFont('mono', FONTS.mono)
  const chunks: Buffer[] = []
  doc.on('data', (chunk: Buffer) => chunks.push(chunk))
  const ended = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve)
    doc.on('error', reject)
  })

  doc.font('bold').fontSize(18).text(model.title)
  doc.moveDown(0.3).font('regular').fontSize(9).fillColor(MUTED).text(model.subtitle).fillColor('black')
  doc.moveDown(1)
  for (const turn of model.turns) {
    doc
      .font('bold')
      .fontSize(11)
      .text(turn.who, { continued: true })
      .font('regular')
      .fillColor(MUTED)
      .text(`  ${turn.time}${turn.stopped ? ' · stopped' : ''}`)
      .fillColor('black')
    doc.moveDown(0.3)
    const text = withNotes(turn.text, (n) => `[${n}]`)
    if (turn.who === 'You') doc.font('regular').fontSize(10.5).text(text.trim())
    else writeMarkdown(doc, text)
    for (const warning of turn.warnings) doc.font('regular').fontSize(10).text(`Warning: ${warning}`)
    doc.moveDown(1)
  }
  if (model.notes.length > 0) {
    doc.font('bold').fontSize(13).text('Sources')
    doc.moveDown(0.5)
    for (const note of model.notes) {
      const where = noteLocation(note)
      doc
        .font('bold')
        .fontSize(10)
        .text(`[${note.number}] ${note.documentName}${where ? `, ${where}` : ''}`)
      if (note.quote.trim()) {
        doc.font('regular').fontSize(9.5).fillColor(MUTED).text(note.quote.trim(), { indent: 12 })
        doc.fillColor('black')
      }
      doc.moveDown(0.6)
    }
  }
  doc.end()
  await ended
  return Buffer.concat(chunks)
}

type Doc = InstanceType<typeof import('pdfkit')>

/** A light Markdown layout: headings bold, list items indented, code monospaced, marks removed. */
function writeMarkdown(doc: Doc, markdown: string): void {
  let inCode = false
  let paragraph: string[] = []
  const flush = () => {
    const text = paragraph.join(' ').trim()
    if (text) doc.font('regular').fontSize(10.5).text(plain(text)).moveDown(0.4)
    paragraph = []
  }
  for (const line of markdown.split('\n')) {
    if (/^\s{0,3}(```|~~~)/.test(line)) {
      flush()
      inCode = !inCode
      continue
    }
    if (inCode) {
      doc
        .font('mono')
        .fontSize(9)
        .text(line === '' ? ' ' : line)
      continue
    }
    const heading = /^\s{0,3}#{1,6}\s+(.*)$/.exec(line)
    const item = /^(\s*)([-*+]|\d+[.)])\s+(.*)$/.exec(line)
    if (heading) {
      flush()
      doc
        .font('bold')
        .fontSize(12)
        .text(plain(heading[1] ?? ''))
        .moveDown(0.2)
    } else if (item) {
      flush()
      const bullet = /\d/.test(item[2] ?? '') ? (item[2] ?? '') : '•'
      const depth = Math.min(4, Math.floor((item[1]?.length ?? 0) / 2))
      doc
        .font('regular')
        .fontSize(10.5)
        .text(`${bullet} ${plain(item[3] ?? '')}`, { indent: 12 + depth * 12 })
    } else if (line.trim() === '') {
      flush()
    } else {
      paragraph.push(line.trim())
    }
  }
  flush()
}

/**
 * Inline Markdown as text: `**b**` → b, `` `c` `` → c, `[t](u)` → t (u) when u is http(s): or
 * mailto:, else t alone, as the chat shows it (D101). The PDF writes no link annotations at all.
 */
function plain(text: string): string {
  return text
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]+)\]\(((?:[^()\s]|\([^()\s]*\))+)\)/g, (_link, label: string, url: string) =>
      SAFE_LINK.test(url) ? `${label} (${url})` : label,
    )
    .replace(/(\*\*|__)(.+?)\1/g, '$2')
    .replace(/(^|[^\w*])[*_]([^*_\s][^*_]*?)[*_](?=[^\w*]|$)/g, '$1$2')
    .replace(/`([^`]+)`/g, '$1')
    .replace(/~~(.+?)~~/g, '$1')
}
