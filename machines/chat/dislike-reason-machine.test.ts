// The reason for a dislike (D93), a child actor of the open conversation, through the chat as the app runs it.
import { expect, test, vi } from 'vitest'
import { message, openWithMessages, viewOf } from './chat-fixtures.ts'
import { partsOf } from './chat-selectors.ts'
import type { ChatDeps } from './chat-types.ts'
import { dislikeReasonOf } from './open-conversation-machine.ts'

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
  const reason = () => dislikeReasonOf(partsOf(chat.getSnapshot()).conversation).value
  chat.send({ type: 'chat.rate', messageId: 'a', feedback: 'dislike' })
  await vi.waitFor(() => expect(reason()).toBe('asking'))
  expect(viewOf(chat.getSnapshot()).reasonFor).toBe('a')
  expect(viewOf(chat.getSnapshot()).messages[1]?.feedback).toBe('dislike')

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
  expect([reason(), viewOf(chat.getSnapshot()).reasonFor]).toEqual(['closed', null])

  chat.send({ type: 'chat.rate', messageId: 'b', feedback: 'like' })
  await vi.waitFor(() => expect(viewOf(chat.getSnapshot()).messages[3]?.feedback).toBe('like'))
  chat.send({ type: 'chat.rate', messageId: 'b', feedback: 'dislike' })
  await vi.waitFor(() => expect(reason()).toBe('asking'))
  chat.send({ type: 'chat.rate', messageId: 'b', feedback: 'like' })
  await vi.waitFor(() => expect(reason()).toBe('closed'))
  expect(explainDislike).toHaveBeenCalledTimes(2)
})
