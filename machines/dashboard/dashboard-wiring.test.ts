import { expect, test } from 'vitest'
import { libraryDocument } from '#machines/documents/documents-fixtures.ts'
import { startDashboard as start } from './dashboard-fakes.ts'

const DOCUMENTS = { path: '/dashboard/docs', section: 'documents', screen: 'documents' } as const
const file = { name: 'notes.pdf', size: 20_000, type: 'application/pdf' }

test('the upload, Drive, the library and the Documents table start with the dashboard, each under its systemId', () => {
  const { dashboard, child } = start()

  const { children } = dashboard.getSnapshot()
  expect(child('upload')).toBe(children.upload)
  expect(child('drive')).toBe(children.drive)
  expect(child('documents')).toBe(children.documents)
  expect(child('documentsTable')).toBe(children.documentsTable)
})

test('Documents on screen loads the library; leaving it, for the viewer too, hides the library', () => {
  const { routed, toldTo } = start()

  routed({ path: '/dashboard/chat' })
  routed(DOCUMENTS)
  routed(DOCUMENTS)
  routed({ path: '/dashboard/documents/d1', section: 'documents', screen: 'document' })
  routed(DOCUMENTS)
  routed({ path: '/dashboard/history', section: 'history' })

  expect(toldTo('documents')).toEqual([
    'documents.load',
    'documents.hide',
    'documents.load',
    'documents.hide',
  ])
})

test('coming back to Documents starts its table afresh: no search, filters or sort kept from before', () => {
  const { routed, child } = start()
  routed(DOCUMENTS)
  const table = child('documentsTable')
  table.send({ type: 'table.search', query: 'budget' })
  table.send({ type: 'table.sort', column: 'name' })
  table.send({ type: 'table.openMenu', key: 'lib-a' })

  routed({ path: '/dashboard/integrations', section: 'integrations' })
  routed(DOCUMENTS)

  const initial = start().child('documentsTable').getSnapshot().context
  expect(table.getSnapshot().context).toEqual(initial)
})

test('a deletion confirmed in the table is carried out by the library', () => {
  const { routed, child, toldTo } = start()
  routed(DOCUMENTS)
  const table = child('documentsTable')

  table.send({ type: 'table.askDelete', libraryId: 'lib-a', name: 'a.pdf' })
  table.send({ type: 'table.confirmDelete' })

  expect(toldTo('documents')).toEqual(['documents.load', 'documents.delete lib-a'])
})

test('the library follows an ingest while Documents is on screen, one under way when it comes back included', () => {
  const { routed, emits, toldTo } = start()
  routed(DOCUMENTS)
  emits('drive', { type: 'drive.ingestStarted' })
  emits('drive', { type: 'drive.ingestFinished' })
  expect(toldTo('documents')).toEqual(['documents.load', 'documents.watch', 'documents.unwatch'])

  emits('drive', { type: 'drive.ingestStarted' })
  routed({ path: '/dashboard/chat' })
  routed(DOCUMENTS)

  expect(toldTo('documents').slice(3)).toEqual([
    'documents.watch',
    'documents.hide',
    'documents.load',
    'documents.watch',
  ])
})

test('an ingest that starts and ends elsewhere tells the library nothing', () => {
  const { routed, emits, toldTo } = start()
  routed({ path: '/dashboard/integrations', section: 'integrations' })

  emits('drive', { type: 'drive.ingestStarted' })
  emits('drive', { type: 'drive.ingestFinished' })

  expect(toldTo('documents')).toEqual([])
})

test('a file uploaded into the library joins Documents on screen; elsewhere the library hears nothing', () => {
  const { routed, emits, toldTo } = start()
  const uploaded = {
    type: 'upload.uploaded',
    conversationId: null,
    document: libraryDocument('a.pdf'),
  } as const
  routed({ path: '/dashboard/documents/d1', section: 'documents', screen: 'document' })
  emits('upload', uploaded)
  routed(DOCUMENTS)

  emits('upload', uploaded)

  expect(toldTo('documents')).toEqual(['documents.load', 'documents.load'])
  expect(toldTo('chat')).toEqual([])
})

test("a file uploaded into a conversation joins that conversation's files; one chosen in a new chat goes to its composer", () => {
  const { routed, emits, toldTo } = start()
  routed(DOCUMENTS)

  emits('upload', { type: 'upload.uploaded', conversationId: 's1', document: libraryDocument('a.pdf') })
  emits('upload', { type: 'upload.attached', file, content: new Blob(['x']) })

  expect(toldTo('chat')).toEqual(['file a.pdf in s1', 'attach notes.pdf'])
  expect(toldTo('documents')).toEqual(['documents.load'])
})
