import { expect, test, vi } from 'vitest'
import { type ActorRefFrom, createActor, waitFor } from 'xstate'
import { DEFAULT_BUDGETS, type PublishingRequest } from '#contracts/publishing.ts'
import { type AssistantEditorDeps, provideAssistantEditorMachine } from './assistant-editor-machine.ts'
import { assistant, HR_ID } from './assistant-fixtures.ts'
import { PUBLISH_MESSAGES, type publishMachine } from './publish-machine.ts'

const PUBLISHING: PublishingRequest = {
  published: true,
  allowedOrigins: ['https://intranet.example.com'],
  publicPage: true,
  allowIndexing: false,
  showSourceNames: true,
  hideUnverified: false,
  busyMessage: 'Busy, back soon.',
  privacyNotice: '',
  budgets: DEFAULT_BUDGETS,
  requireChallenge: false,
  retentionDays: 90,
}

/** The Publish panel as the page runs it: the editor's child. */
async function start(overrides: Partial<AssistantEditorDeps> = {}, hasIdentitySecret = false) {
  const deps: AssistantEditorDeps = {
    get: vi.fn().mockResolvedValue(assistant({ hasIdentitySecret })),
    options: vi.fn().mockResolvedValue({ models: [] }),
    documents: vi.fn().mockResolvedValue([]),
    driveFolders: vi.fn().mockResolvedValue([]),
    update: vi.fn<AssistantEditorDeps['update']>(async (_id, fields) =>
      assistant({ ...fields, publicId: 'pub-hr', updatedAt: '2026-03-02T10:00:00.000Z' } as never),
    ),
    create: vi.fn(),
    remove: vi.fn(),
    rotateIdentitySecret: vi.fn<AssistantEditorDeps['rotateIdentitySecret']>().mockResolvedValue('s3cret'),
    ...overrides,
  }
  const editor = createActor(provideAssistantEditorMachine(deps), { input: { assistantId: HR_ID } }).start()
  await waitFor(editor, (s) => s.matches('ready'))
  const publish = editor.getSnapshot().children.publish as ActorRefFrom<typeof publishMachine>
  return { editor, publish, deps }
}

test('saving publishing sends its fields with the PATCH and the page then reads the published assistant', async () => {
  const { editor, publish, deps } = await start()

  publish.send({ type: 'publish.save', fields: PUBLISHING })
  await waitFor(publish, (s) => s.matches('ready') && s.context.notice !== null)

  expect(deps.update).toHaveBeenCalledWith(HR_ID, PUBLISHING)
  expect(publish.getSnapshot().context.notice).toBe(PUBLISH_MESSAGES.saved)
  expect(editor.getSnapshot().context.assistant).toMatchObject({ published: true, publicId: 'pub-hr' })
})

test("a refused save says the server's sentence and the page keeps what was saved", async () => {
  const refused = Object.assign(new Error('At most 20 allowed sites'), { status: 400 })
  const { editor, publish } = await start({ update: vi.fn().mockRejectedValue(refused) })

  publish.send({ type: 'publish.save', fields: PUBLISHING })
  await waitFor(publish, (s) => s.context.problem !== null)

  expect(publish.getSnapshot().context.problem).toBe('At most 20 allowed sites')
  expect(editor.getSnapshot().context.assistant?.published).toBe(false)
})

test('the first secret is made at once and shown until its dialog closes, then forgotten', async () => {
  const { editor, publish, deps } = await start()

  publish.send({ type: 'publish.makeSecret' })
  await waitFor(publish, (s) => s.matches('showingSecret'))

  expect(publish.getSnapshot().context.secret).toBe('s3cret')
  expect(deps.rotateIdentitySecret).toHaveBeenCalledWith(HR_ID)
  expect(editor.getSnapshot().context.assistant?.hasIdentitySecret).toBe(true)
  publish.send({ type: 'publish.closeSecret' })
  expect(publish.getSnapshot().context.secret).toBeNull()
})

test('rotating an existing secret is asked first, and Cancel keeps the old one', async () => {
  const { publish, deps } = await start({}, true)

  publish.send({ type: 'publish.makeSecret' })
  expect(publish.getSnapshot().matches('confirmingRotate')).toBe(true)
  publish.send({ type: 'publish.cancelRotate' })
  expect(deps.rotateIdentitySecret).not.toHaveBeenCalled()

  publish.send({ type: 'publish.makeSecret' })
  publish.send({ type: 'publish.confirmRotate' })
  await waitFor(publish, (s) => s.matches('showingSecret'))
  expect(deps.rotateIdentitySecret).toHaveBeenCalledTimes(1)
})
