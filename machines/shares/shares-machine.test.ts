import { expect, test, vi } from 'vitest'
import { createActor, waitFor } from 'xstate'
import type { Share } from '#contracts/sharing.ts'
import { provideSharesMachine, SHARES_MESSAGES, type SharesDeps } from './shares-machine.ts'

const share = (conversationId: string, sharedAt = '2026-03-01T10:00:00.000Z'): Share => ({
  conversationId,
  title: `Conversation ${conversationId}`,
  url: `https://docs.example.com/s/${conversationId.padEnd(43, 'x')}`,
  sharedAt,
})

function start(deps: Partial<SharesDeps>) {
  const full: SharesDeps = {
    listShares: vi.fn().mockResolvedValue([share('a')]),
    shareConversation: vi.fn(async (id: string) => share(id, '2026-03-02T10:00:00.000Z')),
    unshareConversation: vi.fn().mockResolvedValue(undefined),
    ...deps,
  }
  return { actor: createActor(provideSharesMachine(full)).start(), deps: full }
}

test('it lists the shared conversations, and a new share comes first', async () => {
  const { actor } = start({})
  await waitFor(actor, (s) => s.matches('ready'))

  actor.send({ type: 'shares.share', conversationId: 'b' })
  const snapshot = await waitFor(actor, (s) => s.matches('ready') && s.context.shares.length === 2)

  expect(snapshot.context.shares.map((s) => s.conversationId)).toEqual(['b', 'a'])
})

test('sharing again replaces the entry (same link, new time); revoking removes it', async () => {
  const { actor } = start({})
  await waitFor(actor, (s) => s.matches('ready'))

  actor.send({ type: 'shares.share', conversationId: 'a' })
  await waitFor(
    actor,
    (s) => s.matches('ready') && s.context.shares[0]?.sharedAt.startsWith('2026-03-02') === true,
  )
  expect(actor.getSnapshot().context.shares).toHaveLength(1)
  actor.send({ type: 'shares.revoke', conversationId: 'a' })
  const snapshot = await waitFor(actor, (s) => s.matches('ready') && s.context.shares.length === 0)
  expect(snapshot.context.pendingId).toBeNull()
})

test("a refused share keeps the list and says the server's sentence; a failure without one, ours", async () => {
  const refusal = Object.assign(
    new Error('There is nothing to share yet: this conversation has no messages.'),
    {
      status: 409,
    },
  )
  const { actor } = start({
    shareConversation: vi.fn().mockRejectedValue(refusal),
    unshareConversation: vi.fn().mockRejectedValue(Object.assign(new Error('Bad gateway'), { status: 502 })),
  })
  await waitFor(actor, (s) => s.matches('ready'))

  actor.send({ type: 'shares.share', conversationId: 'b' })
  await waitFor(actor, (s) => s.matches('ready') && s.context.problem !== null)
  expect(actor.getSnapshot().context.problem).toBe(refusal.message)
  actor.send({ type: 'shares.revoke', conversationId: 'a' })
  const snapshot = await waitFor(
    actor,
    (s) => s.matches('ready') && s.context.problem === SHARES_MESSAGES.revoke,
  )
  expect(snapshot.context.shares.map((s) => s.conversationId)).toEqual(['a'])
})
