import { expect, test, vi } from 'vitest'
import { createActor, waitFor } from 'xstate'
import type { ApiKey, CreatedApiKey } from '#contracts/api-keys.ts'
import { API_KEYS_ERRORS, type ApiKeysDeps, provideApiKeysMachine } from './api-keys-machine.ts'

const listed = (id: string, name = 'Sync script'): ApiKey => ({
  _id: id,
  name,
  prefix: 'dc_Ab3dE_9z',
  scopes: ['library'],
  assistantId: null,
  requestsPerMinute: null,
  tokensPerDay: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  lastUsedAt: null,
  expiresAt: null,
})
const created: CreatedApiKey = { ...listed('new', 'Slack bot'), key: `dc_${'x'.repeat(43)}` }
const request = { name: 'Slack bot', scopes: ['chat' as const], expiresInDays: 90 as const }

function start(deps: Partial<ApiKeysDeps> = {}) {
  return createActor(
    provideApiKeysMachine({
      load: vi.fn().mockResolvedValue({ keys: [listed('old')], assistants: [] }),
      createKey: vi.fn().mockResolvedValue(created),
      revokeKey: vi.fn().mockResolvedValue(undefined),
      ...deps,
    }),
  ).start()
}

test('a new key is shown once, listed without its text, and forgotten when the dialog closes', async () => {
  const actor = start()
  await waitFor(actor, (s) => s.matches('ready'))
  actor.send({ type: 'apiKeys.compose' })
  actor.send({ type: 'apiKeys.create', request })

  const showing = await waitFor(actor, (s) => s.hasTag('showing'))
  expect(showing.context.created?.key).toBe(created.key)
  expect(showing.context.keys.map((k) => k._id)).toEqual(['new', 'old'])
  expect(JSON.stringify(showing.context.keys)).not.toContain(created.key)

  actor.send({ type: 'apiKeys.closeKey' })
  expect(actor.getSnapshot().context.created).toBeNull()
  expect(JSON.stringify(actor.getSnapshot().context)).not.toContain(created.key)
})

test('a refused key keeps the dialog open with the server’s sentence', async () => {
  const refused = Object.assign(new Error('You already have 20 API keys.'), { status: 400 })
  const actor = start({ createKey: vi.fn().mockRejectedValue(refused) })
  await waitFor(actor, (s) => s.matches('ready'))
  actor.send({ type: 'apiKeys.compose' })
  actor.send({ type: 'apiKeys.create', request })

  const back = await waitFor(actor, (s) => s.matches('composing'))
  expect(back.context.error).toBe('You already have 20 API keys.')
})

test('revoking is asked first; cancelling revokes nothing, confirming reads the list again', async () => {
  const revokeKey = vi.fn().mockResolvedValue(undefined)
  const load = vi
    .fn()
    .mockResolvedValueOnce({ keys: [listed('old')], assistants: [] })
    .mockResolvedValueOnce({ keys: [], assistants: [] })
  const actor = start({ revokeKey, load })
  await waitFor(actor, (s) => s.matches('ready'))

  actor.send({ type: 'apiKeys.revoke', id: 'old' })
  actor.send({ type: 'apiKeys.cancel' })
  expect(revokeKey).not.toHaveBeenCalled()
  actor.send({ type: 'apiKeys.revoke', id: 'old' })
  actor.send({ type: 'apiKeys.confirmRevoke' })

  const after = await waitFor(actor, (s) => s.matches('ready') && s.context.keys.length === 0)
  expect(revokeKey).toHaveBeenCalledWith('old')
  expect(after.context.error).toBeNull()
})

test('a list that fails to load can be tried again', async () => {
  const load = vi
    .fn()
    .mockRejectedValueOnce(new Error('offline'))
    .mockResolvedValueOnce({ keys: [listed('old')], assistants: [] })
  const actor = start({ load })
  const failed = await waitFor(actor, (s) => s.matches('failed'))
  expect(failed.context.error).toBe(API_KEYS_ERRORS.load)
  actor.send({ type: 'apiKeys.retry' })
  await waitFor(actor, (s) => s.matches('ready') && s.context.keys.length === 1)
})
