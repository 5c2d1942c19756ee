import { expect, test, vi } from 'vitest'
import { createActor, waitFor } from 'xstate'
import {
  type AssistantEditorDeps,
  type AssistantEditorEmitted,
  copyOf,
  provideAssistantEditorMachine,
} from './assistant-editor-machine.ts'
import { assistant, HR_ID } from './assistant-fixtures.ts'

function start(overrides: Partial<AssistantEditorDeps> = {}) {
  const deps: AssistantEditorDeps = {
    get: vi.fn<AssistantEditorDeps['get']>().mockResolvedValue(assistant()),
    options: vi.fn<AssistantEditorDeps['options']>().mockResolvedValue({ models: [] }),
    documents: vi.fn<AssistantEditorDeps['documents']>().mockResolvedValue([{ id: 'd1', name: 'Leave.pdf' }]),
    driveFolders: vi
      .fn<AssistantEditorDeps['driveFolders']>()
      .mockResolvedValue([{ id: 'folder-hr', name: 'HR', parentId: null }]),
    update: vi.fn<AssistantEditorDeps['update']>(async (_id, fields) => assistant({ ...fields } as never)),
    create: vi.fn<AssistantEditorDeps['create']>(async () => assistant({ _id: 'copy-1' })),
    remove: vi.fn<AssistantEditorDeps['remove']>().mockResolvedValue(undefined),
    rotateIdentitySecret: vi.fn<AssistantEditorDeps['rotateIdentitySecret']>().mockResolvedValue('s3cret'),
    ...overrides,
  }
  const actor = createActor(provideAssistantEditorMachine(deps), { input: { assistantId: HR_ID } }).start()
  const heard: AssistantEditorEmitted[] = []
  actor.on('*', (event) => heard.push(event))
  return { actor, deps, heard }
}

const ready = (actor: ReturnType<typeof start>['actor']) => waitFor(actor, (s) => s.matches('ready'))

test('loads the assistant with the models, the documents and the Drive folders it may use', async () => {
  const { actor } = start()

  const { context } = await ready(actor)

  expect(context.assistant?.name).toBe('HR policies')
  expect(context.documents).toEqual([{ id: 'd1', name: 'Leave.pdf' }])
  expect(context.folders).toEqual([{ id: 'folder-hr', name: 'HR', parentId: null }])
})

test('a Drive that cannot be listed leaves the page working, with its sentence', async () => {
  const notConnected = Object.assign(new Error('Google Drive is not connected.'), { status: 400 })
  const { actor } = start({ driveFolders: vi.fn().mockRejectedValue(notConnected) })

  const { context } = await ready(actor)

  expect(context.folders).toBeNull()
  expect(context.foldersProblem).toBe('Google Drive is not connected.')
})

test('a server without Google Drive (503) offers no folders and no problem to fix (D133)', async () => {
  const noDrive = Object.assign(new Error('Google Drive is not configured on this server.'), { status: 503 })
  const { actor } = start({ driveFolders: vi.fn().mockRejectedValue(noDrive) })

  const { context } = await ready(actor)

  expect(context.driveOnServer).toBe(false)
  expect(context.folders).toBeNull()
  expect(context.foldersProblem).toBeNull()
})

test("another person's or a deleted assistant is missing, not an error", async () => {
  const { actor } = start({
    get: vi.fn().mockRejectedValue(Object.assign(new Error('Not found'), { status: 404 })),
  })

  await waitFor(actor, (s) => s.matches('missing'))
})

test('saves the edit and says so; a refused save keeps the page with the server sentence', async () => {
  const refused = Object.assign(new Error('Unknown Drive folder: folder-x'), { status: 400 })
  const update = vi
    .fn<AssistantEditorDeps['update']>()
    .mockResolvedValueOnce(assistant({ name: 'HR bot' }))
    .mockRejectedValueOnce(refused)
  const { actor } = start({ update })
  await ready(actor)

  actor.send({ type: 'editor.save', fields: { name: 'HR bot' } })
  const saved = await waitFor(actor, (s) => s.matches('ready') && s.context.notice !== null)
  expect(update).toHaveBeenCalledWith(HR_ID, { name: 'HR bot' })
  expect(saved.context.assistant?.name).toBe('HR bot')
  expect(saved.context.notice).toBe('Saved.')

  actor.send({ type: 'editor.save', fields: { knowledge: { documentIds: [], folderIds: ['folder-x'] } } })
  const failed = await waitFor(actor, (s) => s.matches('ready') && s.context.problem !== null)
  expect(failed.context.problem).toBe('Unknown Drive folder: folder-x')
  expect(failed.context.assistant?.name).toBe('HR bot')
})

test('duplicates every field under a copy name and tells the app the copy', async () => {
  const { actor, deps, heard } = start()
  await ready(actor)

  actor.send({ type: 'editor.duplicate' })
  await waitFor(actor, () => heard.length > 0)

  expect(deps.create).toHaveBeenCalledWith(copyOf(assistant()))
  expect(copyOf(assistant()).name).toBe('HR policies (copy)')
  expect(copyOf(assistant({ name: 'x'.repeat(80) })).name).toHaveLength(80)
  expect(heard).toEqual([{ type: 'editor.duplicated', assistantId: 'copy-1' }])
})

test('deletes only once confirmed, and then tells the app', async () => {
  const { actor, deps, heard } = start()
  await ready(actor)

  actor.send({ type: 'editor.askDelete' })
  actor.send({ type: 'editor.cancelDelete' })
  expect(actor.getSnapshot().matches('ready')).toBe(true)
  expect(deps.remove).not.toHaveBeenCalled()

  actor.send({ type: 'editor.askDelete' })
  actor.send({ type: 'editor.confirmDelete' })
  await waitFor(actor, (s) => s.status === 'done')

  expect(deps.remove).toHaveBeenCalledWith(HR_ID)
  expect(heard).toEqual([{ type: 'editor.deleted', assistantId: HR_ID }])
})
