// What a conversation searches (D70), a child actor of the open conversation, through the chat as the app runs it.
import { expect, test, vi } from 'vitest'
import { waitFor } from 'xstate'
import { type Conversation, SCOPE_MAX_DOCUMENTS } from '#contracts/chat.ts'
import {
  conversation,
  created,
  fakeDeps,
  idle,
  message,
  older,
  openWithMessages,
  startChat,
  viewOf,
} from './chat-fixtures.ts'
import { SCOPE_NOTICES, scopeOnScreen } from './chat-scope.ts'
import type { ChatDeps, ChatEmitted } from './chat-types.ts'

const report = { id: 'doc-report', name: 'report.pdf' }
const minutes = { id: 'doc-minutes', name: 'minutes.pdf' }

test('a new chat collects documents as chips; its first message creates the conversation with them', async () => {
  const scoped = conversation('s-created', '2026-03-01T12:00:00.000Z', {
    scope: { documentIds: [report.id, minutes.id], documents: [report, minutes] },
  })
  const { chat, deps } = await startChat(fakeDeps({ createConversation: vi.fn().mockResolvedValue(scoped) }))

  chat.send({ type: 'chat.scopeAdd', document: report })
  chat.send({ type: 'chat.scopeAdd', document: minutes })
  chat.send({ type: 'chat.scopeAdd', document: report })
  expect(scopeOnScreen(viewOf(chat.getSnapshot()))?.documents).toEqual([report, minutes])

  chat.send({ type: 'chat.send', content: 'Compare them' })
  await idle(chat)

  expect(deps.createConversation).toHaveBeenCalledWith('Compare them', [report.id, minutes.id])
  const context = viewOf(chat.getSnapshot())
  expect(context.draftScope).toEqual([])
  expect(scopeOnScreen(context)?.documentIds).toEqual([report.id, minutes.id])
})

test('removing a chip or clearing a new chat changes only its draft; nothing is called', async () => {
  const { chat, deps } = await startChat()
  chat.send({ type: 'chat.scopeAdd', document: report })
  chat.send({ type: 'chat.scopeAdd', document: minutes })

  chat.send({ type: 'chat.scopeRemove', documentId: report.id })
  expect(viewOf(chat.getSnapshot()).draftScope).toEqual([minutes])
  chat.send({ type: 'chat.scopeClear' })
  expect(scopeOnScreen(viewOf(chat.getSnapshot()))).toBeNull()
  expect(deps.setScope).not.toHaveBeenCalled()
})

test("an open conversation's chips change once the server stored them, one change at a time", async () => {
  const gate = Promise.withResolvers<Conversation>()
  const { chat, deps } = await openWithMessages([], { setScope: vi.fn(() => gate.promise) })

  chat.send({ type: 'chat.scopeAdd', document: report })
  chat.send({ type: 'chat.scopeAdd', document: minutes })

  expect(deps.setScope).toHaveBeenCalledTimes(1)
  expect(deps.setScope).toHaveBeenCalledWith(older._id, [report.id])
  expect(scopeOnScreen(viewOf(chat.getSnapshot()))).toBeNull()
  gate.resolve(
    conversation(older._id, older.updatedAt, { scope: { documentIds: [report.id], documents: [report] } }),
  )
  await waitFor(chat, (s) => viewOf(s).savingScopeOf === null)
  expect(scopeOnScreen(viewOf(chat.getSnapshot()))?.documents).toEqual([report])
})

test('removing the last chip of a conversation lifts its limit; a failed save says so and keeps the chips', async () => {
  const scoped = conversation('s-old', '2026-02-01T09:00:00.000Z', {
    scope: { documentIds: [report.id], documents: [report] },
  })
  const { chat, deps } = await openWithMessages([], {
    listConversations: vi.fn().mockResolvedValue([scoped]),
    setScope: vi
      .fn<ChatDeps['setScope']>(async (id) => conversation(id, scoped.updatedAt, { scope: null }))
      .mockRejectedValueOnce(new Error('down')),
  })

  chat.send({ type: 'chat.scopeRemove', documentId: report.id })
  await waitFor(chat, (s) => viewOf(s).savingScopeOf === null)
  expect(deps.setScope).toHaveBeenCalledWith('s-old', null)
  expect(viewOf(chat.getSnapshot()).scopeNotice).toBe(SCOPE_NOTICES.saveFailed)
  expect(scopeOnScreen(viewOf(chat.getSnapshot()))?.documents).toEqual([report])
  expect(deps.log.error).toHaveBeenCalledTimes(1)

  chat.send({ type: 'chat.scopeClear' })
  await waitFor(chat, (s) => viewOf(s).savingScopeOf === null)
  expect(scopeOnScreen(viewOf(chat.getSnapshot()))).toBeNull()
  expect(viewOf(chat.getSnapshot()).scopeNotice).toBeNull()
})

test(`a scope holds at most ${SCOPE_MAX_DOCUMENTS} documents: one more is refused with a sentence`, async () => {
  const { chat } = await startChat()
  for (let i = 0; i < SCOPE_MAX_DOCUMENTS + 1; i++)
    chat.send({ type: 'chat.scopeAdd', document: { id: `doc-${i}`, name: `${i}.pdf` } })

  expect(viewOf(chat.getSnapshot()).draftScope).toHaveLength(SCOPE_MAX_DOCUMENTS)
  expect(viewOf(chat.getSnapshot()).scopeNotice).toBe(SCOPE_NOTICES.full)
})

test('"Ask about" starts a new chat about those documents and tells the app to show it', async () => {
  const { chat } = await openWithMessages([message('m0', true, 'Earlier')])
  const heard: ChatEmitted[] = []
  chat.on('chat.askingAbout', (event) => heard.push(event))

  chat.send({ type: 'chat.askAbout', documents: [minutes, minutes, report] })
  // The address then moves to the new chat, which the route tells the machine: nothing is lost.
  chat.send({ type: 'chat.new' })

  const context = viewOf(chat.getSnapshot())
  expect(context.selectedConversationId).toBeNull()
  expect(context.messages).toEqual([])
  expect(context.draftScope).toEqual([minutes, report])
  expect(heard).toEqual([{ type: 'chat.askingAbout' }])
})

test('a chosen document deleted meanwhile: the conversation is not created, the document leaves the draft, with a sentence', async () => {
  const refused = Object.assign(new Error(`Document ${minutes.id} is not in your library.`), { status: 400 })
  const { chat, deps } = await startChat(
    fakeDeps({ createConversation: vi.fn().mockRejectedValueOnce(refused).mockResolvedValue(created) }),
  )
  chat.send({ type: 'chat.askAbout', documents: [report, minutes] })

  chat.send({ type: 'chat.send', content: 'Compare them' })
  await idle(chat)

  const context = viewOf(chat.getSnapshot())
  expect(context.draft).toBe('Compare them')
  expect(context.draftScope).toEqual([report])
  expect(context.scopeNotice).toBe(SCOPE_NOTICES.gone('minutes.pdf'))
  chat.send({ type: 'chat.send', content: 'Compare them' })
  await idle(chat)
  expect(deps.createConversation).toHaveBeenLastCalledWith('Compare them', [report.id])
})
