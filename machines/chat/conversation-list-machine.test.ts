import { expect, test, vi } from 'vitest'
import { waitFor } from 'xstate'
import {
  fakeDeps,
  heard,
  idle,
  message,
  newer,
  older,
  openWithMessages,
  startChat,
  viewOf,
} from './chat-fixtures.ts'
import { plainText } from './chat-model.ts'
import { partsOf } from './chat-selectors.ts'
import type { ChatDeps } from './chat-types.ts'

test('loads the conversations once when it starts, newest first, in the UI shape', async () => {
  const { chat, deps } = await startChat()

  chat.send({ type: 'chat.new' })
  chat.send({ type: 'chat.select', conversationId: older._id })
  await idle(chat)

  expect(deps.listConversations).toHaveBeenCalledTimes(1)
  expect(viewOf(chat.getSnapshot()).conversations).toEqual([
    {
      id: 's-new',
      title: 'Title s-new',
      lastMessage: 'Last s-new',
      timestamp: newer.updatedAt,
      messageCount: 2,
      scope: null,
      assistant: null,
    },
    {
      id: 's-old',
      title: 'Title s-old',
      lastMessage: 'Last s-old',
      timestamp: older.updatedAt,
      messageCount: 2,
      scope: null,
      assistant: null,
    },
  ])
})

test('a failed conversation load is only logged', async () => {
  const { chat, deps } = await startChat(
    fakeDeps({ listConversations: vi.fn().mockRejectedValue(new Error('down')) }),
  )

  expect(viewOf(chat.getSnapshot()).conversations).toEqual([])
  expect(deps.log.error).toHaveBeenCalledTimes(1)
})

test('deleting another conversation removes it once the server agrees; the open one stays', async () => {
  const gate = Promise.withResolvers<void>()
  const { chat, deps } = await openWithMessages(
    [message('m1', true, 'Hi')],
    fakeDeps({
      deleteConversation: vi.fn(() => gate.promise),
      listMessages: vi.fn().mockResolvedValue([message('m1', true, 'Hi')]),
    }),
  )

  chat.send({ type: 'chat.delete', conversationId: 's-new' })
  expect(viewOf(chat.getSnapshot()).conversations.map((s) => s.id)).toEqual(['s-new', 's-old'])
  expect(viewOf(chat.getSnapshot()).deletingConversationIds).toEqual(['s-new'])
  gate.resolve()
  await waitFor(chat, (s) => viewOf(s).deletingConversationIds.length === 0)

  const context = viewOf(chat.getSnapshot())
  expect(deps.deleteConversation).toHaveBeenCalledWith('s-new')
  expect(context.conversations.map((s) => s.id)).toEqual(['s-old'])
  expect(context.selectedConversationId).toBe('s-old')
  expect(context.messages.map((m) => m.id)).toEqual(['m1'])
})

test('deleting the open conversation clears the messages and the selection', async () => {
  const { chat } = await openWithMessages([message('m1', true, 'Hi')])

  chat.send({ type: 'chat.delete', conversationId: 's-old' })
  await waitFor(chat, (s) => viewOf(s).conversations.length === 1)

  const context = viewOf(chat.getSnapshot())
  expect(context.messages).toEqual([])
  expect(context.selectedConversationId).toBeNull()
})

test('two deletions can run at once', async () => {
  const { chat, deps } = await startChat()

  chat.send({ type: 'chat.delete', conversationId: 's-old' })
  chat.send({ type: 'chat.delete', conversationId: 's-new' })
  await waitFor(chat, (s) => viewOf(s).conversations.length === 0)

  expect(deps.deleteConversation).toHaveBeenCalledTimes(2)
})

test('a failed deletion is only logged and can be tried again', async () => {
  const deleteConversation = vi
    .fn<ChatDeps['deleteConversation']>()
    .mockRejectedValueOnce(new Error('500'))
    .mockResolvedValue()
  const { chat, deps } = await startChat(fakeDeps({ deleteConversation }))

  chat.send({ type: 'chat.delete', conversationId: 's-old' })
  await waitFor(chat, (s) => viewOf(s).deletingConversationIds.length === 0)
  expect(viewOf(chat.getSnapshot()).conversations).toHaveLength(2)
  expect(deps.log.error).toHaveBeenCalledTimes(1)

  chat.send({ type: 'chat.delete', conversationId: 's-old' })
  await waitFor(chat, (s) => viewOf(s).conversations.length === 1)
})

test('rename shows the new title once the server stored it', async () => {
  const { chat, deps } = await startChat()
  chat.send({ type: 'chat.rename', conversationId: 's-old', title: '  Budget  ' })
  await waitFor(chat, (s) => viewOf(s).conversations.some((x) => x.title === 'Budget'))
  expect(deps.renameConversation).toHaveBeenCalledWith('s-old', 'Budget')
})

test('search keeps the newest query and its hits; an empty query clears them', async () => {
  const searchConversations = vi.fn<ChatDeps['searchConversations']>()
  searchConversations.mockResolvedValue([{ session: older, snippet: 'the budget grew' }])
  const { chat } = await startChat(fakeDeps({ searchConversations }))
  chat.send({ type: 'chat.search', query: 'budget' })
  await waitFor(chat, (s) => viewOf(s).searchHits !== null)
  expect(viewOf(chat.getSnapshot()).searchHits).toEqual([
    { conversation: expect.objectContaining({ id: 's-old' }), snippet: 'the budget grew' },
  ])
  chat.send({ type: 'chat.search', query: ' ' })
  expect(viewOf(chat.getSnapshot()).searchQuery).toBe('')
  expect(viewOf(chat.getSnapshot()).searchHits).toBeNull()
})

test('search waits for a pause in the typing: keystrokes in a row ask the server once, for the last query', async () => {
  const searchConversations = vi.fn<ChatDeps['searchConversations']>()
  searchConversations.mockResolvedValue([{ session: older, snippet: '**The budget** grew [1]' }])
  const { chat } = await startChat(fakeDeps({ searchConversations }))

  for (const query of ['b', 'bu', 'bud', 'budg']) chat.send({ type: 'chat.search', query })
  expect(partsOf(chat.getSnapshot()).list.hasTag('searching')).toBe(true)
  expect(searchConversations).not.toHaveBeenCalled()
  await waitFor(chat, (s) => viewOf(s).searchHits !== null)

  expect(searchConversations.mock.calls).toEqual([['budg']])
  // The passage is plain text, as the previews are.
  expect(viewOf(chat.getSnapshot()).searchHits?.[0]?.snippet).toBe('The budget grew')
  // The next keystroke keeps these hits on screen until its own answer.
  chat.send({ type: 'chat.search', query: 'budge' })
  expect(viewOf(chat.getSnapshot()).searchHits).toHaveLength(1)
  await waitFor(chat, (s) => !partsOf(s).list.hasTag('searching'))
  expect(searchConversations.mock.calls).toEqual([['budg'], ['budge']])
})

test('previews are plain text: markdown marks and citation markers are stripped', () => {
  expect(
    plainText(
      '## Travel\n\n**Economy** class on flights under [six hours](https://x.example) [1].\n\n| a | b |\n|---|---|\n| `1` | 2 |',
    ),
  ).toBe('Travel Economy class on flights under six hours. a b 1 2')
})

/** Everything the chat told the app, in order (the address follows these). */

test('deleting the open conversation closes it; deleting another one tells nothing', async () => {
  const { chat } = await openWithMessages([message('m1', true, 'Hi')])
  const facts = heard(chat)

  chat.send({ type: 'chat.delete', conversationId: 's-new' })
  await waitFor(chat, (s) => viewOf(s).conversations.length === 1)
  expect(facts).toEqual([])
  chat.send({ type: 'chat.delete', conversationId: 's-old' })
  await waitFor(chat, (s) => viewOf(s).conversations.length === 0)

  expect(facts).toEqual([{ type: 'chat.conversationClosed', conversationId: 's-old' }])
})
