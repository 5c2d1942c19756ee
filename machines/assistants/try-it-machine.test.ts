import { expect, test, vi } from 'vitest'
import { createActor, waitFor } from 'xstate'
import { created, fakeDeps, reply } from '#machines/chat/chat-fixtures.ts'
import type { ChatDeps } from '#machines/chat/chat-types.ts'
import { HR_ID } from './assistant-fixtures.ts'
import { provideTryItMachine, tryItViewOf } from './try-it-machine.ts'

test("Try it creates a real conversation with the assistant and shows the chat's exchange", async () => {
  const deps = fakeDeps()
  const at = new Date('2026-03-01T12:00:00.000Z')
  const tryIt = createActor(provideTryItMachine(deps, HR_ID), { input: { now: () => at } }).start()

  tryIt.send({ type: 'chat.send', content: 'What is in my report?' })
  const done = await waitFor(tryIt, (s) => tryItViewOf(s).messages.at(-1)?.id === reply.aiMessage._id)

  expect(deps.createConversation).toHaveBeenCalledWith('What is in my report?', undefined, HR_ID)
  expect(deps.sendMessage).toHaveBeenCalledWith(created._id, 'What is in my report?', expect.anything())
  expect(tryItViewOf(done).conversationId).toBe(created._id)
  expect(tryItViewOf(done).messages.map((m) => [m.sender, m.content])).toEqual([
    ['user', 'What is in my report?'],
    ['bot', 'Your report covers Q1.'],
  ])
})

test('Start over opens a new chat; the next question creates another conversation', async () => {
  const createConversation = vi
    .fn<ChatDeps['createConversation']>()
    .mockResolvedValueOnce(created)
    .mockResolvedValueOnce({ ...created, _id: 's-second' })
  const deps = fakeDeps({ createConversation })
  const tryIt = createActor(provideTryItMachine(deps, HR_ID)).start()
  tryIt.send({ type: 'chat.send', content: 'First?' })
  await waitFor(tryIt, (s) => !tryItViewOf(s).busy && tryItViewOf(s).messages.length === 2)

  tryIt.send({ type: 'chat.new' })
  expect(tryItViewOf(tryIt.getSnapshot()).messages).toEqual([])
  tryIt.send({ type: 'chat.send', content: 'Second?' })

  await waitFor(tryIt, (s) => tryItViewOf(s).conversationId === 's-second')
  expect(createConversation).toHaveBeenLastCalledWith('Second?', undefined, HR_ID)
})
