/**
 * The attack run's amplified spreadsheet (issue 34, D102): a few KB of .xlsx whose rows all show
 * one shared string of about a megabyte, so that reading it whole makes hundreds of megabytes of
 * text. Written by hand (JSZip, the parts SheetJS reads): SheetJS itself refuses to write a cell
 * longer than 32,767 characters.
 */
import JSZip from 'jszip'

const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main'
const RELS = 'http://schemas.openxmlformats.org/package/2006/relationships'
const OFFICE = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships'
const XML = '<?xml version="1.0" encoding="UTF-8"?>'

/** `rows` rows of two cells, every one showing the same `chars`-long shared string, under a header. */
export function sharedStringWorkbook(rows: number, chars: number): Promise<Uint8Array> {
  const zip = new JSZip()
  const type = (part: string, kind: string) =>
    `<Override PartName="${part}" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.${kind}+xml"/>`
  zip.file(
    '[Content_Types].xml',
    `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
      '<Default Extension="xml" ContentType="application/xml"/>' +
      type('/xl/workbook.xml', 'sheet.main') +
      type('/xl/worksheets/sheet1.xml', 'worksheet') +
      type('/xl/sharedStrings.xml', 'sharedStrings') +
      '</Types>',
  )
  zip.file(
    '_rels/.rels',
    `${XML}<Relationships xmlns="${RELS}"><Relationship Id="rId1" Type="${OFFICE}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
  )
  zip.file(
    'xl/workbook.xml',
    `${XML}<workbook xmlns="${MAIN}" xmlns:r="${OFFICE}"><sheets><sheet name="Notes" sheetId="1" r:id="rId1"/></sheets></workbook>`,
  )
  zip.file(
    'xl/_rels/workbook.xml.rels',
    `${XML}<Relationships xmlns="${RELS}">` +
      `<Relationship Id="rId1" Type="${OFFICE}/worksheet" Target="worksheets/sheet1.xml"/>` +
      `<Relationship Id="rId2" Type="${OFFICE}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
  )
  const cell = (ref: string, index: number) => `<c r="${ref}" t="s"><v>${index}</v></c>`
  const body = Array.from(
    { length: rows },
    (_, i) => `<row r="${i + 2}">${cell(`A${i + 2}`, 0)}${cell(`B${i + 2}`, 0)}</row>`,
  )
  zip.file(
    'xl/worksheets/sheet1.xml',
    `${XML}<worksheet xmlns="${MAIN}"><sheetData><row r="1">${cell('A1', 1)}${cell('B1', 2)}</row>${body.join('')}</sheetData></worksheet>`,
  )
  const long = 'lorem ipsum '.repeat(Math.ceil(chars / 12)).slice(0, chars)
  zip.file(
    'xl/sharedStrings.xml',
    `${XML}<sst xmlns="${MAIN}" count="3" uniqueCount="3"><si><t>${long}</t></si><si><t>Name</t></si><si><t>Note</t></si></sst>`,
  )
  return zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE', compressionOptions: { level: 9 } })
}
