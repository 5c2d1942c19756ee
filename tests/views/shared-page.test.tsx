/** The read-only shared page (D73), as anyone with the link meets it. */
import { screen } from '@testing-library/react'
import { expect, test } from 'vitest'
import { sharingEndpoints } from '#contracts/sharing.ts'
import { ok, server } from './msw-server.ts'
import { renderApp } from './render-app.tsx'

test('the shared page shows when it was shared in the reader’s locale, to the minute, without seconds', async () => {
  const sharedAt = '2026-03-01T10:15:42.000Z'
  server.use(
    ok(sharingEndpoints.getSharedConversation, {
      success: true,
      data: {
        title: 'Travel allowance',
        sharedAt,
        messages: [
          { isUser: true, content: 'How much abroad?', createdAt: sharedAt, stopped: false, sources: [] },
        ],
      },
    }),
  )
  renderApp('/s/some-token')

  const expected = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(
    new Date(sharedAt),
  )
  const line = await screen.findByText(`Shared ${expected}`)
  expect(line.textContent).not.toMatch(/:42/)
})
