import { expect, test, vi } from 'vitest'
import { waitFor } from 'xstate'
import { conversation, created, fakeDeps, idle, startChat } from './chat-fixtures.ts'
import { openAssistantOf, selectedConversationIdOf } from './chat-selectors.ts'
import type { ChatDeps } from './chat-types.ts'

const hrBot = { id: '0b8a4a50-7b1d-4bd0-9b54-8d6a2c4f1e11', name: 'HR policies' }

test('a new chat started with an assistant creates its conversation with that assistant', async () => {
  const withAssistant = conversation('s-hr', '2026-03-01T12:00:00.000Z', {
    assistant: { ...hrBot, deleted: false },
  })
  const deps = fakeDeps({
    createConversation: vi.fn<ChatDeps['createConversation']>().mockResolvedValue(withAssistant),
  })
  const { chat } = await startChat(deps)

  chat.send({ type: 'chat.new', assistant: hrBot })
  // The address then becomes the new chat's: the dashboard tells the chat so, without an assistant.
  chat.send({ type: 'chat.new' })
  expect(openAssistantOf(chat.getSnapshot())).toEqual({ ...hrBot, deleted: false })
  chat.send({ type: 'chat.send', content: 'How many days off?' })

  await waitFor(chat, (s) => selectedConversationIdOf(s) === 's-hr')
  expect(deps.createConversation).toHaveBeenCalledWith('How many days off?', [], hrBot.id)
  await idle(chat)
  expect(openAssistantOf(chat.getSnapshot())).toEqual({ ...hrBot, deleted: false })
})

test('"New chat" without an assistant leaves the one chosen before', async () => {
  const { chat, deps } = await startChat()

  chat.send({ type: 'chat.new', assistant: hrBot })
  chat.send({ type: 'chat.new', assistant: null })
  chat.send({ type: 'chat.send', content: 'What is in my report?' })

  await waitFor(chat, (s) => selectedConversationIdOf(s) === created._id)
  expect(openAssistantOf(chat.getSnapshot())).toBeNull()
  expect(deps.createConversation).toHaveBeenCalledWith('What is in my report?')
})

test('a conversation with a deleted assistant says so', async () => {
  const kept = conversation('s-kept', '2026-02-11T09:00:00.000Z', {
    assistant: { ...hrBot, deleted: true },
  })
  const { chat } = await startChat(fakeDeps({ listConversations: vi.fn().mockResolvedValue([kept]) }))

  chat.send({ type: 'chat.select', conversationId: 's-kept' })

  expect(openAssistantOf(chat.getSnapshot())).toEqual({ ...hrBot, deleted: true })
})
