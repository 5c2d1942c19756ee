import { screen, waitFor, within } from '@testing-library/react'
import { afterEach, expect, test, vi } from 'vitest'
import { documentEndpoints } from '#contracts/documents.ts'
import { DRIVE_CONNECT_PATH, DRIVE_CONNECTED_MESSAGE } from '#contracts/drive.ts'
import { libraryDocument } from '#machines/documents/documents-fixtures.ts'
import { NO_DRIVE_HERE } from '#src/app/dashboard/documents-view.tsx'
import { formatModified } from '#src/lib/format-date.ts'
import {
  filesResponse,
  gate,
  getFile,
  ingest,
  ingestReport,
  ingestResponse,
  listFiles,
  notes,
  report,
} from './drive-handlers.ts'
import { ada, errorResponse, ok, server, signedIn } from './msw-server.ts'
import { renderApp } from './render-app.tsx'

afterEach(() => {
  vi.restoreAllMocks()
})

async function openDocuments(...handlers: Parameters<typeof server.use>) {
  server.use(signedIn(), ...handlers)
  const app = renderApp('/dashboard')
  // The dashboard chunk loads lazily: on a busy machine the first load takes more than a second.
  await screen.findByText(ada.email, undefined, { timeout: 5000 })
  const sidebar = screen.getByRole('navigation', { name: 'Dashboard sections' })
  await app.user.click(within(sidebar).getByRole('link', { name: 'Documents' }))
  return { ...app, main: screen.getByRole('main') }
}

/** The table's row for a file (a row is named by its cells, the file's name first). */
function rowOf(name: string) {
  return screen.getByRole('row', { name: new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`) })
}
const findRow = (name: string) => waitFor(() => rowOf(name))

test('says "Loading documents..." until my files arrive, then shows them in one table', async () => {
  const list = gate()
  const files = listFiles(list.after(() => filesResponse([report, notes])))
  const { main } = await openDocuments(files.handler)

  expect(within(main).getByRole('heading', { name: 'Documents' })).toBeTruthy()
  expect(within(main).getByRole('button', { name: 'Ingest Documents' })).toBeTruthy()
  expect(within(main).getByText('Loading documents...')).toBeTruthy()
  list.release()

  // One table (D89): name, source, a readable type, modified, status, actions.
  const table = await within(main).findByRole('table', { name: 'Documents' })
  expect(
    within(table)
      .getAllByRole('columnheader')
      .map((h) => h.textContent),
  ).toEqual(['Name', 'Source', 'Type', 'Modified ↓', 'Status', 'Actions'])
  expect(within(table).getAllByRole('row')).toHaveLength(3)
  const row = rowOf(report.name)
  expect(within(row).getByText('Google Drive')).toBeTruthy()
  expect(within(row).getByText('PDF')).toBeTruthy()
  expect(within(row).getByText(formatModified(report.modifiedTime))).toBeTruthy()
  expect(within(row).getByText('Not in library')).toBeTruthy()
  expect(within(row).getByRole('button', { name: 'Download' })).toBeTruthy()
  expect(within(rowOf(notes.name)).getByText('Text')).toBeTruthy()
  expect(within(main).queryByText('text/plain')).toBeNull()
  expect(screen.queryByText('Loading documents...')).toBeNull()
  expect(files.calls()).toBe(1)
})

test('says "No documents found." when the drive is empty', async () => {
  const { main } = await openDocuments(listFiles([]).handler)

  expect(await within(main).findByText('No documents found.')).toBeTruthy()
})

test('a failed listing says "Failed to load documents" with the server reason in the Drive files\' place; the library stays', async () => {
  const files = listFiles(() =>
    errorResponse(400, 'Google Drive is not connected. Connect it under Integrations.'),
  )
  const upload = libraryDocument('minutes.txt', { mimeType: 'text/plain' })
  const { main, log } = await openDocuments(
    files.handler,
    ok(documentEndpoints.listDocuments, {
      success: true,
      data: { documents: [upload], progress: { running: false, done: 1, total: 1 }, removed: [] },
    }),
  )

  const drive = await within(main).findByRole('region', { name: 'Google Drive files' })
  expect((await within(drive).findByRole('alert')).textContent).toBe('Failed to load documents')
  expect(
    within(drive).getByText('Google Drive is not connected. Connect it under Integrations.'),
  ).toBeTruthy()
  // Issue 20: the library (uploads included) does not depend on Drive: the view stays, without Drive's files.
  expect(within(await findRow('minutes.txt')).getByText('Uploaded')).toBeTruthy()
  expect(within(main).getByRole('button', { name: 'Ingest Documents' })).toBeTruthy()
  expect(log.error).toHaveBeenCalled()
})

test('a server error says only "Failed to load documents", and Try again lists again', async () => {
  const files = listFiles((call) =>
    call === 1 ? errorResponse(500, 'Internal Server Error') : filesResponse([notes]),
  )
  const { user, main } = await openDocuments(files.handler)
  await within(main).findByText('Failed to load documents')
  expect(within(main).queryByText('Internal Server Error')).toBeNull()
  expect(within(main).queryByRole('button', { name: 'Connect Google Drive' })).toBeNull()

  await user.click(within(main).getByRole('button', { name: 'Try again' }))

  expect(await findRow(notes.name)).toBeTruthy()
  expect(files.calls()).toBe(2)
})

test("from the failure I can connect Drive; the popup's message brings my files", async () => {
  const open = vi.spyOn(window, 'open').mockReturnValue(null)
  const files = listFiles((call) =>
    call === 1 ? errorResponse(400, 'Google Drive is not connected') : filesResponse([report]),
  )
  const { user, main } = await openDocuments(files.handler)

  await user.click(await within(main).findByRole('button', { name: 'Connect Google Drive' }))
  expect(open).toHaveBeenCalledWith(DRIVE_CONNECT_PATH, 'google-drive-connect', 'popup,width=520,height=640')
  window.dispatchEvent(
    new MessageEvent('message', { data: DRIVE_CONNECTED_MESSAGE, origin: window.location.origin }),
  )

  expect(await findRow(report.name)).toBeTruthy()
  expect(files.calls()).toBe(2)
})

test('Ingest reads "Ingesting..." while busy, then shows the server message and reloads the list', async () => {
  const files = listFiles((call) => filesResponse(call === 1 ? [report] : [report, notes]))
  const ingesting = gate()
  const run = ingest(ingesting.after(() => ingestResponse()))
  const { user, main } = await openDocuments(files.handler, run.handler)
  await findRow(report.name)

  await user.click(within(main).getByRole('button', { name: 'Ingest Documents' }))

  const busy = within(main).getByRole('button', { name: 'Ingesting...' })
  expect((busy as HTMLButtonElement).disabled).toBe(true)
  expect(files.calls()).toBe(1)
  ingesting.release()

  expect((await within(main).findByText(ingestReport.message)).getAttribute('role')).toBe('status')
  expect(await findRow(notes.name)).toBeTruthy()
  expect(files.calls()).toBe(2)
  expect(run.calls()).toBe(1)
  expect(within(main).getByRole('button', { name: 'Ingest Documents' })).toBeTruthy()
})

test('an ingest with no server message says "Documents ingested successfully"', async () => {
  const run = ingest(() => ingestResponse({ ...ingestReport, message: '' }))
  const { user, main } = await openDocuments(listFiles([report]).handler, run.handler)
  await findRow(report.name)

  await user.click(within(main).getByRole('button', { name: 'Ingest Documents' }))

  expect((await within(main).findByText('Documents ingested successfully')).getAttribute('role')).toBe(
    'status',
  )
})

test('a failed ingest says "Failed to ingest documents"', async () => {
  const run = ingest(() => errorResponse(500, 'Internal Server Error'))
  const { user, main, log } = await openDocuments(listFiles([report]).handler, run.handler)
  await findRow(report.name)

  await user.click(within(main).getByRole('button', { name: 'Ingest Documents' }))

  expect((await within(main).findByRole('alert')).textContent).toBe('Failed to ingest documents')
  expect(log.error).toHaveBeenCalled()
})

test('an ingest already running says so, in the server words', async () => {
  const run = ingest(() => errorResponse(409, 'An ingest is already running'))
  const { user, main } = await openDocuments(listFiles([report]).handler, run.handler)
  await findRow(report.name)

  await user.click(within(main).getByRole('button', { name: 'Ingest Documents' }))

  expect((await within(main).findByText('An ingest is already running')).getAttribute('role')).toBe('status')
})

function fakeTab() {
  return { closed: false, opener: {} as unknown, location: { href: '' }, close: vi.fn() }
}

test('Download opens a tab in the click and sends it to the file download link', async () => {
  const tab = fakeTab()
  const open = vi.spyOn(window, 'open').mockReturnValue(tab as unknown as Window)
  const lookups = getFile([report])
  const { user } = await openDocuments(listFiles([report]).handler, lookups.handler)

  await user.click(within(await findRow(report.name)).getByRole('button', { name: 'Download' }))

  expect(open).toHaveBeenCalledWith('', '_blank')
  await waitFor(() => expect(tab.location.href).toBe(report.webContentLink))
  expect(tab.opener).toBeNull()
  expect(lookups.calls()).toBe(1)
})

test('a Google Doc (no download link) opens its viewer page', async () => {
  const doc = { ...notes, mimeType: 'application/vnd.google-apps.document', webContentLink: null }
  const tab = fakeTab()
  vi.spyOn(window, 'open').mockReturnValue(tab as unknown as Window)
  const { user } = await openDocuments(listFiles([doc]).handler, getFile([doc]).handler)

  await user.click(within(await findRow(doc.name)).getByRole('button', { name: 'Download' }))

  await waitFor(() => expect(tab.location.href).toBe(doc.webViewLink))
})

test('a file without any link closes the tab and alerts "Download link not available for this file"', async () => {
  const bare = { ...report, webContentLink: null, webViewLink: null }
  const tab = fakeTab()
  vi.spyOn(window, 'open').mockReturnValue(tab as unknown as Window)
  const alert = vi.spyOn(window, 'alert').mockImplementation(() => {})
  const { user } = await openDocuments(listFiles([bare]).handler, getFile([bare]).handler)

  await user.click(within(await findRow(bare.name)).getByRole('button', { name: 'Download' }))

  await waitFor(() => expect(alert).toHaveBeenCalledWith('Download link not available for this file'))
  expect(tab.close).toHaveBeenCalled()
  expect(tab.location.href).toBe('')
})

test('a failed lookup closes the tab and alerts "Failed to download file"', async () => {
  const tab = fakeTab()
  vi.spyOn(window, 'open').mockReturnValue(tab as unknown as Window)
  const alert = vi.spyOn(window, 'alert').mockImplementation(() => {})
  const lookups = getFile(() => errorResponse(500, 'Internal Server Error'))
  const { user, log } = await openDocuments(listFiles([report]).handler, lookups.handler)

  await user.click(within(await findRow(report.name)).getByRole('button', { name: 'Download' }))

  await waitFor(() => expect(alert).toHaveBeenCalledWith('Failed to download file'))
  expect(tab.close).toHaveBeenCalled()
  expect(log.error).toHaveBeenCalled()
})

test('on a server without Google Drive the library stands alone: a quiet line, no failure, no Try again, no Ingest', async () => {
  const files = listFiles(() => errorResponse(503, 'Google Drive is not configured on this server.'))
  const { main } = await openDocuments(
    files.handler,
    ok(documentEndpoints.listDocuments, {
      success: true,
      data: {
        documents: [libraryDocument('minutes.txt', { mimeType: 'text/plain' })],
        progress: { running: false, done: 1, total: 1 },
        removed: [],
      },
    }),
  )

  expect(await within(main).findByText(NO_DRIVE_HERE)).toBeTruthy()
  expect(within(await findRow('minutes.txt')).getByText('Uploaded')).toBeTruthy()
  expect(within(main).queryByText('Failed to load documents')).toBeNull()
  expect(within(main).queryByRole('button', { name: 'Try again' })).toBeNull()
  expect(within(main).queryByRole('button', { name: /Connect/ })).toBeNull()
  expect(within(main).queryByRole('button', { name: 'Ingest Documents' })).toBeNull()
  expect(files.calls()).toBe(1)
})
