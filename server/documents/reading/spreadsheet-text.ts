/**
 * Spreadsheets as tables (D75): a workbook (.xlsx, .ods, .xls, a Google Sheet exported as XLSX)
 * or a CSV file, read with SheetJS (the `@e965/xlsx` publication of SheetJS 0.20.3) in the reader
 * process. Every tab becomes a section named after it; every row a paragraph that repeats its
 * column's header before each value ("Region: North · Quarter: Q3 · Revenue: 1,200"), so a
 * question about one cell's value finds its row, and the row says what the value means. Cells
 * are read as the sheet shows them (their number format applied), formulas as the value the file
 * saved for them. Rows and cells are bounded, and so is the text (a budget, D102): what lies past
 * the bounds is left out with a note (the text's own note is the caller's: `budget.cut`).
 */
import type { Paragraph, Section } from './chunker.ts'
import { joinParagraphs, type TextBudget, textBudget } from './document-bounds.ts'
import { FileReadError } from './read-error.ts'
import { removeControlCharacters } from './text-decoding.ts'

/** Rows read from one spreadsheet, all its tabs together (the header rows not counted). */
export const MAX_SHEET_ROWS = 20_000
/** Cells with a value read from one spreadsheet, all its tabs together. */
export const MAX_SHEET_CELLS = 200_000

export type SpreadsheetText = { sections: Section[]; note: string | null }

const SEPARATOR = ' · '
const WORKBOOK_MAGIC = [
  [0x50, 0x4b, 0x03, 0x04],
  [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1],
]

const clean = (value: unknown) =>
  removeControlCharacters(String(value ?? ''))
    .replace(/\s+/g, ' ')
    .trim()

/**
 * `input` is the file's bytes (a workbook) or its text (a CSV, decoded by the caller in whichever
 * encoding it was saved). `tabs`: false for a CSV, whose one table has no name of its own.
 */
export async function spreadsheetText(
  input: Uint8Array | string,
  options: { tabs: boolean; budget?: TextBudget },
): Promise<SpreadsheetText> {
  // A workbook is a ZIP (.xlsx, .ods) or an OLE file (.xls); SheetJS would read anything else
  // as text and make a table of its bytes.
  if (typeof input !== 'string' && !WORKBOOK_MAGIC.some((magic) => magic.every((b, i) => input[i] === b)))
    throw new FileReadError('the file is not a readable spreadsheet')
  const XLSX = await import('@e965/xlsx')
  let workbook: ReturnType<typeof XLSX.read>
  try {
    workbook = XLSX.read(input, {
      type: typeof input === 'string' ? 'string' : 'array',
      dense: true,
      // Rows past the bound are not even parsed; one more tells that there were more.
      sheetRows: MAX_SHEET_ROWS + 2,
      cellFormula: false,
      cellHTML: false,
      cellStyles: false,
      // A CSV's "1,200" or "03/14" stays as written, not guessed into a number or a date.
      ...(typeof input === 'string' ? { raw: true } : {}),
    })
  } catch {
    throw new FileReadError('the file is not a readable spreadsheet')
  }
  const sections: Section[] = []
  const budget = options.budget ?? textBudget()
  let rows = 0
  let cells = 0
  let cut: string | null = null
  for (const name of workbook.SheetNames) {
    const sheet = workbook.Sheets[name]
    if (!sheet || cut || budget.cut) continue
    const table = XLSX.utils.sheet_to_json<unknown[]>(sheet, {
      header: 1,
      raw: false,
      defval: '',
      blankrows: false,
    })
    const head = table[0]?.map(clean)
    if (!head || head.every((cell) => cell === '')) continue
    const headers = head.map((cell, i) => cell || `Column ${XLSX.utils.encode_col(i)}`)
    const paragraphs: Paragraph[] = []
    const add = (text: string, heading: string | null) => {
      const kept = budget.take(text)
      if (kept) paragraphs.push({ text: kept, heading: heading === null ? null : kept })
    }
    const title = options.tabs ? clean(name) : ''
    if (title) add(title, title)
    // A tab of one row (a title, a list of names) says what it says, without headers.
    if (table.length === 1) add(head.filter(Boolean).join(SEPARATOR), null)
    // Cells are cleaned row by row: rows past the text bound are never built (D102: a small file
    // whose rows all show one shared string of a megabyte would make hundreds of them).
    for (const raw of table.slice(1)) {
      if (budget.cut) break
      const filled = rowCells(raw, headers, budget)
      if (filled.length === 0) continue
      if (rows >= MAX_SHEET_ROWS || cells + filled.length > MAX_SHEET_CELLS) {
        cut =
          rows >= MAX_SHEET_ROWS
            ? `${MAX_SHEET_ROWS.toLocaleString('en-US')} rows`
            : `${MAX_SHEET_CELLS.toLocaleString('en-US')} cells`
        break
      }
      rows += 1
      cells += filled.length
      add(filled.join(SEPARATOR), null)
    }
    if (!cut && table.length - 1 > MAX_SHEET_ROWS) cut = `${MAX_SHEET_ROWS.toLocaleString('en-US')} rows`
    if (paragraphs.length > 0) sections.push({ text: joinParagraphs(paragraphs), page: null, paragraphs })
  }
  if (sections.length === 0) throw new FileReadError('the spreadsheet has no cells to read')
  return {
    sections,
    note: cut ? `only the first ${cut} of the spreadsheet were read` : null,
  }
}

/**
 * A row's filled cells as "Header: value", built until they hold more than the text left: a row
 * of thousands of long cells is not built whole to be cut.
 */
function rowCells(row: readonly unknown[], headers: readonly string[], budget: TextBudget): string[] {
  const filled: string[] = []
  let length = 0
  for (const [i, cell] of row.entries()) {
    const value = clean(cell)
    if (!value) continue
    const text = `${headers[i] ?? `Column ${i + 1}`}: ${value}`
    filled.push(text)
    length += text.length + SEPARATOR.length
    if (length > budget.left) break
  }
  return filled
}
