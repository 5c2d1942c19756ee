import { expect, test, vi } from 'vitest'
import { createActor, waitFor } from 'xstate'
import { assistant, HR_ID } from './assistant-fixtures.ts'
import { ALL, provideInboxMachine } from './inbox-machine.ts'
import { INBOX_MESSAGES, type Inbox, type InboxConversation, type InboxDeps } from './inbox-types.ts'

const C1 = '11111111-1111-4111-8111-111111111111'
const C2 = '22222222-2222-4222-8222-222222222222'

function conversation(id: string, fields: Partial<InboxConversation> = {}): InboxConversation {
  return {
    _id: id,
    visitor: { id: 'v-1', signed: false, name: null, email: null },
    firstQuestion: 'How many days off do I get?',
    createdAt: '2026-03-01T10:00:00.000Z',
    updatedAt: '2026-03-01T10:01:00.000Z',
    messageCount: 2,
    unanswered: false,
    likes: 0,
    dislikes: 0,
    ...fields,
  }
}

function page(conversations: InboxConversation[], next: string | null = null): Inbox {
  return { conversations, next, topQuestions: { days7: [], days30: [] }, perDay: [] }
}

function start(overrides: Partial<InboxDeps> = {}) {
  const deps: InboxDeps = {
    get: vi.fn().mockResolvedValue(assistant({ published: true, publicId: 'pub-hr' })),
    inbox: vi.fn<InboxDeps['inbox']>(async (_id, filter, cursor) =>
      filter === 'unanswered'
        ? page([conversation(C2, { unanswered: true })])
        : cursor === null
          ? page([conversation(C1)], 'cursor-2')
          : page([conversation(C2)]),
    ),
    inboxConversation: vi.fn<InboxDeps['inboxConversation']>(async (_id, conversationId) => ({
      conversation: conversation(conversationId),
      messages: [],
    })),
    deleteInboxConversations: vi.fn().mockResolvedValue(2),
    deleteInboxConversation: vi.fn().mockResolvedValue(undefined),
    ...overrides,
  }
  const actor = createActor(provideInboxMachine(deps), { input: { assistantId: HR_ID } }).start()
  return { actor, deps }
}

const listReady = (actor: ReturnType<typeof start>['actor']) =>
  waitFor(actor, (s) => s.matches({ list: 'ready' }))

test('pages on with the cursor, keeping the conversations already shown', async () => {
  const { actor, deps } = start()
  await listReady(actor)
  expect(actor.getSnapshot().context.next).toBe('cursor-2')

  actor.send({ type: 'inbox.more' })
  await waitFor(actor, (s) => s.matches({ list: 'ready' }) && s.context.next === null)

  expect(deps.inbox).toHaveBeenLastCalledWith(HR_ID, 'all', 'cursor-2')
  expect(actor.getSnapshot().context.conversations.map((c) => c._id)).toEqual([C1, C2])
})

test('Unanswered loads its own first page in place of the list', async () => {
  const { actor, deps } = start()
  await listReady(actor)

  actor.send({ type: 'inbox.filter', filter: 'unanswered' })
  await waitFor(actor, (s) => s.matches({ list: 'ready' }) && s.context.filter === 'unanswered')

  expect(deps.inbox).toHaveBeenLastCalledWith(HR_ID, 'unanswered', null)
  expect(actor.getSnapshot().context.conversations.map((c) => c._id)).toEqual([C2])
})

test('deleting the conversation on show asks first, then closes it and reloads the list', async () => {
  const { actor, deps } = start()
  await listReady(actor)
  actor.send({ type: 'inbox.open', conversationId: C1 })
  await waitFor(actor, (s) => s.context.open !== null)

  actor.send({ type: 'inbox.askDelete', conversationId: C1 })
  expect(actor.getSnapshot().matches({ list: 'confirmingDelete' })).toBe(true)
  expect(deps.deleteInboxConversation).not.toHaveBeenCalled()
  actor.send({ type: 'inbox.confirmDelete' })
  await waitFor(actor, (s) => s.matches({ list: 'ready' }) && s.context.notice !== null)

  expect(deps.deleteInboxConversation).toHaveBeenCalledWith(HR_ID, C1)
  expect(actor.getSnapshot().context.open).toBeNull()
  expect(actor.getSnapshot().context.notice).toBe(INBOX_MESSAGES.deletedOne)
  expect(deps.inbox).toHaveBeenCalledTimes(2)
})

test('Delete all says how many went', async () => {
  const { actor, deps } = start()
  await listReady(actor)

  actor.send({ type: 'inbox.askDelete', conversationId: null })
  expect(actor.getSnapshot().context.pendingDelete).toBe(ALL)
  actor.send({ type: 'inbox.confirmDelete' })
  await waitFor(actor, (s) => s.matches({ list: 'ready' }) && s.context.notice !== null)

  expect(deps.deleteInboxConversations).toHaveBeenCalledWith(HR_ID)
  expect(actor.getSnapshot().context.notice).toBe('Deleted 2 conversations.')
})

test("an unknown assistant's inbox says it is missing", async () => {
  const missing = Object.assign(new Error('Assistant not found'), { status: 404 })
  const { actor } = start({ get: vi.fn().mockRejectedValue(missing) })

  await waitFor(actor, (s) => s.matches({ list: 'missing' }))
})
