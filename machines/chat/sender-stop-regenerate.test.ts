// The sender's Stop (and finding the stopped answer) and Regenerate, through the chat as the app runs it.
import { expect, test, vi } from 'vitest'
import { waitFor } from 'xstate'
import type { Message, SendMessageResponse } from '#contracts/chat.ts'
import { idle, message, newer, older, openWithMessages, viewOf } from './chat-fixtures.ts'
import { isLoading, partsOf } from './chat-selectors.ts'
import type { AnswerStream, ChatDeps } from './chat-types.ts'
import { MAX_STOP_CHECKS, STOP_CHECK_DELAY_MS } from './sender-actions.ts'

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
  const context = viewOf(chat.getSnapshot())
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
  expect(isLoading(chat.getSnapshot())).toBe(true)

  await idle(chat)
  expect(listMessages).toHaveBeenLastCalledWith(older._id)
  expect(viewOf(chat.getSnapshot()).messages.map((m) => [m.id, m.content, m.stopped])).toEqual([
    ['m-q', 'Tell me everything', false],
    ['m-a', 'The first part, and a little more', true],
  ])
  expect(viewOf(chat.getSnapshot()).stoppedSend).toBeNull()

  chat.send({ type: 'chat.regenerate', messageId: 'm-a' })
  expect(deps.regenerate).toHaveBeenCalledWith(older._id, 'm-a', expect.anything())
})

test('after Stop an answer the server never stored keeps its temporary ids, and sending works again', async () => {
  const { chat, deps } = await stoppedMidAnswer()

  await waitFor(chat, (s) => !isLoading(s), { timeout: (MAX_STOP_CHECKS + 2) * STOP_CHECK_DELAY_MS })
  // Only the look-ups after the Stop (the first call opened the conversation).
  expect(deps.listMessages).toHaveBeenCalledTimes(1 + MAX_STOP_CHECKS + 1)
  expect(viewOf(chat.getSnapshot()).messages.map((m) => m.id)).toEqual(['temp-1', 'temp-1:answer'])
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
  await waitFor(chat, (s) => partsOf(s).conversation.matches('idle'))
  gate.resolve(stoppedExchange)

  await idle(chat)
  expect(viewOf(chat.getSnapshot()).messages.map((m) => m.id)).toEqual(['m-other'])
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
  expect(viewOf(chat.getSnapshot()).messages.at(-1)?.content).toBe('A better')
  gate.resolve(again)
  await idle(chat)
  expect(viewOf(chat.getSnapshot()).messages.at(-1)?.content).toBe('A better answer')

  regenerate.mockRejectedValueOnce(new Error('502'))
  chat.send({ type: 'chat.regenerate', messageId: 'm2' })
  await idle(chat)
  expect(viewOf(chat.getSnapshot()).messages.at(-1)?.content).toBe('A better answer')
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
  expect(viewOf(chat.getSnapshot()).messages.at(-1)).toMatchObject({
    content: 'Half an',
    stopped: true,
    version: 2,
    versionCount: 2,
  })
})
