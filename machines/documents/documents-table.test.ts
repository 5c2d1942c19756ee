import { expect, test } from 'vitest'
import { createActor } from 'xstate'
import { driveFile, libraryDocument as libraryDoc } from './documents-fixtures.ts'
import {
  type DocumentRow,
  INITIAL_VIEW,
  PAGE_SIZE,
  pageOf,
  readableType,
  type TableView,
  toRows,
  typesOf,
  visibleRows,
} from './documents-table.ts'
import { documentsTableMachine } from './documents-table-machine.ts'

const names = (rows: DocumentRow[]) => rows.map((row) => row.name)
const view = (fields: Partial<TableView>): TableView => ({ ...INITIAL_VIEW, ...fields })

test('types read as words, never as raw MIME types', () => {
  expect(readableType('application/vnd.google-apps.spreadsheet', 'Budget 2027')).toBe('Google Sheet')
  expect(readableType('application/vnd.google-apps.document', 'Notes')).toBe('Google Doc')
  expect(readableType('application/pdf', 'a.pdf')).toBe('PDF')
  expect(
    readableType('application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'cv.docx'),
  ).toBe('Word')
  expect(readableType('image/png', 'whiteboard.png')).toBe('Image')
  expect(readableType('application/x-unknown', 'data.parquet')).toBe('PARQUET')
  expect(readableType('application/octet-stream', 'blob')).toBe('File')
})

test('a Drive file in the library is one row, with its listing; one not in the library is its own row', () => {
  const synced = libraryDoc('brief.pdf', { source: 'drive', driveFileId: 'drive-brief.pdf' })
  const rows = toRows(
    [synced, libraryDoc('upload.txt', { mimeType: 'text/plain', modifiedTime: '2026-04-01T00:00:00.000Z' })],
    [
      driveFile('brief.pdf', { modifiedTime: '2026-01-15T00:00:00.000Z' }),
      driveFile('Budget 2027', { mimeType: 'application/vnd.google-apps.spreadsheet' }),
      driveFile('Projects', { mimeType: 'application/vnd.google-apps.folder' }),
    ],
  )

  expect(
    rows.map((r) => [r.name, r.source, r.type, r.status, r.libraryId, r.driveFileId, r.modified]),
  ).toEqual([
    ['brief.pdf', 'drive', 'PDF', 'ready', 'lib-brief.pdf', 'drive-brief.pdf', '2026-01-15T00:00:00.000Z'],
    ['upload.txt', 'upload', 'Text', 'ready', 'lib-upload.txt', null, '2026-04-01T00:00:00.000Z'],
    [
      'Budget 2027',
      'drive',
      'Google Sheet',
      'notInLibrary',
      null,
      'drive-Budget 2027',
      '2026-02-01T10:00:00.000Z',
    ],
  ])
})

test('a Drive file removed from the library is not a row: it is listed with the removed ones', () => {
  const removed = libraryDoc('old.pdf', { source: 'drive', status: 'skipped', driveFileId: 'drive-old.pdf' })

  const rows = toRows([], [driveFile('old.pdf'), driveFile('new.pdf')], [removed])

  expect(names(rows)).toEqual(['new.pdf'])
})

test('names sort without regard to case or accents, numbers in their order', () => {
  const rows = toRows(
    ['broken-scan.pdf', 'Budget 2027', 'agenda 10.pdf', 'agenda 9.pdf', 'Écluse.pdf', 'zeta.pdf'].map((n) =>
      libraryDoc(n),
    ),
    [],
  )

  const sorted = visibleRows(rows, view({ sort: { column: 'name', direction: 'ascending' } }))

  expect(names(sorted)).toEqual([
    'agenda 9.pdf',
    'agenda 10.pdf',
    'broken-scan.pdf',
    'Budget 2027',
    'Écluse.pdf',
    'zeta.pdf',
  ])
})

test('search as typed matches names ignoring case and accents; filters combine', () => {
  const rows = toRows(
    [
      libraryDoc('Résumé.pdf'),
      libraryDoc('resume-draft.txt', { mimeType: 'text/plain', status: 'failed', reason: 'unreadable' }),
      libraryDoc('Report.pdf', { source: 'drive', status: 'processing' }),
      libraryDoc('Roadmap.pdf', { source: 'drive', status: 'queued' }),
    ],
    [driveFile('resume-old.pdf')],
  )

  expect(
    names(visibleRows(rows, view({ query: 'RESUME', sort: { column: 'name', direction: 'ascending' } }))),
  ).toEqual(['resume-draft.txt', 'resume-old.pdf', 'Résumé.pdf'])
  expect(names(visibleRows(rows, view({ status: 'reading' })))).toEqual(['Report.pdf', 'Roadmap.pdf'])
  expect(names(visibleRows(rows, view({ status: 'failed' })))).toEqual(['resume-draft.txt'])
  expect(names(visibleRows(rows, view({ status: 'notInLibrary' })))).toEqual(['resume-old.pdf'])
  expect(names(visibleRows(rows, view({ source: 'upload', type: 'PDF' })))).toEqual(['Résumé.pdf'])
  expect(typesOf(rows)).toEqual(['PDF', 'Text'])
})

test('status sorts what needs the person first; modified sorts newest first by default', () => {
  const rows = toRows(
    [
      libraryDoc('ok.pdf', { updatedAt: '2026-01-01T00:00:00.000Z' }),
      libraryDoc('bad.pdf', { status: 'failed', updatedAt: '2026-03-01T00:00:00.000Z' }),
      libraryDoc('busy.pdf', { status: 'processing', updatedAt: '2026-02-01T00:00:00.000Z' }),
    ],
    [],
  )

  expect(names(visibleRows(rows, view({ sort: { column: 'status', direction: 'ascending' } })))).toEqual([
    'bad.pdf',
    'busy.pdf',
    'ok.pdf',
  ])
  expect(names(visibleRows(rows, INITIAL_VIEW))).toEqual(['bad.pdf', 'busy.pdf', 'ok.pdf'])
})

test(`pages hold ${PAGE_SIZE} rows; a page past the end shows the last one`, () => {
  const rows = toRows(
    Array.from({ length: 5000 }, (_, i) => libraryDoc(`file-${String(i).padStart(4, '0')}.pdf`)),
    [],
  )

  const first = pageOf(rows, view({ sort: { column: 'name', direction: 'ascending' } }))
  expect(first).toMatchObject({ total: 5000, page: 0, pages: 100, from: 1, to: PAGE_SIZE })
  expect(first.rows).toHaveLength(PAGE_SIZE)
  expect(first.rows[0]?.name).toBe('file-0000.pdf')
  const beyond = pageOf(rows, view({ page: 500, sort: { column: 'name', direction: 'ascending' } }))
  expect(beyond).toMatchObject({ page: 99, from: 4951, to: 5000 })
  expect(pageOf([], INITIAL_VIEW)).toMatchObject({ total: 0, pages: 1, from: 0, to: 0, rows: [] })
})

test('the table machine: searching and filtering go back to the first page; sorting the same column turns it round', () => {
  const table = createActor(documentsTableMachine).start()

  table.send({ type: 'table.page', page: 3 })
  table.send({ type: 'table.search', query: 'budget' })
  expect(table.getSnapshot().context.view).toMatchObject({ query: 'budget', page: 0 })
  table.send({ type: 'table.page', page: 2 })
  table.send({ type: 'table.filter', status: 'failed' })
  table.send({ type: 'table.filter', source: 'drive', typeLabel: 'PDF' })
  expect(table.getSnapshot().context.view).toMatchObject({
    status: 'failed',
    source: 'drive',
    type: 'PDF',
    page: 0,
  })

  table.send({ type: 'table.sort', column: 'name' })
  expect(table.getSnapshot().context.view.sort).toEqual({ column: 'name', direction: 'ascending' })
  table.send({ type: 'table.sort', column: 'name' })
  expect(table.getSnapshot().context.view.sort).toEqual({ column: 'name', direction: 'descending' })
  table.send({ type: 'table.sort', column: 'modified' })
  expect(table.getSnapshot().context.view.sort).toEqual({ column: 'modified', direction: 'descending' })
})

test('the table machine: a deletion waits for its confirmation, which it announces once', () => {
  const table = createActor(documentsTableMachine).start()
  const confirmed: unknown[] = []
  table.on('table.deleteConfirmed', (event) => confirmed.push(event))

  table.send({ type: 'table.openMenu', key: 'lib-a' })
  table.send({ type: 'table.askDelete', libraryId: 'lib-a', name: 'a.pdf' })
  expect(table.getSnapshot().context).toMatchObject({
    menuFor: null,
    confirming: { libraryId: 'lib-a', name: 'a.pdf' },
  })
  table.send({ type: 'table.cancelDelete' })
  table.send({ type: 'table.confirmDelete' })
  expect(confirmed).toEqual([])

  table.send({ type: 'table.askDelete', libraryId: 'lib-a', name: 'a.pdf' })
  table.send({ type: 'table.confirmDelete' })
  table.send({ type: 'table.confirmDelete' })
  expect(confirmed).toEqual([{ type: 'table.deleteConfirmed', libraryId: 'lib-a' }])
  expect(table.getSnapshot().context.confirming).toBeNull()
})

test('the table machine: a reset (Documents on screen again) forgets the search, filters, sort, page, menu and deletion', () => {
  const table = createActor(documentsTableMachine).start()
  const initial = table.getSnapshot().context
  table.send({ type: 'table.search', query: 'budget' })
  table.send({ type: 'table.filter', status: 'failed' })
  table.send({ type: 'table.sort', column: 'name' })
  table.send({ type: 'table.page', page: 2 })
  table.send({ type: 'table.askDelete', libraryId: 'lib-a', name: 'a.pdf' })
  table.send({ type: 'table.openMenu', key: 'lib-b' })

  table.send({ type: 'table.reset' })

  expect(table.getSnapshot().context).toEqual(initial)
})
