/** The Documents table (D89): search as typed, filters, sort, pages, and the first ingest's call to action. */
import { screen, waitFor, within } from '@testing-library/react'
import { http } from 'msw'
import { expect, test } from 'vitest'
import { documentEndpoints, type Library, type LibraryDocument } from '#contracts/documents.ts'
import type { DriveFile } from '#contracts/drive.ts'
import { driveFile, libraryDocument } from '#machines/documents/documents-fixtures.ts'
// The views' default server has no Google (msw-server.ts), so the dialog explains 'Upload' alone.
import { UPLOAD_EXPLANATIONS_WITHOUT_DRIVE } from '#src/features/chat/use-upload.ts'
import { listFiles } from './drive-handlers.ts'
import { ok, okResponse, server, signedIn, urlOf } from './msw-server.ts'
import { renderApp } from './render-app.tsx'

const doc = libraryDocument
/** A Drive file with a Drive-like id (no spaces). */
const file = (name: string, fields: Partial<DriveFile> = {}) =>
  driveFile(name, { id: `drive-${name.replace(/\W/g, '')}-0000000`, ...fields })

const overlap = (documents: LibraryDocument[], files: DriveFile[]) =>
  files.filter((f) => documents.some((d) => d.driveFileId === f.id)).length

async function openTable(documents: LibraryDocument[], files: DriveFile[] = []) {
  const library: Library = {
    documents,
    progress: { running: false, done: documents.length, total: documents.length },
    removed: [],
  }
  server.use(
    signedIn(),
    listFiles(files).handler,
    ok(documentEndpoints.listDocuments, { success: true, data: library }),
  )
  const app = renderApp('/dashboard/docs')
  const table = await screen.findByRole('table', { name: 'Documents' }, { timeout: 5000 })
  const main = screen.getByRole('main')
  const names = () =>
    within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => row.querySelector('td > span')?.textContent)
  // Let the library arrive too (the table shows the Drive listing first).
  await waitFor(
    () =>
      expect(names().length).toBe(Math.min(50, documents.length + files.length - overlap(documents, files))),
    {
      timeout: 3000,
    },
  )
  return { ...app, main, table, names }
}

const library = [
  doc('broken-scan.pdf', {
    status: 'failed',
    reason: 'the file is not a readable PDF',
    updatedAt: '2026-03-05T00:00:00.000Z',
  }),
  doc('Budget 2027', {
    source: 'drive',
    mimeType: 'application/vnd.google-apps.spreadsheet',
    driveFileId: 'drive-Budget2027-0000000',
    updatedAt: '2026-03-02T00:00:00.000Z',
  }),
  doc('agenda.txt', { mimeType: 'text/plain', updatedAt: '2026-03-03T00:00:00.000Z' }),
]
const drive = [
  file('Budget 2027', {
    mimeType: 'application/vnd.google-apps.spreadsheet',
    modifiedTime: '2026-03-02T00:00:00.000Z',
  }),
  file('whiteboard.png', { mimeType: 'image/png', modifiedTime: '2026-03-04T00:00:00.000Z' }),
]

test('the library and the Drive listing are one table, newest first, each file once', async () => {
  const { names, table } = await openTable(library, drive)

  expect(names()).toEqual(['broken-scan.pdf', 'whiteboard.png', 'agenda.txt', 'Budget 2027'])
  const budget = within(table).getByRole('row', { name: /^Budget 2027/ })
  expect(within(budget).getByText('Google Sheet')).toBeTruthy()
  expect(within(budget).getByText('Google Drive')).toBeTruthy()
  expect(within(budget).getByRole('button', { name: 'Download' })).toBeTruthy()
  const broken = within(table).getByRole('row', { name: /^broken-scan/ })
  expect(broken.textContent).toContain('Failed: the file is not a readable PDF')
  expect(within(broken).getByRole('button', { name: 'Retry' })).toBeTruthy()
  // Delete is not in sight: it is behind the row's menu.
  expect(within(broken).queryByRole('menuitem', { name: 'Delete' })).toBeNull()
  expect(within(table).getByRole('row', { name: /^whiteboard/ }).textContent).toContain('Not in library')
})

test('names sort without regard to case; the same header again turns the order round', async () => {
  const { user, names, table } = await openTable(library, drive)
  const header = within(table).getByRole('columnheader', { name: /Name/ })

  await user.click(within(header).getByRole('button'))

  expect(header.getAttribute('aria-sort')).toBe('ascending')
  expect(names()).toEqual(['agenda.txt', 'broken-scan.pdf', 'Budget 2027', 'whiteboard.png'])
  await user.click(within(header).getByRole('button'))
  expect(header.getAttribute('aria-sort')).toBe('descending')
  expect(names()).toEqual(['whiteboard.png', 'Budget 2027', 'broken-scan.pdf', 'agenda.txt'])
  await user.click(within(within(table).getByRole('columnheader', { name: /Status/ })).getByRole('button'))
  expect(names()[0]).toBe('broken-scan.pdf')
})

test('search filters as I type; status, source and type filters narrow it further', async () => {
  const { user, main, names } = await openTable(library, drive)

  await user.type(within(main).getByRole('searchbox', { name: 'Search documents' }), 'BU')
  expect(names()).toEqual(['Budget 2027'])
  await user.clear(within(main).getByRole('searchbox', { name: 'Search documents' }))

  await user.selectOptions(within(main).getByRole('combobox', { name: 'Status' }), 'Not in library')
  expect(names()).toEqual(['whiteboard.png'])
  await user.selectOptions(within(main).getByRole('combobox', { name: 'Status' }), 'All statuses')
  await user.selectOptions(within(main).getByRole('combobox', { name: 'Source' }), 'Uploaded')
  expect(names()).toEqual(['broken-scan.pdf', 'agenda.txt'])
  await user.selectOptions(within(main).getByRole('combobox', { name: 'Type' }), 'Text')
  expect(names()).toEqual(['agenda.txt'])
  await user.selectOptions(within(main).getByRole('combobox', { name: 'Type' }), 'Google Sheet')

  expect(within(main).getByText('No documents match your search and filters.')).toBeTruthy()
  await user.click(within(main).getByRole('button', { name: 'Clear search and filters' }))
  expect(await screen.findByRole('table', { name: 'Documents' })).toBeTruthy()
})

test('5,000 documents: one page of 50 rows at a time, Next and Previous, search over all of them', async () => {
  const many = Array.from({ length: 5000 }, (_, i) =>
    doc(`report-${String(i).padStart(4, '0')}.pdf`, {
      updatedAt: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(),
    }),
  )
  const { user, main, table, names } = await openTable(many)

  expect(within(table).getAllByRole('row')).toHaveLength(51)
  expect(within(main).getByText('Showing 1–50 of 5,000')).toBeTruthy()
  expect(names()[0]).toBe('report-4999.pdf')
  await user.click(within(main).getByRole('button', { name: 'Next' }))
  expect(within(main).getByText('Showing 51–100 of 5,000')).toBeTruthy()
  expect(names()[0]).toBe('report-4949.pdf')
  await user.click(within(main).getByRole('button', { name: 'Previous' }))
  expect(names()[0]).toBe('report-4999.pdf')

  await user.type(within(main).getByRole('searchbox', { name: 'Search documents' }), '0042')
  expect(names()).toEqual(['report-0042.pdf'])
  expect(within(main).getByText('Showing 1–1 of 1')).toBeTruthy()
  // Rendering is measured in bench/documents-table.ts; on a busy machine this test only needs time.
}, 20_000)

test('before the first ingest one call to action says what to do', async () => {
  const { main } = await openTable([], drive)

  await waitFor(() =>
    expect(within(main).getByRole('heading', { name: 'Your library is empty' })).toBeTruthy(),
  )
  expect(within(main).getByText(/Press Ingest Documents to read them into your library/)).toBeTruthy()
  expect(within(main).getAllByRole('button', { name: 'Ingest Documents' })).toHaveLength(1)
  expect(within(main).queryByText('No documents in your library yet.')).toBeNull()
})

test("the sidebar's 'Upload Document' opens the Upload dialog for the library; the file joins the table", async () => {
  let documents = [doc('agenda.txt', { mimeType: 'text/plain' })]
  const uploaded: string[] = []
  const { user, names } = await openTable(documents)
  server.use(
    http.get(urlOf(documentEndpoints.listDocuments), () =>
      okResponse(documentEndpoints.listDocuments, {
        success: true,
        data: { documents, progress: { running: false, done: 0, total: 0 }, removed: [] },
      }),
    ),
    http.post(urlOf(documentEndpoints.uploadToLibrary), () => {
      uploaded.push('library')
      const added = doc('harbour.txt', { mimeType: 'text/plain', updatedAt: '2026-03-09T00:00:00.000Z' })
      documents = [...documents, added]
      return okResponse(documentEndpoints.uploadToLibrary, { success: true, data: added }, 201)
    }),
  )

  await user.click(screen.getByRole('button', { name: 'Upload Document' }))
  const dialog = screen.getByRole('dialog', { name: 'Upload File' })
  expect(within(dialog).getByText(UPLOAD_EXPLANATIONS_WITHOUT_DRIVE.library)).toBeTruthy()
  const file = new File(['x'], 'harbour.txt', { type: 'text/plain' })
  Object.defineProperty(file, 'size', { value: 20 * 1024 })
  await user.upload(within(dialog).getByLabelText('File to upload'), file)
  await user.click(within(dialog).getByRole('button', { name: 'Upload' }))

  await waitFor(() => expect(names()).toEqual(['harbour.txt', 'agenda.txt']))
  expect(uploaded).toEqual(['library'])
})
