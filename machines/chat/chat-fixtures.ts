/**
 * What the chat actors' tests share: wire fixtures, fake calls (the same ChatDeps the app
 * injects), starting the chat, and one flat read of its three actors as the tests assert on them.
 */
import { vi } from 'vitest'
import { createActor, waitFor } from 'xstate'
import type { Conversation, Message, SendMessageResponse } from '#contracts/chat.ts'
import type { ChatSnapshot } from './chat-machine.ts'
import { provideChatMachine } from './chat-machine.ts'
import {
  conversationOf,
  deletingConversationIdsOf,
  isLoading,
  isSavingScope,
  partsOf,
  ratingMessageIdsOf,
  switchingVersionIdsOf,
} from './chat-selectors.ts'
import type { AnswerStream, ChatDeps, ChatEmitted } from './chat-types.ts'

export function conversation(id: string, updatedAt: string, extra: Partial<Conversation> = {}): Conversation {
  return {
    _id: id,
    title: `Title ${id}`,
    createdAt: updatedAt,
    updatedAt,
    messageCount: 2,
    lastMessage: `Last ${id}`,
    ...extra,
  }
}

export function message(id: string, isUser: boolean, content: string, extra: Partial<Message> = {}): Message {
  const base: Message = {
    _id: id,
    isUser,
    content,
    createdAt: '2026-03-01T10:00:00.000Z',
    messageType: 'text',
    feedback: null,
    sources: [],
  }
  return { ...base, ...extra }
}

export const older = conversation('s-old', '2026-02-01T09:00:00.000Z')
export const newer = conversation('s-new', '2026-02-10T09:00:00.000Z')
export const reply: SendMessageResponse = {
  userMessage: message('m-user', true, 'What is in my report?', { createdAt: '2026-03-01T12:00:00.000Z' }),
  aiMessage: message('m-ai', false, 'Your report covers Q1.', { createdAt: '2026-03-01T12:00:01.000Z' }),
}
export const created = conversation('s-created', '2026-03-01T12:00:00.000Z', {
  title: 'What is in my report?',
  messageCount: 0,
  lastMessage: '',
})

export function fakeDeps(overrides: Partial<ChatDeps> = {}) {
  const deps = {
    listConversations: vi.fn<ChatDeps['listConversations']>().mockResolvedValue([older, newer]),
    createConversation: vi.fn<ChatDeps['createConversation']>().mockResolvedValue(created),
    listMessages: vi.fn<ChatDeps['listMessages']>().mockResolvedValue([]),
    listConversationFiles: vi.fn<ChatDeps['listConversationFiles']>().mockResolvedValue([]),
    uploadFile: vi.fn<ChatDeps['uploadFile']>(),
    sendMessage: vi.fn<ChatDeps['sendMessage']>().mockResolvedValue(reply),
    regenerate: vi.fn<ChatDeps['regenerate']>().mockResolvedValue(reply),
    renameConversation: vi.fn<ChatDeps['renameConversation']>(async (id, title) =>
      conversation(id, '2026-02-01T09:00:00.000Z', { title }),
    ),
    setScope: vi.fn<ChatDeps['setScope']>(async (id, documentIds) =>
      conversation(id, '2026-02-01T09:00:00.000Z', {
        scope: documentIds && {
          documentIds: [...documentIds],
          documents: documentIds.map((d) => ({ id: d, name: `${d}.pdf` })),
        },
      }),
    ),
    searchConversations: vi.fn<ChatDeps['searchConversations']>().mockResolvedValue([]),
    deleteConversation: vi.fn<ChatDeps['deleteConversation']>().mockResolvedValue(undefined),
    setFeedback: vi.fn<ChatDeps['setFeedback']>(async (id, feedback) =>
      message(id, false, 'x', { feedback }),
    ),
    showVersion: vi.fn<ChatDeps['showVersion']>(async (id, version) =>
      message(id, false, `Version ${version}`, { version, versionCount: 2 }),
    ),
    explainDislike: vi.fn<ChatDeps['explainDislike']>(async (id) =>
      message(id, false, 'x', { feedback: 'dislike', feedbackReason: 'incorrect' }),
    ),
    log: { error: vi.fn(), warn: vi.fn() },
    ...overrides,
  }
  return deps
}

export async function startChat(deps = fakeDeps()) {
  const chat = createActor(provideChatMachine(deps)).start()
  await waitFor(chat, (s) => !partsOf(s).list.hasTag('conversationsLoading'))
  return { chat, deps }
}

export type Chat = Awaited<ReturnType<typeof startChat>>['chat']

export const idle = (chat: Chat) => waitFor(chat, (s) => !isLoading(s))

export async function openWithMessages(messages: Message[], overrides: Partial<ChatDeps> = {}) {
  const deps = fakeDeps({ listMessages: vi.fn().mockResolvedValue(messages), ...overrides })
  const started = await startChat(deps)
  started.chat.send({ type: 'chat.select', conversationId: older._id })
  await idle(started.chat)
  return started
}

/**
 * The chat as one flat view, as the tests read it: the list's, the open conversation's and the
 * sender's context, the open conversation's id, and what is busy (read off the running actors).
 */
export function viewOf(snapshot: ChatSnapshot) {
  const { list, conversation, sender } = partsOf(snapshot)
  return {
    ...list.context,
    ...conversationOf(snapshot),
    ...sender.context,
    selectedConversationId: snapshot.context.selectedConversationId,
    deletingConversationIds: deletingConversationIdsOf(snapshot),
    ratingMessageIds: ratingMessageIdsOf(snapshot),
    switchingVersionIds: switchingVersionIdsOf(snapshot),
    savingScopeOf: isSavingScope(snapshot) ? conversation.context.conversationId : null,
  }
}

/** What the chat told the app it did on its own, in order. */
export function heard(chat: Chat) {
  const facts: ChatEmitted[] = []
  chat.on('*', (fact) => facts.push(fact))
  return facts
}

/** An open conversation with a message sent into it, its answer streaming until `gate` settles. */
export async function sendingWithStream() {
  const gate = Promise.withResolvers<SendMessageResponse>()
  let stream: AnswerStream | undefined
  const opened = await openWithMessages([], {
    sendMessage: vi.fn((_id, _content, s: AnswerStream) => {
      stream = s
      return gate.promise
    }),
  })
  opened.chat.send({ type: 'chat.send', content: 'What is in my report?' })
  return { ...opened, gate, stream: () => stream }
}
