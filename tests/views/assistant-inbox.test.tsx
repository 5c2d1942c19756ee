import { screen, waitFor, within } from '@testing-library/react'
import { expect, test } from 'vitest'
import { assistantFixture, assistantsBackend, HR_ID } from './assistants-handlers.ts'
import { chatBackend, openChat } from './chat-fixtures.ts'
import { FIRST, inboxBackend } from './inbox-handlers.ts'
import { server } from './msw-server.ts'

async function openInbox(path = `/dashboard/assistants/${HR_ID}/conversations`) {
  const assistants = assistantsBackend({
    assistants: [assistantFixture({ published: true, publicId: 'pub-hr-7Qx', retentionDays: 30 })],
  })
  const inbox = inboxBackend()
  server.use(...assistants.handlers, ...inbox.handlers)
  const app = await openChat(chatBackend(), path)
  return { ...app, inbox }
}

const list = () => within(screen.getByRole('list', { name: 'Visitor conversations' }))

test("the assistant's page leads to its inbox, which lists, pages and says how long it keeps them", async () => {
  const { user, currentPath, inbox } = await openInbox(`/dashboard/assistants/${HR_ID}`)

  await user.click(await screen.findByRole('link', { name: 'Visitor conversations' }))

  await waitFor(() => expect(currentPath()).toBe(`/dashboard/assistants/${HR_ID}/conversations`))
  expect(await screen.findByRole('heading', { name: 'Visitor conversations', level: 1 })).toBeTruthy()
  expect(screen.getByText(/Visitor conversations are kept 30 days, then deleted/)).toBeTruthy()
  expect(
    list().getByRole('button', { name: /How many days off do I get\?.*Visitor k7f2.*2 messages/ }),
  ).toBeTruthy()
  expect(list().queryByText('Can I carry days over?')).toBeNull()

  await user.click(screen.getByRole('button', { name: 'Show more' }))

  expect(await list().findByText('Can I carry days over?')).toBeTruthy()
  expect(list().getAllByRole('listitem')).toHaveLength(2)
  expect(list().getByText(/Grace Hopper/)).toBeTruthy()
  expect(inbox.calls.queries.at(-1)).toBe('?filter=all&cursor=page-2')
  expect(screen.queryByRole('button', { name: 'Show more' })).toBeNull()
})

test('Unanswered shows only the conversations that went unanswered', async () => {
  const { user, inbox } = await openInbox()
  await screen.findByRole('list', { name: 'Visitor conversations' })

  await user.click(screen.getByRole('button', { name: 'Unanswered' }))

  expect(await list().findByText('Can I carry days over?')).toBeTruthy()
  expect(list().queryByText('How many days off do I get?')).toBeNull()
  expect(screen.getByRole('button', { name: 'Unanswered' }).getAttribute('aria-pressed')).toBe('true')
  expect(inbox.calls.queries.at(-1)).toBe('?filter=unanswered')
  expect(screen.getByRole('link', { name: 'Export CSV' }).getAttribute('href')).toBe(
    `/api/v1/assistants/${HR_ID}/conversations?filter=unanswered&format=csv`,
  )
})

test('a conversation shows its messages and the passages the visitor saw; Delete asks first', async () => {
  const { user, inbox } = await openInbox()

  await user.click(await list().findByRole('button', { name: /How many days off do I get\?/ }))
  const pane = within(await screen.findByRole('region', { name: 'Conversation' }))
  expect(await pane.findByText('You get 25 days a year [1].')).toBeTruthy()
  expect(pane.getByText('[1] Leave policy.pdf, page 3: “Staff get 25 days of leave.”')).toBeTruthy()
  expect(pane.getByText('Assistant · Disliked')).toBeTruthy()

  await user.click(pane.getByRole('button', { name: 'Delete conversation' }))
  const ask = within(await screen.findByRole('dialog', { name: 'Delete this conversation?' }))
  await user.click(ask.getByRole('button', { name: 'Cancel' }))
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
  expect(inbox.calls.deleted).toEqual([])

  await user.click(pane.getByRole('button', { name: 'Delete conversation' }))
  await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }))

  expect(await screen.findByText('Conversation deleted.')).toBeTruthy()
  expect(inbox.calls.deleted).toEqual([FIRST])
  expect(screen.queryByRole('region', { name: 'Conversation' })).toBeNull()
})

test('Delete all asks first, then says how many went', async () => {
  const { user, inbox } = await openInbox()
  await screen.findByRole('list', { name: 'Visitor conversations' })

  await user.click(screen.getByRole('button', { name: 'Delete all' }))
  const ask = within(await screen.findByRole('dialog', { name: 'Delete every visitor conversation?' }))
  await user.click(ask.getByRole('button', { name: 'Delete all' }))

  expect(await screen.findByText('Deleted 2 conversations.')).toBeTruthy()
  expect(inbox.calls.deleted).toEqual(['all'])
  expect(await screen.findByText('No visitor conversations yet.')).toBeTruthy()
})

test("the per-day chart is an image whose description gives each day's numbers", async () => {
  await openInbox()

  const chart = await screen.findByRole('img', { name: 'Conversations and tokens per day' })

  const description = document.getElementById(chart.getAttribute('aria-describedby') ?? '')?.textContent
  expect(description).toContain('2 conversations and 1,500 tokens in the last 2 days.')
  expect(description).toContain('2026-03-01: 2 conversations, 1,500 tokens')
  expect(screen.getByText('how many days off do i get')).toBeTruthy()
})
