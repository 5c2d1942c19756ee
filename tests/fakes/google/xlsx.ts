/**
 * Spreadsheets for tests and the emulator, written with the same SheetJS the reader reads them
 * with: a workbook of named tabs (rows of values; a cell may be a formula with the value a
 * spreadsheet program saved for it, as Google's XLSX export writes them), as .xlsx or .ods.
 */
import * as XLSX from '@e965/xlsx'

export const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'
export const ODS_MIME = 'application/vnd.oasis.opendocument.spreadsheet'

export type Cell = string | number | { formula: string; value: number | string }
export type Tab = { name: string; rows: readonly (readonly Cell[])[] }

export function workbookFile(tabs: readonly Tab[], bookType: 'xlsx' | 'ods' = 'xlsx'): Buffer {
  const book = XLSX.utils.book_new()
  for (const tab of tabs) {
    const sheet = XLSX.utils.aoa_to_sheet(
      tab.rows.map((row) => row.map((cell) => (typeof cell === 'object' ? cell.value : cell))),
    )
    tab.rows.forEach((row, r) => {
      row.forEach((cell, c) => {
        const target = sheet[XLSX.utils.encode_cell({ r, c })]
        if (typeof cell === 'object' && target) target.f = cell.formula
      })
    })
    XLSX.utils.book_append_sheet(book, sheet, tab.name)
  }
  return Buffer.from(XLSX.write(book, { type: 'buffer', bookType }) as Buffer)
}
