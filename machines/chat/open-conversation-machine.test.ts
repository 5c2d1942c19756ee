import { expect, test, vi } from 'vitest'
import { waitFor } from 'xstate'
import type { Message, SendMessageResponse } from '#contracts/chat.ts'
import {
  fakeDeps,
  idle,
  message,
  older,
  openWithMessages,
  reply,
  sendingWithStream,
  startChat,
  viewOf,
} from './chat-fixtures.ts'
import { isMissingConversation, openSourceOf } from './chat-selectors.ts'
import type { ChatDeps } from './chat-types.ts'

test('selecting a conversation loads its messages as user and bot bubbles', async () => {
  const sources = [
    { documentId: 'd1', documentName: 'Report.pdf', chunkId: 'c1', page: 3, link: null },
    { documentId: 'd1', documentName: 'Report.pdf', chunkId: 'c2', page: 3, link: null },
  ]
  const { chat, deps } = await openWithMessages([
    message('m1', true, 'Hi'),
    message('m2', false, 'Hello', { sources }),
  ])

  const context = viewOf(chat.getSnapshot())
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

  expect(viewOf(chat.getSnapshot()).messages).toEqual([])
  expect(viewOf(chat.getSnapshot()).selectedConversationId).toBe('s-old')
  expect(deps.log.error).toHaveBeenCalledTimes(1)
})

test('a conversation the server does not know (404) is missing, not an empty new chat, until a new chat starts', async () => {
  const gone = Object.assign(new Error('Conversation not found'), { status: 404 })
  const deps = fakeDeps({ listMessages: vi.fn().mockRejectedValue(gone) })
  const { chat } = await openWithMessages([], deps)

  expect(isMissingConversation(chat.getSnapshot())).toBe(true)
  expect(deps.log.error).not.toHaveBeenCalled()

  chat.send({ type: 'chat.new' })
  expect(isMissingConversation(chat.getSnapshot())).toBe(false)
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

  expect(viewOf(chat.getSnapshot()).selectedConversationId).toBe('s-new')
  expect(viewOf(chat.getSnapshot()).messages.map((m) => m.id)).toEqual(['n1'])
})

test('a new chat clears the messages and the selection', async () => {
  const { chat } = await openWithMessages([message('m1', true, 'Hi')])

  chat.send({ type: 'chat.new' })

  expect(viewOf(chat.getSnapshot()).messages).toEqual([])
  expect(viewOf(chat.getSnapshot()).selectedConversationId).toBeNull()
})

test('feedback is highlighted only after the server stored it', async () => {
  const gate = Promise.withResolvers<Message>()
  const deps = fakeDeps({
    listMessages: vi.fn().mockResolvedValue([message('m2', false, 'Answer')]),
    setFeedback: vi.fn(() => gate.promise),
  })
  const { chat } = await openWithMessages([], deps)

  chat.send({ type: 'chat.rate', messageId: 'm2', feedback: 'like' })
  expect(viewOf(chat.getSnapshot()).messages[0]?.feedback).toBeNull()
  gate.resolve(message('m2', false, 'Answer', { feedback: 'like' }))
  await waitFor(chat, (s) => viewOf(s).ratingMessageIds.length === 0)

  expect(deps.setFeedback).toHaveBeenCalledWith('m2', 'like')
  expect(viewOf(chat.getSnapshot()).messages[0]?.feedback).toBe('like')
})

test('failed feedback changes nothing and is only logged', async () => {
  const deps = fakeDeps({
    listMessages: vi.fn().mockResolvedValue([message('m2', false, 'Answer', { feedback: 'like' })]),
    setFeedback: vi.fn().mockRejectedValue(new Error('500')),
  })
  const { chat } = await openWithMessages([], deps)

  chat.send({ type: 'chat.rate', messageId: 'm2', feedback: 'dislike' })
  await waitFor(chat, (s) => viewOf(s).ratingMessageIds.length === 0)

  expect(viewOf(chat.getSnapshot()).messages[0]?.feedback).toBe('like')
  expect(deps.log.error).toHaveBeenCalledTimes(1)
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

  const bubble = viewOf(chat.getSnapshot()).messages.at(-1)
  expect(bubble?.streaming).toBe(true)
  expect(bubble?.sources.map((s) => s.citation)).toEqual([1, 2])

  // A passage opened while the answer is written stays open once the answer is stored under its id.
  chat.send({ type: 'chat.showSource', messageId: bubble?.id ?? '', chunkId: 'chunk-1' })
  expect(openSourceOf(chat.getSnapshot())?.source.quote).toBe('Passage 1')
  stream?.onSources([passage(1)])
  gate.resolve({ ...reply, aiMessage: { ...reply.aiMessage, sources: [passage(1)] } })
  await idle(chat)

  expect(
    viewOf(chat.getSnapshot())
      .messages.at(-1)
      ?.sources.map((s) => s.citation),
  ).toEqual([1])
  expect(viewOf(chat.getSnapshot()).openSource).toEqual({ messageId: 'm-ai', chunkId: 'chunk-1' })
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
  expect(viewOf(chat.getSnapshot()).openSource).toBeNull()

  chat.send({ type: 'chat.showSource', messageId: 'a1', chunkId: 'chunk-1' })
  chat.send({ type: 'chat.new' })
  expect(viewOf(chat.getSnapshot()).openSource).toBeNull()
})

test('writing the answer again closes its open passage', async () => {
  const answer = message('a1', false, 'See [1].', { sources: [passage(1)] })
  const { chat } = await openWithMessages([message('q1', true, 'Q'), answer], {
    regenerate: vi.fn(() => new Promise<SendMessageResponse>(() => {})),
  })
  chat.send({ type: 'chat.showSource', messageId: 'a1', chunkId: 'chunk-1' })

  chat.send({ type: 'chat.regenerate', messageId: 'a1' })

  expect(viewOf(chat.getSnapshot()).openSource).toBeNull()
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
  expect(viewOf(chat.getSnapshot()).switchingVersionIds).toEqual(['a'])

  gate.resolve(
    message('a', false, 'Economy [1].', {
      version: 1,
      versionCount: 2,
      feedback: 'dislike',
      sources: [source('c1', 1)],
    }),
  )
  await vi.waitFor(() => expect(viewOf(chat.getSnapshot()).switchingVersionIds).toEqual([]))
  const shown = viewOf(chat.getSnapshot())
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
  expect(viewOf(chat.getSnapshot()).messages.at(-1)).toMatchObject({ content: 'Two', version: 2 })
  expect(viewOf(chat.getSnapshot()).switchingVersionIds).toEqual([])

  chat.send({ type: 'chat.regenerate', messageId: 'a' })
  chat.send({ type: 'chat.showVersion', messageId: 'a', version: 1 })
  expect(failing).toHaveBeenCalledTimes(1)
})
