/**
 * The library in the Documents table: each document's status with its reason, the progress while
 * files are read (updated live, also after a reload), Retry for a failed one and Delete (behind
 * the row's menu, asked first).
 */
import { screen, waitFor, within } from '@testing-library/react'
import { http } from 'msw'
import { expect, test } from 'vitest'
import { documentEndpoints, type Library, type LibraryDocument } from '#contracts/documents.ts'
import { filesResponse, listFiles } from './drive-handlers.ts'
import { counted, okResponse, server, signedIn, urlOf } from './msw-server.ts'
import { renderApp } from './render-app.tsx'

const doc = (name: string, status: LibraryDocument['status'], extra: Partial<LibraryDocument> = {}) => ({
  // One id per name (its characters hashed): 'brief.pdf' and 'notes.txt' have the same length.
  id: `0b5c7a52-6c2f-4f4e-9a51-${String([...name].reduce((h, c) => (h * 31 + c.charCodeAt(0)) % 1e12, 7)).padStart(12, '0')}`,
  name,
  source: 'drive' as const,
  mimeType: 'application/pdf',
  status,
  reason: null,
  pages: null,
  chunks: null,
  ocrPages: null,
  updatedAt: '2026-03-01T10:00:00.000Z',
  webViewLink: null,
  ...extra,
})

function library(...documents: LibraryDocument[]): Library {
  const done = documents.filter((d) => ['ready', 'failed', 'skipped'].includes(d.status)).length
  return {
    documents,
    progress: { running: done < documents.length, done, total: documents.length },
    removed: [],
  }
}

const answer = (value: Library) => okResponse(documentEndpoints.listDocuments, { success: true, data: value })

async function openDocuments(...handlers: Parameters<typeof server.use>) {
  server.use(signedIn(), listFiles(() => filesResponse([])).handler, ...handlers)
  const app = renderApp('/dashboard')
  const sidebar = await screen.findByRole('navigation', { name: 'Dashboard sections' }, { timeout: 5000 })
  await app.user.click(within(sidebar).getByRole('link', { name: 'Documents' }))
  return { ...app, main: screen.getByRole('main') }
}

/** The table's row for a document (a row is named by its cells, the document's name first). */
const itemOf = (name: string) => screen.getByRole('row', { name: new RegExp(`^${name.replace('.', '\\.')}`) })

// Two polls a second apart and 1.5 s of silence take 3.5 s of its own: the default 5 s is tight under load.
test('while files are read it shows the progress and each status, live, until all are done', async () => {
  const brief = doc('brief.pdf', 'ready', { pages: 2, chunks: 3 })
  const list = counted(documentEndpoints.listDocuments, (call) =>
    call <= 2
      ? answer(library(brief, doc('scan.pdf', 'processing')))
      : answer(library(brief, doc('scan.pdf', 'failed', { reason: 'the file is not a readable PDF' }))),
  )
  const { main } = await openDocuments(list.handler)

  expect(await within(main).findByText('Reading documents: 1 of 2 done', {}, { timeout: 3000 })).toBeTruthy()
  expect(within(main).getByRole('progressbar', { name: 'Library progress' })).toBeTruthy()
  expect(within(itemOf('brief.pdf')).getByText('Ready')).toBeTruthy()
  expect(within(itemOf('brief.pdf')).getByText(/2 pages, 3 passages/)).toBeTruthy()
  expect(within(itemOf('scan.pdf')).getByText('Reading')).toBeTruthy()

  // In the row: the status filter offers "Failed" too.
  expect(await waitFor(() => within(itemOf('scan.pdf')).getByText('Failed'), { timeout: 5000 })).toBeTruthy()
  expect(within(itemOf('scan.pdf')).getByText(/the file is not a readable PDF/)).toBeTruthy()
  expect(within(main).queryByText(/Reading documents/)).toBeNull()
  expect(within(itemOf('scan.pdf')).getByRole('button', { name: 'Retry' })).toBeTruthy()
  // Done: no more polling.
  const calls = list.calls()
  await new Promise((resolve) => setTimeout(resolve, 1500))
  expect(list.calls()).toBe(calls)
}, 15_000)

test('Retry queues a failed document and Delete removes one, each read again from the server', async () => {
  const scan = doc('scan.pdf', 'failed', { reason: 'the file is not a readable PDF' })
  const notes = doc('notes.txt', 'ready', { mimeType: 'text/plain', chunks: 1 })
  const calls: string[] = []
  let current = library(scan, notes)
  server.use(
    http.post(urlOf(documentEndpoints.retryDocument).replace(':id', scan.id), () => {
      calls.push('retry')
      current = library({ ...scan, status: 'ready', reason: null, chunks: 1 }, notes)
      return okResponse(documentEndpoints.retryDocument, {
        success: true,
        data: { ...scan, status: 'queued' },
      })
    }),
    http.delete(urlOf(documentEndpoints.deleteDocument).replace(':id', notes.id), () => {
      calls.push('delete')
      current = library({ ...scan, status: 'ready', reason: null, chunks: 1 })
      return okResponse(documentEndpoints.deleteDocument, { success: true, data: null })
    }),
  )
  const { user, main } = await openDocuments(
    counted(documentEndpoints.listDocuments, () => answer(current)).handler,
  )

  await user.click(await within(main).findByRole('button', { name: 'Retry' }))
  expect(await within(itemOf('scan.pdf')).findByText('Ready')).toBeTruthy()
  await user.click(within(itemOf('notes.txt')).getByRole('button', { name: 'More actions for notes.txt' }))
  await user.click(within(itemOf('notes.txt')).getByRole('menuitem', { name: 'Delete' }))
  // Asked first: Cancel keeps it.
  const confirm = screen.getByRole('dialog', { name: 'Delete document' })
  expect(within(confirm).getByText(/Delete “notes.txt” from your library\?/)).toBeTruthy()
  await user.click(within(confirm).getByRole('button', { name: 'Cancel' }))
  expect(calls).toEqual(['retry'])
  await user.click(within(itemOf('notes.txt')).getByRole('button', { name: 'More actions for notes.txt' }))
  await user.click(within(itemOf('notes.txt')).getByRole('menuitem', { name: 'Delete' }))
  await user.click(
    within(screen.getByRole('dialog', { name: 'Delete document' })).getByRole('button', { name: 'Delete' }),
  )

  await within(main).findByRole('table', { name: 'Documents' })
  await expect.poll(() => within(main).queryByText('notes.txt')).toBeNull()
  expect(calls).toEqual(['retry', 'delete'])
})

test('a removed Drive file is listed under "Removed from the library" and Add back brings it back', async () => {
  const notes = doc('notes.txt', 'skipped', { mimeType: 'text/plain', reason: 'removed from the library' })
  const restored: string[] = []
  let current: Library = { ...library(doc('brief.pdf', 'ready', { chunks: 2 })), removed: [notes] }
  server.use(
    http.post(urlOf(documentEndpoints.restoreDocument).replace(':id', notes.id), () => {
      restored.push(notes.id)
      current = library(doc('brief.pdf', 'ready', { chunks: 2 }), { ...notes, status: 'ready', reason: null })
      return okResponse(documentEndpoints.restoreDocument, {
        success: true,
        data: { ...notes, status: 'queued', reason: null },
      })
    }),
  )
  const { user, main } = await openDocuments(
    counted(documentEndpoints.listDocuments, () => answer(current)).handler,
  )

  await user.click(await within(main).findByText('Removed from the library (1)'))
  const removedList = within(main).getByRole('list', { name: 'Removed documents' })
  await user.click(within(removedList).getByRole('button', { name: 'Add back' }))

  expect(await within(itemOf('notes.txt')).findByText('Ready')).toBeTruthy()
  expect(within(main).queryByText(/Removed from the library/)).toBeNull()
  expect(restored).toEqual([notes.id])
})

test('it says what OCR read: a whole scan or photo, or which pages of a PDF, and what a limit left unread', async () => {
  const list = counted(documentEndpoints.listDocuments, () =>
    answer(
      library(
        doc('scan.pdf', 'ready', { pages: 3, chunks: 4, ocrPages: [1, 2, 3] }),
        doc('mixed.pdf', 'ready', { pages: 6, chunks: 9, ocrPages: [2, 3, 4, 6] }),
        doc('whiteboard.png', 'ready', { mimeType: 'image/png', chunks: 1, ocrPages: [1] }),
        doc('archive.pdf', 'ready', {
          pages: 350,
          chunks: 400,
          ocrPages: [1, 2],
          reason: 'only the first 200 of its 350 scanned pages were read by OCR',
        }),
      ),
    ),
  )
  await openDocuments(list.handler)

  expect(await within(itemOf('scan.pdf')).findByText(/3 pages, 4 passages, read by OCR/)).toBeTruthy()
  expect(within(itemOf('mixed.pdf')).getByText(/6 pages, 9 passages, pages 2–4, 6 read by OCR/)).toBeTruthy()
  expect(within(itemOf('whiteboard.png')).getByText(/1 passage, read by OCR/)).toBeTruthy()
  expect(
    within(itemOf('archive.pdf')).getByText(/only the first 200 of its 350 scanned pages were read by OCR/),
  ).toBeTruthy()
})
