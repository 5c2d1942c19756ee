import { expect, test, vi } from 'vitest'
import { createActor, waitFor } from 'xstate'
import type { DocumentView } from '#contracts/documents.ts'
import { citedPassage, provideViewerMachine, type ViewerDeps } from './viewer-machine.ts'

function view(mimeType: string, pages: (number | null)[]): DocumentView {
  return {
    document: {
      id: 'library-id',
      name: 'brief',
      source: 'upload',
      mimeType,
      status: 'ready',
      reason: null,
      pages: null,
      chunks: pages.length,
      ocrPages: null,
      updatedAt: '2026-03-01T10:00:00.000Z',
      webViewLink: null,
    },
    passages: pages.map((page, i) => ({ id: `p${i}`, page, heading: null, text: `passage ${i}` })),
  }
}

function start(deps: Partial<ViewerDeps>, passageId: string | null = null) {
  const full: ViewerDeps = {
    loadDocument: vi.fn().mockResolvedValue(view('text/plain', [null])),
    openPdf: vi.fn().mockResolvedValue({ numPages: 3 }),
    ...deps,
  }
  const actor = createActor(provideViewerMachine(full), {
    input: { documentId: 'citation-id', passageId },
  }).start()
  return { actor, deps: full }
}

test('a PDF opens at the page of the cited passage, from the library id the server answered', async () => {
  const { actor, deps } = start(
    { loadDocument: vi.fn().mockResolvedValue(view('application/pdf', [1, 2, 3])) },
    'p1',
  )

  const snapshot = await waitFor(actor, (s) => s.matches('readingPdf'))

  expect(snapshot.context.page).toBe(2)
  expect(deps.openPdf).toHaveBeenCalledWith('library-id')
  expect(citedPassage(snapshot.context)?.text).toBe('passage 1')
})

test('a PDF zooms in and out by steps, from fitting the width (100 %) up to 300 % and down to 50 %', async () => {
  const { actor } = start({ loadDocument: vi.fn().mockResolvedValue(view('application/pdf', [1])) })
  await waitFor(actor, (s) => s.matches('readingPdf'))
  expect(actor.getSnapshot().context.zoom).toBe(1)

  actor.send({ type: 'viewer.zoom', by: 1 })
  expect(actor.getSnapshot().context.zoom).toBe(1.25)
  for (let i = 0; i < 10; i += 1) actor.send({ type: 'viewer.zoom', by: 1 })
  expect(actor.getSnapshot().context.zoom).toBe(3)
  for (let i = 0; i < 10; i += 1) actor.send({ type: 'viewer.zoom', by: -1 })
  expect(actor.getSnapshot().context.zoom).toBe(0.5)
})

test('pages move within the document, never past its ends', async () => {
  const { actor } = start({ loadDocument: vi.fn().mockResolvedValue(view('application/pdf', [1])) })
  await waitFor(actor, (s) => s.matches('readingPdf'))

  actor.send({ type: 'viewer.goToPage', page: 9 })
  expect(actor.getSnapshot().context.page).toBe(3)
  actor.send({ type: 'viewer.goToPage', page: 0 })
  expect(actor.getSnapshot().context.page).toBe(1)
  actor.send({ type: 'viewer.pageShown', page: 2 })
  expect(actor.getSnapshot().context).toMatchObject({ page: 2, jumps: 2 })
})

test('a Google Doc opens as a PDF; a text file shows its passages without opening the file', async () => {
  const doc = start({
    loadDocument: vi.fn().mockResolvedValue(view('application/vnd.google-apps.document', [null])),
  })
  await waitFor(doc.actor, (s) => s.matches('readingPdf'))

  const text = start({ loadDocument: vi.fn().mockResolvedValue(view('text/markdown', [null, null])) }, 'p1')
  const snapshot = await waitFor(text.actor, (s) => s.matches('reading'))
  expect(text.deps.openPdf).not.toHaveBeenCalled()
  expect(citedPassage(snapshot.context)?.id).toBe('p1')
})

test('a Google Sheet shows its text (its tables as read), never asking Drive for a PDF export', async () => {
  const { actor, deps } = start({
    loadDocument: vi.fn().mockResolvedValue(view('application/vnd.google-apps.spreadsheet', [null, null])),
    openPdf: vi.fn().mockRejectedValue(new Error('Google Drive refused the download (400)')),
  })

  const snapshot = await waitFor(actor, (s) => s.matches('reading'))

  expect(deps.openPdf).not.toHaveBeenCalled()
  expect(snapshot.context.fileProblem).toBeNull()
})

test('a file that cannot be opened falls back to its passages, saying why', async () => {
  const { actor } = start({
    loadDocument: vi.fn().mockResolvedValue(view('application/pdf', [1])),
    openPdf: vi
      .fn()
      .mockRejectedValue(new Error('Google Drive is not connected. Connect it under Integrations.')),
  })

  const snapshot = await waitFor(actor, (s) => s.matches('reading'))

  expect(snapshot.context.fileProblem).toBe('Google Drive is not connected. Connect it under Integrations.')
})

test("a document that cannot be loaded says the server's sentence, and Try again loads it again", async () => {
  const loadDocument = vi
    .fn()
    .mockRejectedValueOnce(new Error('Document not found.'))
    .mockResolvedValue(view('text/plain', [null]))
  const { actor } = start({ loadDocument })

  const failed = await waitFor(actor, (s) => s.matches('failed'))
  expect(failed.context.problem).toBe('Document not found.')
  actor.send({ type: 'viewer.retry' })
  await waitFor(actor, (s) => s.matches('reading'))
  expect(loadDocument).toHaveBeenCalledTimes(2)
})

test('a passage the document no longer has names nothing (it was read again since)', async () => {
  const { actor } = start({ loadDocument: vi.fn().mockResolvedValue(view('text/plain', [null])) }, 'gone')
  const snapshot = await waitFor(actor, (s) => s.matches('reading'))
  expect(citedPassage(snapshot.context)).toBeNull()
})
