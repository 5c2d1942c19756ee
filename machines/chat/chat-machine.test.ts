import { expect, test, vi } from 'vitest'
import { createActor, waitFor } from 'xstate'
import {
  type Conversation,
  type Message,
  SCOPE_MAX_DOCUMENTS,
  type SendMessageResponse,
} from '#contracts/chat.ts'
import { libraryDocument } from '../documents/documents-fixtures.ts'
import { MAX_STOP_CHECKS, provideChatMachine, STOP_CHECK_DELAY_MS } from './chat-machine.ts'
import { plainText } from './chat-model.ts'
import { SCOPE_NOTICES, scopeOnScreen } from './chat-scope.ts'
import { isAwaitingReplyHere, isStreamingHere, openSourceOf } from './chat-selectors.ts'
import type { AnswerStream, ChatDeps, ChatEmitted } from './chat-types.ts'

function conversation(id: string, updatedAt: string, extra: Partial<Conversation> = {}): Conversation {
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

function message(id: string, isUser: boolean, content: string, extra: Partial<Message> = {}): Message {
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

const older = conversation('s-old', '2026-02-01T09:00:00.000Z')
const newer = conversation('s-new', '2026-02-10T09:00:00.000Z')
const reply: SendMessageResponse = {
  userMessage: message('m-user', true, 'What is in my report?', { createdAt: '2026-03-01T12:00:00.000Z' }),
  aiMessage: message('m-ai', false, 'Your report covers Q1.', { createdAt: '2026-03-01T12:00:01.000Z' }),
}
const created = conversation('s-created', '2026-03-01T12:00:00.000Z', {
  title: 'What is in my report?',
  messageCount: 0,
  lastMessage: '',
})

function fakeDeps(overrides: Partial<ChatDeps> = {}) {
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

async function startChat(deps = fakeDeps()) {
  const chat = createActor(provideChatMachine(deps)).start()
  await waitFor(chat, (s) => !s.hasTag('conversationsLoading'))
  return { chat, deps }
}

const idle = (chat: Awaited<ReturnType<typeof startChat>>['chat']) =>
  waitFor(chat, (s) => !s.hasTag('loading'))

async function openWithMessages(messages: Message[], overrides: Partial<ChatDeps> = {}) {
  const deps = fakeDeps({ listMessages: vi.fn().mockResolvedValue(messages), ...overrides })
  const started = await startChat(deps)
  started.chat.send({ type: 'chat.select', conversationId: older._id })
  await idle(started.chat)
  return started
}

test('loads the conversations once when it starts, newest first, in the UI shape', async () => {
  const { chat, deps } = await startChat()

  chat.send({ type: 'chat.new' })
  chat.send({ type: 'chat.select', conversationId: older._id })
  await idle(chat)

  expect(deps.listConversations).toHaveBeenCalledTimes(1)
  expect(chat.getSnapshot().context.conversations).toEqual([
    {
      id: 's-new',
      title: 'Title s-new',
      lastMessage: 'Last s-new',
      timestamp: newer.updatedAt,
      messageCount: 2,
      scope: null,
    },
    {
      id: 's-old',
      title: 'Title s-old',
      lastMessage: 'Last s-old',
      timestamp: older.updatedAt,
      messageCount: 2,
      scope: null,
    },
  ])
})

test('a failed conversation load is only logged', async () => {
  const { chat, deps } = await startChat(
    fakeDeps({ listConversations: vi.fn().mockRejectedValue(new Error('down')) }),
  )

  expect(chat.getSnapshot().context.conversations).toEqual([])
  expect(deps.log.error).toHaveBeenCalledTimes(1)
})

test('step 1: the message shows at once with a temporary id, and the chat is loading', async () => {
  const gate = Promise.withResolvers<Conversation>()
  const { chat } = await startChat(fakeDeps({ createConversation: vi.fn(() => gate.promise) }))

  chat.send({ type: 'chat.send', content: '  What is in my report?  ' })

  const snapshot = chat.getSnapshot()
  expect(snapshot.context.messages).toEqual([
    expect.objectContaining({ id: 'temp-1', sender: 'user', content: 'What is in my report?' }),
  ])
  expect(snapshot.hasTag('loading')).toBe(true)
  expect(isAwaitingReplyHere(snapshot)).toBe(true)
})

test('steps 2–4 without an open conversation: creates one titled with the text, first in the list and selected', async () => {
  const { chat, deps } = await startChat()

  chat.send({ type: 'chat.send', content: 'What is in my report?' })
  await idle(chat)

  const { context } = chat.getSnapshot()
  expect(deps.createConversation).toHaveBeenCalledWith('What is in my report?')
  expect(deps.sendMessage).toHaveBeenCalledWith('s-created', 'What is in my report?', expect.anything())
  expect(context.selectedConversationId).toBe('s-created')
  expect(context.conversations.map((s) => s.id)).toEqual(['s-created', 's-new', 's-old'])
  expect(context.conversations[0]).toEqual({
    id: 's-created',
    title: 'What is in my report?',
    lastMessage: 'Your report covers Q1.',
    timestamp: reply.aiMessage.createdAt,
    messageCount: 2,
    scope: null,
  })
  expect(context.messages.map((m) => [m.id, m.sender, m.content])).toEqual([
    ['m-user', 'user', 'What is in my report?'],
    ['m-ai', 'bot', 'Your report covers Q1.'],
  ])
  expect(isAwaitingReplyHere(chat.getSnapshot())).toBe(false)
})

test('step 3–4 in an open conversation: sends to it and moves it to the top', async () => {
  const { chat, deps } = await openWithMessages([message('m0', true, 'Earlier')])

  chat.send({ type: 'chat.send', content: 'What is in my report?' })
  await idle(chat)

  const { context } = chat.getSnapshot()
  expect(deps.createConversation).not.toHaveBeenCalled()
  expect(deps.sendMessage).toHaveBeenCalledWith('s-old', 'What is in my report?', expect.anything())
  expect(context.conversations.map((s) => [s.id, s.messageCount])).toEqual([
    ['s-old', 4],
    ['s-new', 2],
  ])
  expect(context.messages.map((m) => m.id)).toEqual(['m0', 'm-user', 'm-ai'])
})

test('step 5, failure at create: the temporary message goes away silently and nothing is sent', async () => {
  const { chat, deps } = await startChat(
    fakeDeps({ createConversation: vi.fn().mockRejectedValue(new Error('500')) }),
  )

  chat.send({ type: 'chat.send', content: 'Hello' })
  await idle(chat)

  const { context } = chat.getSnapshot()
  expect(context.messages).toEqual([])
  expect(context.selectedConversationId).toBeNull()
  expect(context.conversations).toHaveLength(2)
  expect(deps.sendMessage).not.toHaveBeenCalled()
  expect(deps.log.error).toHaveBeenCalledTimes(1)
})

test('step 5, failure at send: the message goes away silently, the text returns to the composer and the conversation made for it is deleted', async () => {
  const { chat, deps } = await startChat(
    fakeDeps({ sendMessage: vi.fn().mockRejectedValue(new Error('502')) }),
  )

  chat.send({ type: 'chat.send', content: 'Hello' })
  await idle(chat)

  const { context } = chat.getSnapshot()
  expect(context.messages).toEqual([])
  expect(context.draft).toBe('Hello')
  expect(context.selectedConversationId).toBeNull()
  expect(context.conversations.map((s) => s.id)).not.toContain('s-created')
  await vi.waitFor(() => expect(deps.deleteConversation).toHaveBeenCalledWith('s-created'))
  expect(deps.log.error).toHaveBeenCalledTimes(1)
  expect(chat.getSnapshot().hasTag('loading')).toBe(false)
})

test('failure in an existing conversation keeps the conversation and gives the text back', async () => {
  const { chat, deps } = await openWithMessages([message('m1', true, 'Hi'), message('m2', false, 'Hello')], {
    sendMessage: vi.fn().mockRejectedValue(new Error('502')),
  })
  chat.send({ type: 'chat.send', content: 'Again?' })
  await idle(chat)
  expect(chat.getSnapshot().context.messages.map((m) => m.id)).toEqual(['m1', 'm2'])
  expect(chat.getSnapshot().context.draft).toBe('Again?')
  expect(chat.getSnapshot().context.selectedConversationId).toBe('s-old')
  expect(deps.deleteConversation).not.toHaveBeenCalled()
})

const tooMany = () =>
  Object.assign(
    new Error(
      'You already have 2 answers being written. Wait for one to finish (or stop it), then send again.',
    ),
    { status: 429 },
  )

test('refused for too many answers at once (429): the server says so, the text returns to the composer', async () => {
  const sendMessage = vi
    .fn<ChatDeps['sendMessage']>()
    .mockRejectedValueOnce(tooMany())
    .mockResolvedValue(reply)
  const { chat, deps } = await startChat(fakeDeps({ sendMessage }))

  chat.send({ type: 'chat.send', content: 'What is in my report?' })
  await idle(chat)

  const { context } = chat.getSnapshot()
  expect(context.notice).toBe(
    'You already have 2 answers being written. Wait for one to finish (or stop it), then send again.',
  )
  expect(context.draft).toBe('What is in my report?')
  expect(context.messages).toEqual([])
  await vi.waitFor(() => expect(deps.deleteConversation).toHaveBeenCalledWith('s-created'))

  // Sending again takes the notice away.
  chat.send({ type: 'chat.send', content: context.draft })
  expect(chat.getSnapshot().context.notice).toBeNull()
  await idle(chat)
  expect(chat.getSnapshot().context.messages.map((m) => m.id)).toEqual(['m-user', 'm-ai'])
})

test('a regenerate refused for too many answers says so and keeps the old answer; other failures stay silent', async () => {
  const { chat } = await openWithMessages([message('m1', true, 'Hi'), message('m2', false, 'Hello')], {
    regenerate: vi.fn().mockRejectedValue(tooMany()),
    sendMessage: vi.fn().mockRejectedValue(Object.assign(new Error('The model failed'), { status: 502 })),
  })

  chat.send({ type: 'chat.regenerate', messageId: 'm2' })
  await idle(chat)
  expect(chat.getSnapshot().context.notice).toMatch(/^You already have 2 answers being written/)
  expect(chat.getSnapshot().context.messages.map((m) => m.content)).toEqual(['Hi', 'Hello'])

  chat.send({ type: 'chat.send', content: 'Again?' })
  await idle(chat)
  expect(chat.getSnapshot().context.notice).toBeNull()
  expect(chat.getSnapshot().context.draft).toBe('Again?')
})

/**
 * An empty conversation where 'What is in my report?' is sent and its answer streams as the test
 * says (`stream()`), until `gate` gives the stored reply.
 */
async function sendingWithStream() {
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

test('the answer grows token by token, then the stored reply replaces it', async () => {
  const { chat, gate, stream: streamOf } = await sendingWithStream()
  const stream = streamOf()
  expect(isAwaitingReplyHere(chat.getSnapshot())).toBe(true)
  stream?.onToken('Your report ')
  stream?.onToken('covers')
  const growing = chat.getSnapshot()
  expect(growing.context.messages.map((m) => [m.sender, m.content, m.streaming])).toEqual([
    ['user', 'What is in my report?', false],
    ['bot', 'Your report covers', true],
  ])
  expect(isAwaitingReplyHere(growing)).toBe(false)
  expect(isStreamingHere(growing)).toBe(true)

  gate.resolve(reply)
  await idle(chat)
  expect(chat.getSnapshot().context.messages.map((m) => m.id)).toEqual(['m-user', 'm-ai'])
})

/**
 * An empty conversation whose answer streams 'The first part' and is then stopped by the person
 * (the request never ends by itself): the start of every Stop test.
 */
async function stoppedMidAnswer(overrides: Partial<ChatDeps> = {}) {
  let stream: AnswerStream | undefined
  const opened = await openWithMessages([], {
    sendMessage: vi.fn((_id, _content, s: AnswerStream) => {
      stream = s
      return new Promise<SendMessageResponse>(() => {})
    }),
    ...overrides,
  })
  opened.chat.send({ type: 'chat.send', content: 'Tell me everything' })
  stream?.onToken('The first part')
  opened.chat.send({ type: 'chat.stop' })
  return { ...opened, stream }
}

test('Stop aborts the request and keeps the answer so far, marked stopped', async () => {
  const { chat, stream } = await stoppedMidAnswer()

  expect(stream?.signal.aborted).toBe(true)
  const { context } = chat.getSnapshot()
  expect(context.messages.map((m) => [m.content, m.stopped, m.streaming])).toEqual([
    ['Tell me everything', false, false],
    ['The first part', true, false],
  ])
  expect(context.draft).toBe('')
})

const stoppedExchange = [
  message('m-q', true, 'Tell me everything'),
  message('m-a', false, 'The first part, and a little more', { stopped: true }),
]

test('after Stop the bubbles take the stored ids once the server has stored the answer, so it can be regenerated', async () => {
  // Opened empty; after the Stop not stored yet at the first look, there at the second.
  const listMessages = vi
    .fn<ChatDeps['listMessages']>()
    .mockResolvedValueOnce([])
    .mockResolvedValueOnce([])
    .mockResolvedValue(stoppedExchange)
  const { chat, deps } = await stoppedMidAnswer({ listMessages })
  expect(chat.getSnapshot().hasTag('loading')).toBe(true)

  await idle(chat)
  expect(listMessages).toHaveBeenLastCalledWith(older._id)
  expect(chat.getSnapshot().context.messages.map((m) => [m.id, m.content, m.stopped])).toEqual([
    ['m-q', 'Tell me everything', false],
    ['m-a', 'The first part, and a little more', true],
  ])
  expect(chat.getSnapshot().context.stoppedSend).toBeNull()

  chat.send({ type: 'chat.regenerate', messageId: 'm-a' })
  expect(deps.regenerate).toHaveBeenCalledWith(older._id, 'm-a', expect.anything())
})

test('after Stop an answer the server never stored keeps its temporary ids, and sending works again', async () => {
  const { chat, deps } = await stoppedMidAnswer()

  await waitFor(chat, (s) => !s.hasTag('loading'), { timeout: (MAX_STOP_CHECKS + 2) * STOP_CHECK_DELAY_MS })
  // Only the look-ups after the Stop (the first call opened the conversation).
  expect(deps.listMessages).toHaveBeenCalledTimes(1 + MAX_STOP_CHECKS + 1)
  expect(chat.getSnapshot().context.messages.map((m) => m.id)).toEqual(['temp-1', 'temp-1:answer'])
  expect(deps.log.error).toHaveBeenCalledTimes(1)

  chat.send({ type: 'chat.send', content: 'Next question' })
  expect(deps.sendMessage).toHaveBeenCalledTimes(2)
})

test('a stopped answer found after another conversation was opened leaves that conversation alone', async () => {
  const gate = Promise.withResolvers<Message[]>()
  const listMessages = vi
    .fn<ChatDeps['listMessages']>()
    .mockResolvedValueOnce([])
    .mockReturnValueOnce(gate.promise)
    .mockResolvedValue([message('m-other', true, 'Elsewhere')])
  const { chat } = await stoppedMidAnswer({ listMessages })
  chat.send({ type: 'chat.select', conversationId: newer._id })
  await waitFor(chat, (s) => s.matches({ conversation: 'idle' }))
  gate.resolve(stoppedExchange)

  await idle(chat)
  expect(chat.getSnapshot().context.messages.map((m) => m.id)).toEqual(['m-other'])
})

test('regenerate streams a new last answer in place; a failure brings the old one back', async () => {
  const again: SendMessageResponse = {
    userMessage: message('m1', true, 'Hi'),
    aiMessage: message('m2', false, 'A better answer'),
  }
  let stream: AnswerStream | undefined
  const gate = Promise.withResolvers<SendMessageResponse>()
  const regenerate = vi.fn((_id: string, _messageId: string, s: AnswerStream) => {
    stream = s
    return gate.promise
  })
  const { chat, deps } = await openWithMessages([message('m1', true, 'Hi'), message('m2', false, 'Hello')], {
    regenerate,
  })
  chat.send({ type: 'chat.regenerate', messageId: 'm1' })
  expect(deps.regenerate).not.toHaveBeenCalled()

  chat.send({ type: 'chat.regenerate', messageId: 'm2' })
  expect(deps.regenerate).toHaveBeenCalledWith('s-old', 'm2', expect.anything())
  stream?.onToken('A better')
  expect(chat.getSnapshot().context.messages.at(-1)?.content).toBe('A better')
  gate.resolve(again)
  await idle(chat)
  expect(chat.getSnapshot().context.messages.at(-1)?.content).toBe('A better answer')

  regenerate.mockRejectedValueOnce(new Error('502'))
  chat.send({ type: 'chat.regenerate', messageId: 'm2' })
  await idle(chat)
  expect(chat.getSnapshot().context.messages.at(-1)?.content).toBe('A better answer')
})

test.each(['', '   ', '\n\t\n'])('blank text %j is not sent', async (content) => {
  const { chat, deps } = await startChat()

  chat.send({ type: 'chat.send', content })

  expect(chat.getSnapshot().context.messages).toEqual([])
  expect(chat.getSnapshot().hasTag('loading')).toBe(false)
  expect(deps.createConversation).not.toHaveBeenCalled()
})

test('sending is blocked while a reply is awaited', async () => {
  const gate = Promise.withResolvers<SendMessageResponse>()
  const { chat, deps } = await startChat(fakeDeps({ sendMessage: vi.fn(() => gate.promise) }))

  chat.send({ type: 'chat.send', content: 'First' })
  await waitFor(chat, (s) => s.matches({ reply: 'sendingMessage' }))
  chat.send({ type: 'chat.send', content: 'Second' })

  expect(chat.getSnapshot().context.messages.map((m) => m.content)).toEqual(['First'])
  gate.resolve(reply)
  await idle(chat)
  expect(deps.sendMessage).toHaveBeenCalledTimes(1)
})

test('sending is blocked while a conversation is loading', async () => {
  const gate = Promise.withResolvers<Message[]>()
  const { chat, deps } = await startChat(fakeDeps({ listMessages: vi.fn(() => gate.promise) }))

  chat.send({ type: 'chat.select', conversationId: older._id })
  chat.send({ type: 'chat.send', content: 'Too early' })

  expect(chat.getSnapshot().hasTag('loading')).toBe(true)
  expect(chat.getSnapshot().context.messages).toEqual([])
  gate.resolve([])
  await idle(chat)
  expect(deps.sendMessage).not.toHaveBeenCalled()
})

test('selecting a conversation loads its messages as user and bot bubbles', async () => {
  const sources = [
    { documentId: 'd1', documentName: 'Report.pdf', chunkId: 'c1', page: 3, link: null },
    { documentId: 'd1', documentName: 'Report.pdf', chunkId: 'c2', page: 3, link: null },
  ]
  const { chat, deps } = await openWithMessages([
    message('m1', true, 'Hi'),
    message('m2', false, 'Hello', { sources }),
  ])

  const { context } = chat.getSnapshot()
  expect(deps.listMessages).toHaveBeenCalledWith('s-old')
  expect(context.selectedConversationId).toBe('s-old')
  expect(context.messages).toEqual([
    {
      id: 'm1',
      sender: 'user',
      content: 'Hi',
      time: message('', true, '').createdAt,
      feedback: null,
      sources: [],
      corrections: [],
      stopped: false,
      streaming: false,
      version: 1,
      versionCount: 1,
    },
    expect.objectContaining({ id: 'm2', sender: 'bot', sources: [sources[0]] }),
  ])
})

test('a failed message load is only logged', async () => {
  const deps = fakeDeps({ listMessages: vi.fn().mockRejectedValue(new Error('down')) })
  const { chat } = await openWithMessages([], deps)

  expect(chat.getSnapshot().context.messages).toEqual([])
  expect(chat.getSnapshot().context.selectedConversationId).toBe('s-old')
  expect(deps.log.error).toHaveBeenCalledTimes(1)
})

test('choosing another conversation while one loads shows only the last choice', async () => {
  const first = Promise.withResolvers<Message[]>()
  const listMessages = vi.fn((id: string) =>
    id === 's-old' ? first.promise : Promise.resolve([message('n1', true, 'New')]),
  )
  const { chat } = await startChat(fakeDeps({ listMessages }))

  chat.send({ type: 'chat.select', conversationId: 's-old' })
  chat.send({ type: 'chat.select', conversationId: 's-new' })
  await idle(chat)
  first.resolve([message('o1', true, 'Old')])
  await Promise.resolve()

  expect(chat.getSnapshot().context.selectedConversationId).toBe('s-new')
  expect(chat.getSnapshot().context.messages.map((m) => m.id)).toEqual(['n1'])
})

test('a new chat clears the messages and the selection', async () => {
  const { chat } = await openWithMessages([message('m1', true, 'Hi')])

  chat.send({ type: 'chat.new' })

  expect(chat.getSnapshot().context.messages).toEqual([])
  expect(chat.getSnapshot().context.selectedConversationId).toBeNull()
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
  expect(chat.getSnapshot().context.conversations.map((s) => s.id)).toEqual(['s-new', 's-old'])
  expect(chat.getSnapshot().context.deletingConversationIds).toEqual(['s-new'])
  gate.resolve()
  await waitFor(chat, (s) => s.context.deletingConversationIds.length === 0)

  const { context } = chat.getSnapshot()
  expect(deps.deleteConversation).toHaveBeenCalledWith('s-new')
  expect(context.conversations.map((s) => s.id)).toEqual(['s-old'])
  expect(context.selectedConversationId).toBe('s-old')
  expect(context.messages.map((m) => m.id)).toEqual(['m1'])
})

test('deleting the open conversation clears the messages and the selection', async () => {
  const { chat } = await openWithMessages([message('m1', true, 'Hi')])

  chat.send({ type: 'chat.delete', conversationId: 's-old' })
  await waitFor(chat, (s) => s.context.conversations.length === 1)

  const { context } = chat.getSnapshot()
  expect(context.messages).toEqual([])
  expect(context.selectedConversationId).toBeNull()
})

test('two deletions can run at once', async () => {
  const { chat, deps } = await startChat()

  chat.send({ type: 'chat.delete', conversationId: 's-old' })
  chat.send({ type: 'chat.delete', conversationId: 's-new' })
  await waitFor(chat, (s) => s.context.conversations.length === 0)

  expect(deps.deleteConversation).toHaveBeenCalledTimes(2)
})

test('a failed deletion is only logged and can be tried again', async () => {
  const deleteConversation = vi
    .fn<ChatDeps['deleteConversation']>()
    .mockRejectedValueOnce(new Error('500'))
    .mockResolvedValue()
  const { chat, deps } = await startChat(fakeDeps({ deleteConversation }))

  chat.send({ type: 'chat.delete', conversationId: 's-old' })
  await waitFor(chat, (s) => s.context.deletingConversationIds.length === 0)
  expect(chat.getSnapshot().context.conversations).toHaveLength(2)
  expect(deps.log.error).toHaveBeenCalledTimes(1)

  chat.send({ type: 'chat.delete', conversationId: 's-old' })
  await waitFor(chat, (s) => s.context.conversations.length === 1)
})

test('feedback is highlighted only after the server stored it', async () => {
  const gate = Promise.withResolvers<Message>()
  const deps = fakeDeps({
    listMessages: vi.fn().mockResolvedValue([message('m2', false, 'Answer')]),
    setFeedback: vi.fn(() => gate.promise),
  })
  const { chat } = await openWithMessages([], deps)

  chat.send({ type: 'chat.rate', messageId: 'm2', feedback: 'like' })
  expect(chat.getSnapshot().context.messages[0]?.feedback).toBeNull()
  gate.resolve(message('m2', false, 'Answer', { feedback: 'like' }))
  await waitFor(chat, (s) => s.context.ratingMessageIds.length === 0)

  expect(deps.setFeedback).toHaveBeenCalledWith('m2', 'like')
  expect(chat.getSnapshot().context.messages[0]?.feedback).toBe('like')
})

test('failed feedback changes nothing and is only logged', async () => {
  const deps = fakeDeps({
    listMessages: vi.fn().mockResolvedValue([message('m2', false, 'Answer', { feedback: 'like' })]),
    setFeedback: vi.fn().mockRejectedValue(new Error('500')),
  })
  const { chat } = await openWithMessages([], deps)

  chat.send({ type: 'chat.rate', messageId: 'm2', feedback: 'dislike' })
  await waitFor(chat, (s) => s.context.ratingMessageIds.length === 0)

  expect(chat.getSnapshot().context.messages[0]?.feedback).toBe('like')
  expect(deps.log.error).toHaveBeenCalledTimes(1)
})

test('a reply that lands after I opened another conversation updates the list, not the screen', async () => {
  const gate = Promise.withResolvers<SendMessageResponse>()
  const deps = fakeDeps({
    sendMessage: vi.fn(() => gate.promise),
    listMessages: vi.fn().mockResolvedValue([message('x1', true, 'Other')]),
  })
  const { chat } = await startChat(deps)

  chat.send({ type: 'chat.send', content: 'What is in my report?' })
  await waitFor(chat, (s) => s.matches({ reply: 'sendingMessage' }))
  chat.send({ type: 'chat.select', conversationId: 's-new' })
  await waitFor(chat, (s) => s.matches({ conversation: 'idle' }))
  expect(isAwaitingReplyHere(chat.getSnapshot())).toBe(false)
  gate.resolve(reply)
  await idle(chat)

  const { context } = chat.getSnapshot()
  expect(context.selectedConversationId).toBe('s-new')
  expect(context.messages.map((m) => m.id)).toEqual(['x1'])
  expect(context.conversations[0]).toMatchObject({ id: 's-created', messageCount: 2 })
})

test('without its effects the machine fails loudly instead of pretending', async () => {
  const { chatMachine } = await import('./chat-machine.ts')
  const chat = createActor(chatMachine)
  const errors: unknown[] = []
  chat.subscribe({ error: (error) => errors.push(error) })
  chat.start()
  await new Promise((resolve) => setTimeout(resolve, 0))

  expect(String(errors[0] ?? chat.getSnapshot().error)).toMatch(/was not provided/)
})

test('rename shows the new title once the server stored it', async () => {
  const { chat, deps } = await startChat()
  chat.send({ type: 'chat.rename', conversationId: 's-old', title: '  Budget  ' })
  await waitFor(chat, (s) => s.context.conversations.some((x) => x.title === 'Budget'))
  expect(deps.renameConversation).toHaveBeenCalledWith('s-old', 'Budget')
})

test('search keeps the newest query and its hits; an empty query clears them', async () => {
  const searchConversations = vi.fn<ChatDeps['searchConversations']>()
  searchConversations.mockResolvedValue([{ session: older, snippet: 'the budget grew' }])
  const { chat } = await startChat(fakeDeps({ searchConversations }))
  chat.send({ type: 'chat.search', query: 'budget' })
  await waitFor(chat, (s) => s.context.searchHits !== null)
  expect(chat.getSnapshot().context.searchHits).toEqual([
    { conversation: expect.objectContaining({ id: 's-old' }), snippet: 'the budget grew' },
  ])
  chat.send({ type: 'chat.search', query: ' ' })
  expect(chat.getSnapshot().context.searchQuery).toBe('')
  expect(chat.getSnapshot().context.searchHits).toBeNull()
})

test('search waits for a pause in the typing: keystrokes in a row ask the server once, for the last query', async () => {
  const searchConversations = vi.fn<ChatDeps['searchConversations']>()
  searchConversations.mockResolvedValue([{ session: older, snippet: '**The budget** grew [1]' }])
  const { chat } = await startChat(fakeDeps({ searchConversations }))

  for (const query of ['b', 'bu', 'bud', 'budg']) chat.send({ type: 'chat.search', query })
  expect(chat.getSnapshot().hasTag('searching')).toBe(true)
  expect(searchConversations).not.toHaveBeenCalled()
  await waitFor(chat, (s) => s.context.searchHits !== null)

  expect(searchConversations.mock.calls).toEqual([['budg']])
  // The passage is plain text, as the previews are.
  expect(chat.getSnapshot().context.searchHits?.[0]?.snippet).toBe('The budget grew')
  // The next keystroke keeps these hits on screen until its own answer.
  chat.send({ type: 'chat.search', query: 'budge' })
  expect(chat.getSnapshot().context.searchHits).toHaveLength(1)
  await waitFor(chat, (s) => !s.hasTag('searching'))
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
function heard(chat: Awaited<ReturnType<typeof startChat>>['chat']) {
  const facts: ChatEmitted[] = []
  chat.on('*', (fact) => facts.push(fact))
  return facts
}

test('the first message of a new chat tells the app which conversation it started, once', async () => {
  const { chat } = await startChat()
  const facts = heard(chat)

  chat.send({ type: 'chat.send', content: 'What is in my report?' })
  await idle(chat)
  chat.send({ type: 'chat.send', content: 'And the next one?' })
  await idle(chat)

  expect(facts).toEqual([{ type: 'chat.conversationStarted', conversationId: 's-created' }])
})

test('a conversation created after the person left the new chat is not announced', async () => {
  const gate = Promise.withResolvers<Conversation>()
  const { chat } = await startChat(fakeDeps({ createConversation: vi.fn(() => gate.promise) }))
  const facts = heard(chat)

  chat.send({ type: 'chat.send', content: 'What is in my report?' })
  chat.send({ type: 'chat.new' })
  gate.resolve(created)
  await idle(chat)

  expect(facts).toEqual([])
  expect(chat.getSnapshot().context.conversations[0]?.id).toBe('s-created')
})

test('a failed first message closes the conversation it started', async () => {
  const { chat } = await startChat(fakeDeps({ sendMessage: vi.fn().mockRejectedValue(new Error('502')) }))
  const facts = heard(chat)

  chat.send({ type: 'chat.send', content: 'Hello' })
  await idle(chat)

  expect(facts).toEqual([
    { type: 'chat.conversationStarted', conversationId: 's-created' },
    { type: 'chat.conversationClosed', conversationId: 's-created' },
  ])
})

test('deleting the open conversation closes it; deleting another one tells nothing', async () => {
  const { chat } = await openWithMessages([message('m1', true, 'Hi')])
  const facts = heard(chat)

  chat.send({ type: 'chat.delete', conversationId: 's-new' })
  await waitFor(chat, (s) => s.context.conversations.length === 1)
  expect(facts).toEqual([])
  chat.send({ type: 'chat.delete', conversationId: 's-old' })
  await waitFor(chat, (s) => s.context.conversations.length === 0)

  expect(facts).toEqual([{ type: 'chat.conversationClosed', conversationId: 's-old' }])
})

const passage = (citation: number, chunkId = `chunk-${citation}`) => ({
  documentId: 'doc-1',
  documentName: 'Report.pdf',
  chunkId,
  page: citation,
  link: null,
  citation,
  heading: null,
  quote: `Passage ${citation}`,
})

test('the passages an answer may cite reach its bubble before its words, so markers show as they come', async () => {
  const { chat, gate, stream: streamOf } = await sendingWithStream()
  const stream = streamOf()
  stream?.onSources([passage(1), passage(2)])
  stream?.onToken('Q1 grew [1]')

  const bubble = chat.getSnapshot().context.messages.at(-1)
  expect(bubble?.streaming).toBe(true)
  expect(bubble?.sources.map((s) => s.citation)).toEqual([1, 2])

  // A passage opened while the answer is written stays open once the answer is stored under its id.
  chat.send({ type: 'chat.showSource', messageId: bubble?.id ?? '', chunkId: 'chunk-1' })
  expect(openSourceOf(chat.getSnapshot())?.source.quote).toBe('Passage 1')
  stream?.onSources([passage(1)])
  gate.resolve({ ...reply, aiMessage: { ...reply.aiMessage, sources: [passage(1)] } })
  await idle(chat)

  expect(
    chat
      .getSnapshot()
      .context.messages.at(-1)
      ?.sources.map((s) => s.citation),
  ).toEqual([1])
  expect(chat.getSnapshot().context.openSource).toEqual({ messageId: 'm-ai', chunkId: 'chunk-1' })
})

test('one passage is open at a time; a new chat, another conversation or Close closes it', async () => {
  const answer = message('a1', false, 'See [1] and [2].', { sources: [passage(1), passage(2)] })
  const { chat } = await openWithMessages([message('q1', true, 'Q'), answer])

  chat.send({ type: 'chat.showSource', messageId: 'a1', chunkId: 'chunk-1' })
  chat.send({ type: 'chat.showSource', messageId: 'a1', chunkId: 'chunk-2' })
  expect(openSourceOf(chat.getSnapshot())?.source.citation).toBe(2)
  // A passage no answer on screen cites is not opened.
  chat.send({ type: 'chat.showSource', messageId: 'a1', chunkId: 'nowhere' })
  expect(openSourceOf(chat.getSnapshot())?.source.citation).toBe(2)

  chat.send({ type: 'chat.closeSource' })
  expect(chat.getSnapshot().context.openSource).toBeNull()

  chat.send({ type: 'chat.showSource', messageId: 'a1', chunkId: 'chunk-1' })
  chat.send({ type: 'chat.new' })
  expect(chat.getSnapshot().context.openSource).toBeNull()
})

test('writing the answer again closes its open passage', async () => {
  const answer = message('a1', false, 'See [1].', { sources: [passage(1)] })
  const { chat } = await openWithMessages([message('q1', true, 'Q'), answer], {
    regenerate: vi.fn(() => new Promise<SendMessageResponse>(() => {})),
  })
  chat.send({ type: 'chat.showSource', messageId: 'a1', chunkId: 'chunk-1' })

  chat.send({ type: 'chat.regenerate', messageId: 'a1' })

  expect(chat.getSnapshot().context.openSource).toBeNull()
})

const harbourFile = { name: 'harbour.txt', size: 20_000, type: 'text/plain' }
const harbourDocument = libraryDocument('harbour.txt', {
  id: 'doc-h',
  mimeType: 'text/plain',
  pages: null,
  chunks: 2,
  updatedAt: '2026-03-01T12:00:00.000Z',
})

test('a file attached in a new chat goes into the conversation its first message creates, before the message', async () => {
  const order: string[] = []
  const deps = fakeDeps({
    createConversation: vi.fn(async () => {
      order.push('create')
      return created
    }),
    uploadFile: vi.fn(async (conversationId: string) => {
      order.push(`upload:${conversationId}`)
      return harbourDocument
    }),
    sendMessage: vi.fn(async (conversationId: string) => {
      order.push(`send:${conversationId}`)
      return reply
    }),
  })
  const { chat } = await startChat(deps)
  const started: ChatEmitted[] = []
  chat.on('chat.conversationStarted', (event) => started.push(event))
  const content = new Blob(['text'])

  chat.send({ type: 'chat.attach', file: harbourFile, content })
  expect(chat.getSnapshot().context.attachment).toEqual({ file: harbourFile, content, error: null })
  chat.send({ type: 'chat.send', content: 'What is the buoy code?' })
  await idle(chat)

  expect(order).toEqual(['create', 'upload:s-created', 'send:s-created'])
  expect(deps.uploadFile).toHaveBeenCalledWith('s-created', { name: 'harbour.txt', content })
  expect(chat.getSnapshot().context.attachment).toBeNull()
  expect(chat.getSnapshot().context.files).toEqual([harbourDocument])
  expect(started).toEqual([{ type: 'chat.conversationStarted', conversationId: 's-created' }])
})

test('a refused attached file fails the first message: text back, file kept with the reason, conversation deleted', async () => {
  const deps = fakeDeps({
    uploadFile: vi
      .fn()
      .mockRejectedValue(Object.assign(new Error('File size must be at least 10KB.'), { status: 400 })),
  })
  const { chat } = await startChat(deps)
  chat.send({ type: 'chat.attach', file: harbourFile, content: new Blob(['x']) })

  chat.send({ type: 'chat.send', content: 'What is the buoy code?' })
  await idle(chat)

  const { context } = chat.getSnapshot()
  expect(context.attachment?.error).toBe('File size must be at least 10KB.')
  expect(context.draft).toBe('What is the buoy code?')
  expect(context.messages).toEqual([])
  expect(context.conversations.map((c) => c.id)).not.toContain('s-created')
  expect(deps.deleteConversation).toHaveBeenCalledWith('s-created')
  expect(deps.sendMessage).not.toHaveBeenCalled()
})

test('an open conversation takes no attachment; its files load with its messages', async () => {
  const { chat, deps } = await openWithMessages([message('q1', true, 'Hi')], {
    listConversationFiles: vi.fn().mockResolvedValue([harbourDocument]),
  })

  chat.send({ type: 'chat.attach', file: harbourFile, content: new Blob(['x']) })

  expect(chat.getSnapshot().context.attachment).toBeNull()
  expect(chat.getSnapshot().context.files).toEqual([harbourDocument])
  expect(deps.listConversationFiles).toHaveBeenCalledWith(older._id)
  chat.send({
    type: 'chat.fileAdded',
    conversationId: older._id,
    document: { ...harbourDocument, id: 'doc-2' },
  })
  chat.send({
    type: 'chat.fileAdded',
    conversationId: 'elsewhere',
    document: { ...harbourDocument, id: 'doc-3' },
  })
  expect(chat.getSnapshot().context.files.map((f) => f.id)).toEqual(['doc-h', 'doc-2'])
})

const source = (chunkId: string, citation: number) => ({
  documentId: 'd1',
  documentName: 'Policy.pdf',
  chunkId,
  page: 1,
  link: null,
  citation,
})

test('‹ 1/2 ›: another version of an answer is stored and shown with its own sources; one switch at a time, never while answering', async () => {
  const gate = Promise.withResolvers<Message>()
  const showVersion = vi.fn<ChatDeps['showVersion']>(() => gate.promise)
  const { chat, deps } = await openWithMessages(
    [
      message('q', true, 'Which class?'),
      message('a', false, 'Business [1].', { version: 2, versionCount: 2, sources: [source('c2', 1)] }),
    ],
    { showVersion },
  )
  chat.send({ type: 'chat.showSource', messageId: 'a', chunkId: 'c2' })
  for (const version of [0, 2, 3, 1.5]) chat.send({ type: 'chat.showVersion', messageId: 'a', version })
  chat.send({ type: 'chat.showVersion', messageId: 'q', version: 1 })
  expect(showVersion).not.toHaveBeenCalled()

  chat.send({ type: 'chat.showVersion', messageId: 'a', version: 1 })
  chat.send({ type: 'chat.showVersion', messageId: 'a', version: 1 })
  chat.send({ type: 'chat.regenerate', messageId: 'a' })
  expect(showVersion).toHaveBeenCalledTimes(1)
  expect(showVersion).toHaveBeenCalledWith('a', 1)
  expect(deps.regenerate).not.toHaveBeenCalled()
  expect(chat.getSnapshot().context.switchingVersionIds).toEqual(['a'])

  gate.resolve(
    message('a', false, 'Economy [1].', {
      version: 1,
      versionCount: 2,
      feedback: 'dislike',
      sources: [source('c1', 1)],
    }),
  )
  await vi.waitFor(() => expect(chat.getSnapshot().context.switchingVersionIds).toEqual([]))
  const shown = chat.getSnapshot().context
  expect(shown.messages.at(-1)).toMatchObject({
    id: 'a',
    content: 'Economy [1].',
    version: 1,
    versionCount: 2,
    feedback: 'dislike',
    sources: [expect.objectContaining({ chunkId: 'c1' })],
  })
  // The passage of version 2 is not this version's: the panel closes.
  expect(shown.openSource).toBeNull()
  expect(shown.conversations.find((c) => c.id === older._id)?.lastMessage).toBe('Economy.')
})

test('a version that cannot be shown stays as it was (logged), and no version switch while an answer is written', async () => {
  const failing = vi.fn<ChatDeps['showVersion']>().mockRejectedValue(new Error('409'))
  const gate = Promise.withResolvers<SendMessageResponse>()
  const { chat, deps } = await openWithMessages(
    [message('q', true, 'Hi'), message('a', false, 'Two', { version: 2, versionCount: 2 })],
    { showVersion: failing, regenerate: vi.fn(() => gate.promise) },
  )
  chat.send({ type: 'chat.showVersion', messageId: 'a', version: 1 })
  await vi.waitFor(() => expect(deps.log.error).toHaveBeenCalled())
  expect(chat.getSnapshot().context.messages.at(-1)).toMatchObject({ content: 'Two', version: 2 })
  expect(chat.getSnapshot().context.switchingVersionIds).toEqual([])

  chat.send({ type: 'chat.regenerate', messageId: 'a' })
  chat.send({ type: 'chat.showVersion', messageId: 'a', version: 1 })
  expect(failing).toHaveBeenCalledTimes(1)
})

test('Regenerate is not offered at 10 versions; a stopped regenerate counts as a version', async () => {
  const atBound = await openWithMessages([
    message('q', true, 'Hi'),
    message('a', false, 'Ten', { version: 10, versionCount: 10 }),
  ])
  atBound.chat.send({ type: 'chat.regenerate', messageId: 'a' })
  expect(atBound.deps.regenerate).not.toHaveBeenCalled()

  let stream: AnswerStream | undefined
  const { chat } = await openWithMessages(
    [message('q', true, 'Hi'), message('a', false, 'One', { version: 1, versionCount: 1 })],
    {
      regenerate: vi.fn((_id: string, _m: string, s: AnswerStream) => {
        stream = s
        return new Promise<SendMessageResponse>(() => {})
      }),
    },
  )
  chat.send({ type: 'chat.regenerate', messageId: 'a' })
  stream?.onToken('Half an')
  chat.send({ type: 'chat.stop' })
  expect(chat.getSnapshot().context.messages.at(-1)).toMatchObject({
    content: 'Half an',
    stopped: true,
    version: 2,
    versionCount: 2,
  })
})

test('a stored dislike asks why; a reason or a note is sent once, a failure can be sent again, Skip or a like closes it', async () => {
  const explainDislike = vi
    .fn<ChatDeps['explainDislike']>()
    .mockRejectedValueOnce(new Error('502'))
    .mockResolvedValue(message('a', false, 'x', { feedback: 'dislike', feedbackReason: 'incorrect' }))
  const { chat, deps } = await openWithMessages(
    [
      message('q', true, 'Hi'),
      message('a', false, 'Hello'),
      message('q2', true, 'And?'),
      message('b', false, 'More'),
    ],
    { explainDislike },
  )
  const reason = () => chat.getSnapshot().value.dislikeReason
  chat.send({ type: 'chat.rate', messageId: 'a', feedback: 'dislike' })
  await vi.waitFor(() => expect(reason()).toBe('asking'))
  expect(chat.getSnapshot().context.reasonFor).toBe('a')
  expect(chat.getSnapshot().context.messages[1]?.feedback).toBe('dislike')

  // Nothing to send, another answer, or a note over the bound: nothing is sent.
  chat.send({ type: 'chat.explainDislike', messageId: 'a', why: { reason: null, note: '  ' } })
  chat.send({ type: 'chat.explainDislike', messageId: 'b', why: { reason: 'other' } })
  chat.send({ type: 'chat.explainDislike', messageId: 'a', why: { note: 'x'.repeat(501) } })
  expect(explainDislike).not.toHaveBeenCalled()

  chat.send({ type: 'chat.explainDislike', messageId: 'a', why: { reason: 'incorrect', note: 'Wrong page' } })
  expect(reason()).toBe('sending')
  await vi.waitFor(() => expect(reason()).toBe('failed'))
  expect(deps.log.error).toHaveBeenCalledWith(
    'Chat: Saving the reason for a dislike failed',
    expect.any(Error),
  )
  chat.send({ type: 'chat.explainDislike', messageId: 'a', why: { reason: 'incorrect', note: 'Wrong page' } })
  await vi.waitFor(() => expect(reason()).toBe('thanked'))
  expect(explainDislike).toHaveBeenLastCalledWith('a', { reason: 'incorrect', note: 'Wrong page' })
  chat.send({ type: 'chat.skipReason' })
  expect(reason()).toBe('closed')

  chat.send({ type: 'chat.rate', messageId: 'b', feedback: 'dislike' })
  await vi.waitFor(() => expect(reason()).toBe('asking'))
  chat.send({ type: 'chat.skipReason' })
  expect([reason(), chat.getSnapshot().context.reasonFor]).toEqual(['closed', null])

  chat.send({ type: 'chat.rate', messageId: 'b', feedback: 'like' })
  await vi.waitFor(() => expect(chat.getSnapshot().context.messages[3]?.feedback).toBe('like'))
  chat.send({ type: 'chat.rate', messageId: 'b', feedback: 'dislike' })
  await vi.waitFor(() => expect(reason()).toBe('asking'))
  chat.send({ type: 'chat.rate', messageId: 'b', feedback: 'like' })
  await vi.waitFor(() => expect(reason()).toBe('closed'))
  expect(explainDislike).toHaveBeenCalledTimes(2)
})

// Conversations limited to chosen documents (D70).

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
  expect(scopeOnScreen(chat.getSnapshot().context)?.documents).toEqual([report, minutes])

  chat.send({ type: 'chat.send', content: 'Compare them' })
  await idle(chat)

  expect(deps.createConversation).toHaveBeenCalledWith('Compare them', [report.id, minutes.id])
  const { context } = chat.getSnapshot()
  expect(context.draftScope).toEqual([])
  expect(scopeOnScreen(context)?.documentIds).toEqual([report.id, minutes.id])
})

test('removing a chip or clearing a new chat changes only its draft; nothing is called', async () => {
  const { chat, deps } = await startChat()
  chat.send({ type: 'chat.scopeAdd', document: report })
  chat.send({ type: 'chat.scopeAdd', document: minutes })

  chat.send({ type: 'chat.scopeRemove', documentId: report.id })
  expect(chat.getSnapshot().context.draftScope).toEqual([minutes])
  chat.send({ type: 'chat.scopeClear' })
  expect(scopeOnScreen(chat.getSnapshot().context)).toBeNull()
  expect(deps.setScope).not.toHaveBeenCalled()
})

test("an open conversation's chips change once the server stored them, one change at a time", async () => {
  const gate = Promise.withResolvers<Conversation>()
  const { chat, deps } = await openWithMessages([], { setScope: vi.fn(() => gate.promise) })

  chat.send({ type: 'chat.scopeAdd', document: report })
  chat.send({ type: 'chat.scopeAdd', document: minutes })

  expect(deps.setScope).toHaveBeenCalledTimes(1)
  expect(deps.setScope).toHaveBeenCalledWith(older._id, [report.id])
  expect(scopeOnScreen(chat.getSnapshot().context)).toBeNull()
  gate.resolve(
    conversation(older._id, older.updatedAt, { scope: { documentIds: [report.id], documents: [report] } }),
  )
  await waitFor(chat, (s) => s.context.savingScopeOf === null)
  expect(scopeOnScreen(chat.getSnapshot().context)?.documents).toEqual([report])
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
  await waitFor(chat, (s) => s.context.savingScopeOf === null)
  expect(deps.setScope).toHaveBeenCalledWith('s-old', null)
  expect(chat.getSnapshot().context.scopeNotice).toBe(SCOPE_NOTICES.saveFailed)
  expect(scopeOnScreen(chat.getSnapshot().context)?.documents).toEqual([report])
  expect(deps.log.error).toHaveBeenCalledTimes(1)

  chat.send({ type: 'chat.scopeClear' })
  await waitFor(chat, (s) => s.context.savingScopeOf === null)
  expect(scopeOnScreen(chat.getSnapshot().context)).toBeNull()
  expect(chat.getSnapshot().context.scopeNotice).toBeNull()
})

test(`a scope holds at most ${SCOPE_MAX_DOCUMENTS} documents: one more is refused with a sentence`, async () => {
  const { chat } = await startChat()
  for (let i = 0; i < SCOPE_MAX_DOCUMENTS + 1; i++)
    chat.send({ type: 'chat.scopeAdd', document: { id: `doc-${i}`, name: `${i}.pdf` } })

  expect(chat.getSnapshot().context.draftScope).toHaveLength(SCOPE_MAX_DOCUMENTS)
  expect(chat.getSnapshot().context.scopeNotice).toBe(SCOPE_NOTICES.full)
})

test('"Ask about" starts a new chat about those documents and tells the app to show it', async () => {
  const { chat } = await openWithMessages([message('m0', true, 'Earlier')])
  const heard: ChatEmitted[] = []
  chat.on('chat.askingAbout', (event) => heard.push(event))

  chat.send({ type: 'chat.askAbout', documents: [minutes, minutes, report] })
  // The address then moves to the new chat, which the route tells the machine: nothing is lost.
  chat.send({ type: 'chat.new' })

  const { context } = chat.getSnapshot()
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

  const { context } = chat.getSnapshot()
  expect(context.draft).toBe('Compare them')
  expect(context.draftScope).toEqual([report])
  expect(context.scopeNotice).toBe(SCOPE_NOTICES.gone('minutes.pdf'))
  chat.send({ type: 'chat.send', content: 'Compare them' })
  await idle(chat)
  expect(deps.createConversation).toHaveBeenLastCalledWith('Compare them', [report.id])
})
