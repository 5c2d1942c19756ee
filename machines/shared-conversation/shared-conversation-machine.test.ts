import { expect, test, vi } from 'vitest'
import { createActor, waitFor } from 'xstate'
import type { SharedConversation } from '#contracts/sharing.ts'
import { provideSharedConversationMachine } from './shared-conversation-machine.ts'

const conversation: SharedConversation = {
  title: 'Meals',
  sharedAt: '2026-03-01T10:00:00.000Z',
  messages: [],
}
const failure = (status: number) => Object.assign(new Error('no'), { status })

const start = (loadShared: (token: string) => Promise<SharedConversation>) =>
  createActor(provideSharedConversationMachine({ loadShared }), { input: { token: 'abc' } }).start()

test('the snapshot the link names is shown', async () => {
  const loadShared = vi.fn().mockResolvedValue(conversation)
  const snapshot = await waitFor(start(loadShared), (s) => s.matches('ready'))
  expect(snapshot.context.conversation?.title).toBe('Meals')
  expect(loadShared).toHaveBeenCalledWith('abc')
})

test('an unknown or revoked link leads nowhere; another failure can be tried again', async () => {
  await waitFor(start(vi.fn().mockRejectedValue(failure(404))), (s) => s.matches('missing'))

  const loadShared = vi.fn().mockRejectedValueOnce(failure(0)).mockResolvedValue(conversation)
  const actor = start(loadShared)
  await waitFor(actor, (s) => s.matches('failed'))
  actor.send({ type: 'shared.retry' })
  await waitFor(actor, (s) => s.matches('ready'))
})
