import { expect, test, vi } from 'vitest'
import { waitFor } from 'xstate'
import type { Conversation, Message, SendMessageResponse } from '#contracts/chat.ts'
import { libraryDocument } from '../documents/documents-fixtures.ts'
import {
  created,
  fakeDeps,
  heard,
  idle,
  message,
  older,
  openWithMessages,
  reply,
  sendingWithStream,
  startChat,
  viewOf,
} from './chat-fixtures.ts'
import { isAwaitingReplyHere, isLoading, isStreamingHere, partsOf } from './chat-selectors.ts'
import type { ChatDeps, ChatEmitted } from './chat-types.ts'

test('step 1: the message shows at once with a temporary id, and the chat is loading', async () => {
  const gate = Promise.withResolvers<Conversation>()
  const { chat } = await startChat(fakeDeps({ createConversation: vi.fn(() => gate.promise) }))

  chat.send({ type: 'chat.send', content: '  What is in my report?  ' })

  const snapshot = chat.getSnapshot()
  expect(viewOf(snapshot).messages).toEqual([
    expect.objectContaining({ id: 'temp-1', sender: 'user', content: 'What is in my report?' }),
  ])
  expect(isLoading(snapshot)).toBe(true)
  expect(isAwaitingReplyHere(snapshot)).toBe(true)
})

test('steps 2–4 without an open conversation: creates one titled with the text, first in the list and selected', async () => {
  const { chat, deps } = await startChat()

  chat.send({ type: 'chat.send', content: 'What is in my report?' })
  await idle(chat)

  const context = viewOf(chat.getSnapshot())
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
    assistant: null,
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

  const context = viewOf(chat.getSnapshot())
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

  const context = viewOf(chat.getSnapshot())
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

  const context = viewOf(chat.getSnapshot())
  expect(context.messages).toEqual([])
  expect(context.draft).toBe('Hello')
  expect(context.selectedConversationId).toBeNull()
  expect(context.conversations.map((s) => s.id)).not.toContain('s-created')
  await vi.waitFor(() => expect(deps.deleteConversation).toHaveBeenCalledWith('s-created'))
  expect(deps.log.error).toHaveBeenCalledTimes(1)
  expect(isLoading(chat.getSnapshot())).toBe(false)
})

test('failure in an existing conversation keeps the conversation and gives the text back', async () => {
  const { chat, deps } = await openWithMessages([message('m1', true, 'Hi'), message('m2', false, 'Hello')], {
    sendMessage: vi.fn().mockRejectedValue(new Error('502')),
  })
  chat.send({ type: 'chat.send', content: 'Again?' })
  await idle(chat)
  expect(viewOf(chat.getSnapshot()).messages.map((m) => m.id)).toEqual(['m1', 'm2'])
  expect(viewOf(chat.getSnapshot()).draft).toBe('Again?')
  expect(viewOf(chat.getSnapshot()).selectedConversationId).toBe('s-old')
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

  const context = viewOf(chat.getSnapshot())
  expect(context.notice).toBe(
    'You already have 2 answers being written. Wait for one to finish (or stop it), then send again.',
  )
  expect(context.draft).toBe('What is in my report?')
  expect(context.messages).toEqual([])
  await vi.waitFor(() => expect(deps.deleteConversation).toHaveBeenCalledWith('s-created'))

  // Sending again takes the notice away.
  chat.send({ type: 'chat.send', content: context.draft })
  expect(viewOf(chat.getSnapshot()).notice).toBeNull()
  await idle(chat)
  expect(viewOf(chat.getSnapshot()).messages.map((m) => m.id)).toEqual(['m-user', 'm-ai'])
})

test('a regenerate refused for too many answers says so and keeps the old answer; other failures stay silent', async () => {
  const { chat } = await openWithMessages([message('m1', true, 'Hi'), message('m2', false, 'Hello')], {
    regenerate: vi.fn().mockRejectedValue(tooMany()),
    sendMessage: vi.fn().mockRejectedValue(Object.assign(new Error('The model failed'), { status: 502 })),
  })

  chat.send({ type: 'chat.regenerate', messageId: 'm2' })
  await idle(chat)
  expect(viewOf(chat.getSnapshot()).notice).toMatch(/^You already have 2 answers being written/)
  expect(viewOf(chat.getSnapshot()).messages.map((m) => m.content)).toEqual(['Hi', 'Hello'])

  chat.send({ type: 'chat.send', content: 'Again?' })
  await idle(chat)
  expect(viewOf(chat.getSnapshot()).notice).toBeNull()
  expect(viewOf(chat.getSnapshot()).draft).toBe('Again?')
})

/**
 * An empty conversation where 'What is in my report?' is sent and its answer streams as the test
 * says (`stream()`), until `gate` gives the stored reply.
 */
test('the answer grows token by token, then the stored reply replaces it', async () => {
  const { chat, gate, stream: streamOf } = await sendingWithStream()
  const stream = streamOf()
  expect(isAwaitingReplyHere(chat.getSnapshot())).toBe(true)
  stream?.onToken('Your report ')
  stream?.onToken('covers')
  const growing = chat.getSnapshot()
  expect(viewOf(growing).messages.map((m) => [m.sender, m.content, m.streaming])).toEqual([
    ['user', 'What is in my report?', false],
    ['bot', 'Your report covers', true],
  ])
  expect(isAwaitingReplyHere(growing)).toBe(false)
  expect(isStreamingHere(growing)).toBe(true)

  gate.resolve(reply)
  await idle(chat)
  expect(viewOf(chat.getSnapshot()).messages.map((m) => m.id)).toEqual(['m-user', 'm-ai'])
})

test.each(['', '   ', '\n\t\n'])('blank text %j is not sent', async (content) => {
  const { chat, deps } = await startChat()

  chat.send({ type: 'chat.send', content })

  expect(viewOf(chat.getSnapshot()).messages).toEqual([])
  expect(isLoading(chat.getSnapshot())).toBe(false)
  expect(deps.createConversation).not.toHaveBeenCalled()
})

test('sending is blocked while a reply is awaited', async () => {
  const gate = Promise.withResolvers<SendMessageResponse>()
  const { chat, deps } = await startChat(fakeDeps({ sendMessage: vi.fn(() => gate.promise) }))

  chat.send({ type: 'chat.send', content: 'First' })
  await waitFor(chat, (s) => partsOf(s).sender.matches('sendingMessage'))
  chat.send({ type: 'chat.send', content: 'Second' })

  expect(viewOf(chat.getSnapshot()).messages.map((m) => m.content)).toEqual(['First'])
  gate.resolve(reply)
  await idle(chat)
  expect(deps.sendMessage).toHaveBeenCalledTimes(1)
})

test('sending is blocked while a conversation is loading', async () => {
  const gate = Promise.withResolvers<Message[]>()
  const { chat, deps } = await startChat(fakeDeps({ listMessages: vi.fn(() => gate.promise) }))

  chat.send({ type: 'chat.select', conversationId: older._id })
  chat.send({ type: 'chat.send', content: 'Too early' })

  expect(isLoading(chat.getSnapshot())).toBe(true)
  expect(viewOf(chat.getSnapshot()).messages).toEqual([])
  gate.resolve([])
  await idle(chat)
  expect(deps.sendMessage).not.toHaveBeenCalled()
})

test('a reply that lands after I opened another conversation updates the list, not the screen', async () => {
  const gate = Promise.withResolvers<SendMessageResponse>()
  const deps = fakeDeps({
    sendMessage: vi.fn(() => gate.promise),
    listMessages: vi.fn().mockResolvedValue([message('x1', true, 'Other')]),
  })
  const { chat } = await startChat(deps)

  chat.send({ type: 'chat.send', content: 'What is in my report?' })
  await waitFor(chat, (s) => partsOf(s).sender.matches('sendingMessage'))
  chat.send({ type: 'chat.select', conversationId: 's-new' })
  await waitFor(chat, (s) => partsOf(s).conversation.matches('idle'))
  expect(isAwaitingReplyHere(chat.getSnapshot())).toBe(false)
  gate.resolve(reply)
  await idle(chat)

  const context = viewOf(chat.getSnapshot())
  expect(context.selectedConversationId).toBe('s-new')
  expect(context.messages.map((m) => m.id)).toEqual(['x1'])
  expect(context.conversations[0]).toMatchObject({ id: 's-created', messageCount: 2 })
})

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
  expect(viewOf(chat.getSnapshot()).conversations[0]?.id).toBe('s-created')
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
  expect(viewOf(chat.getSnapshot()).attachment).toEqual({ file: harbourFile, content, error: null })
  chat.send({ type: 'chat.send', content: 'What is the buoy code?' })
  await idle(chat)

  expect(order).toEqual(['create', 'upload:s-created', 'send:s-created'])
  expect(deps.uploadFile).toHaveBeenCalledWith('s-created', { name: 'harbour.txt', content })
  expect(viewOf(chat.getSnapshot()).attachment).toBeNull()
  expect(viewOf(chat.getSnapshot()).files).toEqual([harbourDocument])
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

  const context = viewOf(chat.getSnapshot())
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

  expect(viewOf(chat.getSnapshot()).attachment).toBeNull()
  expect(viewOf(chat.getSnapshot()).files).toEqual([harbourDocument])
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
  expect(viewOf(chat.getSnapshot()).files.map((f) => f.id)).toEqual(['doc-h', 'doc-2'])
})
