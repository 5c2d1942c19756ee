/**
 * The inbox export as CSV (RFC 4180: every cell quoted, quotes doubled, CRLF between rows). A
 * visitor writes what they like, and a spreadsheet runs a cell that starts with = + - @ (or a tab
 * or carriage return before one) as a formula: such cells get a leading apostrophe, which the
 * spreadsheet shows as text (OWASP "CSV injection").
 */
import type { CsvMessageRow } from './inbox-repository.ts'

export const INBOX_CSV_HEADER = [
  'conversation',
  'visitor',
  'signed name',
  'when',
  'role',
  'content',
  'feedback',
]

const FORMULA_START = /^[=+\-@\t\r]/

/** A cell a spreadsheet shows as the text it is. */
export function csvCell(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value
  return `"${safe.replaceAll('"', '""')}"`
}

export function inboxCsv(rows: readonly CsvMessageRow[], visitorLabel: (key: string) => string): string {
  const lines = [INBOX_CSV_HEADER]
  for (const r of rows) {
    lines.push([
      r.conversationId,
      visitorLabel(r.visitorKey),
      r.visitorName ?? '',
      r.createdAt.toISOString(),
      r.isUser ? 'visitor' : 'assistant',
      r.content,
      r.feedback ?? '',
    ])
  }
  return `${lines.map((cells) => cells.map(csvCell).join(',')).join('\r\n')}\r\n`
}
