import { expect, test, vi } from 'vitest'
import { createActor, waitFor } from 'xstate'
import type { Library, LibraryDocument } from '#contracts/documents.ts'
import { DOCUMENTS_MESSAGES, type DocumentsDeps, provideDocumentsMachine } from './documents-machine.ts'

const doc = (name: string, status: LibraryDocument['status']): LibraryDocument => ({
  id: `id-${name}`,
  name,
  source: 'drive',
  mimeType: 'text/plain',
  status,
  reason: status === 'failed' ? 'the file is not a readable PDF' : null,
  pages: null,
  chunks: status === 'ready' ? 1 : null,
  ocrPages: null,
  updatedAt: '2026-03-01T10:00:00.000Z',
  webViewLink: null,
})

function library(...documents: LibraryDocument[]): Library {
  const done = documents.filter((d) => ['ready', 'failed', 'skipped'].includes(d.status)).length
  return {
    documents,
    progress: { running: done < documents.length, done, total: documents.length },
    removed: [],
  }
}

function start(deps: Partial<DocumentsDeps>) {
  const full: DocumentsDeps = {
    listDocuments: vi.fn().mockResolvedValue(library()),
    deleteDocument: vi.fn().mockResolvedValue(undefined),
    retryDocument: vi.fn().mockResolvedValue(doc('a.txt', 'queued')),
    restoreDocument: vi.fn().mockResolvedValue(doc('a.txt', 'queued')),
    ...deps,
  }
  const actor = createActor(provideDocumentsMachine(full), { input: { pollMs: 5 } }).start()
  return { actor, deps: full }
}

test('while files are being read it polls, and stops once every file is done', async () => {
  const listDocuments = vi
    .fn<DocumentsDeps['listDocuments']>()
    .mockResolvedValueOnce(library(doc('a.txt', 'queued'), doc('b.txt', 'processing')))
    .mockResolvedValueOnce(library(doc('a.txt', 'ready'), doc('b.txt', 'processing')))
    .mockResolvedValue(library(doc('a.txt', 'ready'), doc('b.txt', 'failed')))
  const { actor } = start({ listDocuments })

  actor.send({ type: 'documents.load' })
  await waitFor(actor, (s) => s.matches('shown'))

  expect(listDocuments).toHaveBeenCalledTimes(3)
  expect(actor.getSnapshot().context.library?.progress).toEqual({ running: false, done: 2, total: 2 })
  await new Promise((resolve) => setTimeout(resolve, 30))
  expect(listDocuments).toHaveBeenCalledTimes(3)
})

test('watching an ingest polls before anything is queued, and unwatching ends it', async () => {
  const listDocuments = vi.fn<DocumentsDeps['listDocuments']>().mockResolvedValue(library())
  const { actor } = start({ listDocuments })

  actor.send({ type: 'documents.watch' })
  await vi.waitFor(() => expect(listDocuments.mock.calls.length).toBeGreaterThanOrEqual(3))
  actor.send({ type: 'documents.unwatch' })
  await waitFor(actor, (s) => s.matches('shown'))

  const calls = listDocuments.mock.calls.length
  await new Promise((resolve) => setTimeout(resolve, 30))
  expect(listDocuments.mock.calls.length).toBe(calls)
})

test('deleting and retrying call the server, then read the library again', async () => {
  const { actor, deps } = start({})
  actor.send({ type: 'documents.load' })
  await waitFor(actor, (s) => s.matches('shown'))

  actor.send({ type: 'documents.delete', id: 'id-a' })
  await waitFor(actor, (s) => s.matches('shown'))
  actor.send({ type: 'documents.retry', id: 'id-b' })
  await waitFor(actor, (s) => s.matches('shown'))

  expect(deps.deleteDocument).toHaveBeenCalledWith('id-a')
  expect(deps.retryDocument).toHaveBeenCalledWith('id-b')
  expect(deps.listDocuments).toHaveBeenCalledTimes(3)
})

test('adding back a removed file calls the server, then follows the library until the file is read', async () => {
  const removed = { ...doc('notes.txt', 'skipped'), reason: 'removed from the library' }
  const listDocuments = vi
    .fn<DocumentsDeps['listDocuments']>()
    .mockResolvedValueOnce({ ...library(), removed: [removed] })
    .mockResolvedValueOnce(library(doc('notes.txt', 'queued')))
    .mockResolvedValue(library(doc('notes.txt', 'ready')))
  const { actor, deps } = start({ listDocuments })
  actor.send({ type: 'documents.load' })
  await waitFor(actor, (s) => s.matches('shown'))

  actor.send({ type: 'documents.restore', id: removed.id })
  await waitFor(actor, (s) => s.matches('shown') && s.context.library?.documents[0]?.status === 'ready')

  expect(deps.restoreDocument).toHaveBeenCalledWith('id-notes.txt')
  expect(listDocuments).toHaveBeenCalledTimes(3)
})

test("a refused add-back shows the server's sentence", async () => {
  const restoreDocument = vi.fn<DocumentsDeps['restoreDocument']>().mockRejectedValue(
    Object.assign(new Error('Only a document removed from the library can be added back.'), {
      status: 409,
    }),
  )
  const { actor } = start({ restoreDocument })

  actor.send({ type: 'documents.restore', id: 'id-a.txt' })
  await waitFor(actor, (s) => s.matches('shown') && s.context.problem !== null)

  expect(actor.getSnapshot().context.problem).toBe(
    'Only a document removed from the library can be added back.',
  )
})

test("a refused delete shows the server's sentence; an unreachable server ours", async () => {
  const deleteDocument = vi
    .fn<DocumentsDeps['deleteDocument']>()
    .mockRejectedValueOnce(Object.assign(new Error('Document not found.'), { status: 404 }))
    .mockRejectedValueOnce(Object.assign(new Error('fetch failed'), { status: 0 }))
  const { actor } = start({ deleteDocument })

  actor.send({ type: 'documents.delete', id: 'gone' })
  await waitFor(actor, (s) => s.matches('shown'))
  expect(actor.getSnapshot().context.problem).toBe('Document not found.')

  actor.send({ type: 'documents.delete', id: 'gone' })
  await waitFor(actor, (s) => s.matches('shown') && s.context.problem !== null)
  expect(actor.getSnapshot().context.problem).toBe(DOCUMENTS_MESSAGES.deleteFailed)
})

test('a failed load says so and keeps the last library', async () => {
  const listDocuments = vi
    .fn<DocumentsDeps['listDocuments']>()
    .mockResolvedValueOnce(library(doc('a.txt', 'ready')))
    .mockRejectedValueOnce(new Error('down'))
  const { actor } = start({ listDocuments })
  actor.send({ type: 'documents.load' })
  await waitFor(actor, (s) => s.matches('shown'))

  actor.send({ type: 'documents.load' })
  await waitFor(actor, (s) => s.matches('failed'))

  expect(actor.getSnapshot().context.problem).toBe(DOCUMENTS_MESSAGES.loadFailed)
  expect(actor.getSnapshot().context.library?.documents).toHaveLength(1)
})

test('ready documents can be selected to ask about together; one that stops being ready leaves the selection', async () => {
  const listDocuments = vi
    .fn<DocumentsDeps['listDocuments']>()
    .mockResolvedValueOnce(library(doc('a.txt', 'ready'), doc('b.txt', 'ready'), doc('c.txt', 'failed')))
    // a.txt deleted meanwhile (in another tab).
    .mockResolvedValue(library(doc('b.txt', 'ready'), doc('c.txt', 'failed')))
  const { actor } = start({ listDocuments })
  actor.send({ type: 'documents.load' })
  await waitFor(actor, (s) => s.matches('shown'))

  actor.send({ type: 'documents.select', id: 'id-b.txt', selected: true })
  actor.send({ type: 'documents.select', id: 'id-a.txt', selected: true })
  actor.send({ type: 'documents.select', id: 'id-c.txt', selected: true })
  expect(actor.getSnapshot().context.selected).toEqual(['id-b.txt', 'id-a.txt'])

  actor.send({ type: 'documents.load' })
  await waitFor(actor, (s) => s.matches('shown'))
  expect(actor.getSnapshot().context.selected).toEqual(['id-b.txt'])

  actor.send({ type: 'documents.select', id: 'id-b.txt', selected: false })
  expect(actor.getSnapshot().context.selected).toEqual([])
  actor.send({ type: 'documents.select', id: 'id-b.txt', selected: true })
  actor.send({ type: 'documents.clearSelection' })
  expect(actor.getSnapshot().context.selected).toEqual([])
})

test('hidden (Documents left the screen), it stops polling and forgets the library, the selection and the problem', async () => {
  const listDocuments = vi
    .fn<DocumentsDeps['listDocuments']>()
    .mockResolvedValue(library(doc('a.txt', 'ready'), doc('b.txt', 'queued')))
  const { actor } = start({ listDocuments })
  actor.send({ type: 'documents.load' })
  await waitFor(actor, (s) => s.matches('waiting'))
  actor.send({ type: 'documents.select', id: 'id-a.txt', selected: true })

  actor.send({ type: 'documents.hide' })
  const calls = listDocuments.mock.calls.length
  await new Promise((resolve) => setTimeout(resolve, 30))

  expect(listDocuments.mock.calls.length).toBe(calls)
  expect(actor.getSnapshot().value).toBe('idle')
  expect(actor.getSnapshot().context).toMatchObject({
    library: null,
    problem: null,
    watching: false,
    selected: [],
  })
})
