/**
 * Settings → API keys (issue 38) through the real providers, routes and machine, answered by MSW:
 * a key is made (name, expiry, what it may do, one assistant), shown once with Copy and the
 * sentence that it will not be shown again, then listed by prefix; revoking asks first.
 */
import { screen, waitFor, within } from '@testing-library/react'
import { HttpResponse, http } from 'msw'
import { expect, test } from 'vitest'
import { type ApiKey, apiKeyEndpoints, type CreateApiKeyRequest } from '#contracts/api-keys.ts'
import { assistantEndpoints } from '#contracts/assistants.ts'
import { ok, server, signedIn, urlOf } from './msw-server.ts'
import { renderApp } from './render-app.tsx'

const KEY = `dc_${'Ab3dE_9zQ'.repeat(4)}Ab3dE_9`
const ASSISTANT = '3f0c9a2e-1b7d-4c5e-8a90-6b1d2e3f4a5b'
const listed = (over: Partial<ApiKey> = {}): ApiKey => ({
  _id: '7d1e2f3a-4b5c-4d6e-8f90-a1b2c3d4e5f6',
  name: 'Slack bot',
  prefix: KEY.slice(0, 11),
  scopes: ['chat'],
  assistantId: ASSISTANT,
  requestsPerMinute: null,
  tokensPerDay: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  lastUsedAt: null,
  expiresAt: '2026-04-01T00:00:00.000Z',
  ...over,
})

test('a new key is shown once with Copy, then listed by its prefix only', async () => {
  let sent: CreateApiKeyRequest | undefined
  server.use(
    signedIn(),
    ok(assistantEndpoints.listAssistants, {
      success: true,
      data: [
        {
          _id: ASSISTANT,
          name: 'Helpdesk',
          description: '',
          answerPolicy: 'documents-only',
          updatedAt: '2026-01-01T00:00:00.000Z',
          documentCount: 0,
          folderCount: 0,
        },
      ],
    }),
    http.post(urlOf(apiKeyEndpoints.createApiKey), async ({ request }) => {
      sent = (await request.json()) as CreateApiKeyRequest
      return HttpResponse.json({ success: true, data: { ...listed(), key: KEY } }, { status: 201 })
    }),
  )
  const { user } = renderApp('/dashboard/settings')
  // The settings route is loaded lazily: the first test of the file waits for it longer.
  await user.click(await screen.findByRole('button', { name: 'New API key' }, { timeout: 10_000 }))
  const dialog = await screen.findByRole('dialog', { name: 'New API key' })
  await user.type(within(dialog).getByLabelText('Name'), 'Slack bot')
  await user.selectOptions(within(dialog).getByLabelText('Assistants it may use'), 'Helpdesk')
  await user.click(within(dialog).getByRole('button', { name: 'Make the key' }))

  const shown = await screen.findByRole('dialog', { name: 'Your key “Slack bot”' })
  expect(within(shown).getByText(KEY)).toBeTruthy()
  expect(within(shown).getByText(/it will not be shown again/)).toBeTruthy()
  expect(within(shown).getByRole('button', { name: 'Copy the key' })).toBeTruthy()
  expect(sent).toEqual({ name: 'Slack bot', scopes: ['chat'], expiresInDays: 90, assistantId: ASSISTANT })

  await user.click(within(shown).getByRole('button', { name: 'Done' }))
  const list = screen.getByRole('list', { name: 'API keys' })
  expect(within(list).getByText(`${KEY.slice(0, 11)}…`)).toBeTruthy()
  expect(screen.queryByText(KEY)).toBeNull()
})

test('a name is required before a key is made', async () => {
  server.use(signedIn())
  const { user } = renderApp('/dashboard/settings')
  await user.click(await screen.findByRole('button', { name: 'New API key' }))
  const dialog = await screen.findByRole('dialog', { name: 'New API key' })
  await user.click(within(dialog).getByRole('button', { name: 'Make the key' }))
  expect(await within(dialog).findByText('Name is required')).toBeTruthy()
})

test('revoking a key asks first, then the key leaves the list', async () => {
  let keys = [listed()]
  let revoked = ''
  server.use(
    signedIn(),
    http.get(urlOf(apiKeyEndpoints.listApiKeys), () => HttpResponse.json({ success: true, data: keys })),
    http.delete(new URL('/api/v1/api-keys/:id', window.location.origin).href, ({ params }) => {
      revoked = String(params.id)
      keys = []
      return HttpResponse.json({ success: true, data: null })
    }),
  )
  const { user } = renderApp('/dashboard/settings')
  const list = await screen.findByRole('list', { name: 'API keys' })
  await user.click(await within(list).findByRole('button', { name: 'Revoke Slack bot' }))
  const ask = await screen.findByRole('dialog', { name: 'Revoke this key?' })
  expect(revoked).toBe('')
  await user.click(within(ask).getByRole('button', { name: 'Revoke' }))
  await waitFor(() => expect(within(list).queryByText('Slack bot')).toBeNull())
  expect(revoked).toBe(listed()._id)
})
