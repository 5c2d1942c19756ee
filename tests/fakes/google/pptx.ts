/**
 * A minimal PowerPoint (.pptx) file for tests and the emulator: the presentation part listing the
 * slides in order, its relationships, and one slide part per slide with a title shape and a body
 * shape (one paragraph per line), in the same hand-written ZIP as the Word files.
 */
import { zip } from './docx.ts'

export const PPTX_MIME = 'application/vnd.openxmlformats-officedocument.presentationml.presentation'

const P = 'http://schemas.openxmlformats.org/presentationml/2006/main'
const A = 'http://schemas.openxmlformats.org/drawingml/2006/main'
const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships'

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
const paragraphs = (lines: readonly string[]) =>
  lines.map((line) => `<a:p><a:r><a:t>${escapeXml(line)}</a:t></a:r></a:p>`).join('')

function shape(lines: readonly string[], placeholder: string | null): string {
  const ph = placeholder ? `<p:nvPr><p:ph type="${placeholder}"/></p:nvPr>` : '<p:nvPr/>'
  return `<p:sp><p:nvSpPr><p:cNvPr id="2" name="s"/><p:cNvSpPr/>${ph}</p:nvSpPr><p:txBody><a:bodyPr/>${paragraphs(lines)}</p:txBody></p:sp>`
}

export type Slide = { title?: string; lines: readonly string[] }

/**
 * A presentation of these slides. The slide parts are numbered in reverse of the show's order,
 * so a reader that followed file names instead of the presentation's list would get them wrong.
 */
export function pptxFile(slides: readonly Slide[]): Buffer {
  const n = slides.length
  const part = (i: number) => `slide${n - i}.xml`
  const entries = slides.map((slide, i) => ({
    name: `ppt/slides/${part(i)}`,
    data: Buffer.from(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><p:sld xmlns:p="${P}" xmlns:a="${A}"><p:cSld><p:spTree>${slide.title ? shape([slide.title], 'title') : ''}${shape(slide.lines, null)}</p:spTree></p:cSld></p:sld>`,
    ),
  }))
  const ids = slides.map((_, i) => `<p:sldId id="${256 + i}" r:id="rId${i + 1}"/>`).join('')
  const rels = slides
    .map((_, i) => `<Relationship Id="rId${i + 1}" Type="${R}/slide" Target="slides/${part(i)}"/>`)
    .join('')
  return zip([
    {
      name: '[Content_Types].xml',
      data: Buffer.from(
        `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Override PartName="/ppt/presentation.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml"/></Types>`,
      ),
    },
    {
      name: 'ppt/presentation.xml',
      data: Buffer.from(
        `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><p:presentation xmlns:p="${P}" xmlns:r="${R}"><p:sldIdLst>${ids}</p:sldIdLst></p:presentation>`,
      ),
    },
    {
      name: 'ppt/_rels/presentation.xml.rels',
      data: Buffer.from(
        `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rels}</Relationships>`,
      ),
    },
    ...entries,
  ])
}
