import { screen, waitFor, within } from '@testing-library/react'
import { expect, test } from 'vitest'
import { chatEndpoints } from '#contracts/chat.ts'
import { ago, chatBackend, chatConversation, chatMessage, DAY, HOUR, openChat } from './chat-fixtures.ts'
import { fail, server } from './msw-server.ts'

const today = chatConversation('today', {
  title: 'Budget questions',
  lastMessage: 'The budget is 5k.',
  updatedAt: ago(HOUR),
  messageCount: 3,
})
const yesterday = chatConversation('yesterday', {
  title: 'Travel plans',
  updatedAt: ago(DAY + HOUR),
  messageCount: 1,
})
const thisWeek = chatConversation('week', { title: 'Contract review', updatedAt: ago(3 * DAY + HOUR) })
const lastMonth = chatConversation('month', { title: 'Old notes', updatedAt: ago(30 * DAY) })

async function openHistory(
  backend = chatBackend({ conversations: [lastMonth, thisWeek, today, yesterday] }),
) {
  const app = await openChat(backend)
  await app.goTo('Conversation History')
  await within(app.main).findByRole('heading', { name: 'Conversation History' })
  return { ...app, backend }
}

const group = (label: string) => screen.getByRole('region', { name: label })
const itemOf = (title: string) => {
  const item = within(screen.getByRole('main')).getByText(title).closest('li')
  if (!item) throw new Error(`No History item for ${title}`)
  return item
}

test('shows its heading and, with no conversations, the empty state', async () => {
  const { main } = await openHistory(chatBackend())

  expect(within(main).getByText('View and manage your previous conversations')).toBeTruthy()
  expect(await within(main).findByText('No conversations yet')).toBeTruthy()
  expect(within(main).getByText('Start chatting to see your conversation history here.')).toBeTruthy()
})

test("groups conversations under 'Today', 'N days ago' or their date, newest first", async () => {
  const { main } = await openHistory()

  const labels = within(main)
    .getAllByRole('heading', { level: 2 })
    .map((heading) => heading.textContent)
  expect(labels).toEqual([
    'Today',
    '1 day ago',
    '3 days ago',
    new Date(lastMonth.updatedAt).toLocaleDateString(),
  ])
  expect(within(group('Today')).getByText('Budget questions')).toBeTruthy()
  expect(within(group('1 day ago')).getByText('Travel plans')).toBeTruthy()
  expect(within(group('3 days ago')).getByText('Contract review')).toBeTruthy()
})

test('each conversation shows its title, last message, message count, time and a delete button', async () => {
  await openHistory()

  const item = within(itemOf('Budget questions'))
  expect(item.getByText('The budget is 5k.')).toBeTruthy()
  expect(item.getByText('3 messages')).toBeTruthy()
  expect(item.getByRole('button', { name: /Budget questions/ }).querySelector('time')).toBeTruthy()
  const remove = item.getByRole('button', { name: 'Delete conversation' })
  expect(remove.getAttribute('title')).toBe('Delete conversation')
  expect(within(itemOf('Travel plans')).getByText('1 message')).toBeTruthy()
})

test('Recent Conversations shows title, last message and relative time', async () => {
  await openHistory()

  const recent = within(screen.getByRole('region', { name: 'Recent Conversations' }))
  const buttons = recent.getAllByRole('link')
  expect(buttons).toHaveLength(4)
  const first = within(buttons[0] as HTMLElement)
  expect(first.getByText('Budget questions')).toBeTruthy()
  expect(first.getByText('The budget is 5k.')).toBeTruthy()
  expect(first.getByText('1h ago')).toBeTruthy()
  expect(
    within(buttons[1] as HTMLElement).getByText(new Date(yesterday.updatedAt).toLocaleDateString()),
  ).toBeTruthy()
})

test('clicking a conversation loads it and switches to the chat view', async () => {
  const backend = chatBackend({
    conversations: [today],
    messages: {
      today: [chatMessage('u1', true, 'What is the budget?'), chatMessage('a1', false, 'The budget is 5k.')],
    },
  })
  const { user, main, sidebar } = await openHistory(backend)

  await user.click(within(main).getByRole('button', { name: /Budget questions/ }))

  expect(await within(main).findByText('What is the budget?')).toBeTruthy()
  expect(within(main).getByRole('log', { name: 'Conversation' })).toBeTruthy()
  expect(within(sidebar).getByRole('link', { name: 'Chat with Docs' }).getAttribute('aria-current')).toBe(
    'page',
  )
})

test('a recent conversation in the sidebar opens in the chat view too', async () => {
  const backend = chatBackend({
    conversations: [today],
    messages: { today: [chatMessage('u1', true, 'What is the budget?')] },
  })
  const { user, main } = await openHistory(backend)

  const recent = within(screen.getByRole('region', { name: 'Recent Conversations' }))
  await user.click(recent.getByRole('link', { name: /Budget questions/ }))

  expect(await within(main).findByText('What is the budget?')).toBeTruthy()
  // Now the chat's own list is beside it, with the open conversation marked.
  const beside = within(screen.getByRole('region', { name: 'Recent Conversations' }))
  expect(beside.getByRole('link', { name: /Budget questions/ }).getAttribute('aria-current')).toBe('page')
})

test('delete removes the conversation from History and Recent Conversations', async () => {
  const { user, backend } = await openHistory()

  await user.click(within(itemOf('Contract review')).getByRole('button', { name: 'Delete conversation' }))
  expect(backend.calls.deleted).toEqual([])
  await user.click(within(itemOf('Contract review')).getByRole('button', { name: 'Delete' }))

  await waitFor(() => expect(screen.queryByText('Contract review')).toBeNull())
  expect(backend.calls.deleted).toEqual(['week'])
  expect(screen.queryByRole('region', { name: '3 days ago' })).toBeNull()
  expect(screen.getAllByText('Budget questions')).toHaveLength(2)
})

// Every way back to Chat (the sidebar, a History item) starts a new chat or opens another
// conversation, so the cleared selection itself is proven by the chat machine's tests; this checks
// the whole path: nothing is sent to the deleted conversation afterwards.
test('after deleting the open conversation, my next message starts a new one', async () => {
  const backend = chatBackend({
    conversations: [today],
    messages: { today: [chatMessage('u1', true, 'What is the budget?')] },
  })
  const { user, main, goTo, input } = await openHistory(backend)
  await user.click(within(main).getByRole('button', { name: /Budget questions/ }))
  await within(main).findByText('What is the budget?')

  await goTo('Conversation History')
  await user.click(within(itemOf('Budget questions')).getByRole('button', { name: 'Delete conversation' }))
  await user.click(within(itemOf('Budget questions')).getByRole('button', { name: 'Delete' }))
  expect(await within(main).findByText('No conversations yet')).toBeTruthy()
  await goTo('Chat with Docs')
  await user.type(input(), 'A fresh start{Enter}')

  expect(await within(main).findByText('You asked: A fresh start')).toBeTruthy()
  expect(within(main).queryByText('What is the budget?')).toBeNull()
  expect(backend.calls.created).toEqual(['A fresh start'])
  expect(backend.calls.sent.map((call) => call.conversationId)).not.toContain('today')
})

test('delete asks first: Cancel keeps the conversation', async () => {
  const { user, backend } = await openHistory()
  await user.click(within(itemOf('Contract review')).getByRole('button', { name: 'Delete conversation' }))
  await user.click(within(itemOf('Contract review')).getByRole('button', { name: 'Cancel' }))
  expect(itemOf('Contract review')).toBeTruthy()
  expect(backend.calls.deleted).toEqual([])
})

test('a failed delete keeps the conversation and shows no error', async () => {
  const { user, log } = await openHistory()
  server.use(fail(chatEndpoints.deleteConversation, 500))

  await user.click(within(itemOf('Contract review')).getByRole('button', { name: 'Delete conversation' }))
  await user.click(within(itemOf('Contract review')).getByRole('button', { name: 'Delete' }))

  await waitFor(() => expect(log.error).toHaveBeenCalled())
  expect(itemOf('Contract review')).toBeTruthy()
  expect(screen.queryByRole('alert')).toBeNull()
})

test('search finds conversations by what was said and opens one', async () => {
  const { user, main } = await openHistory()
  await user.type(within(main).getByRole('searchbox', { name: 'Search conversations' }), 'contract{Enter}')
  const results = await within(main).findByRole('list', { name: 'Search results' })
  expect(
    within(results)
      .getAllByRole('button')
      .map((b) => b.textContent),
  ).toEqual([expect.stringContaining('Contract review')])
  await user.click(within(results).getByRole('button'))
  expect(await within(main).findByRole('heading', { name: 'Contract review' })).toBeTruthy()
})

test('the list is filtered as I type, without Enter: only the matches, their passage in plain text with my words marked', async () => {
  const withMarkdown = chatConversation('md', {
    title: 'Budget review',
    lastMessage: '**The budget** for Q3 is [5k](https://example.com) [1]',
    updatedAt: ago(2 * HOUR),
  })
  const { user, main } = await openHistory(
    chatBackend({ conversations: [lastMonth, thisWeek, today, yesterday, withMarkdown] }),
  )
  expect(await within(main).findByText('Old notes')).toBeTruthy()

  await user.type(within(main).getByRole('searchbox', { name: 'Search conversations' }), 'budget')

  const results = await within(main).findByRole('list', { name: 'Search results' })
  await waitFor(() =>
    expect(
      within(results)
        .getAllByRole('button')
        .map((b) => b.querySelector('span')?.textContent),
    ).toEqual(['Budget questions', 'Budget review']),
  )
  // The rest of the list is gone while the search is on, not listed below the results.
  expect(within(main).queryByText('Old notes')).toBeNull()
  expect(within(main).queryByRole('region', { name: 'Today' })).toBeNull()
  const review = within(results).getByRole('button', { name: /Budget review/ })
  expect(review.textContent).toContain('The budget for Q3 is 5k')
  expect(review.textContent).not.toContain('**')
  expect(Array.from(review.querySelectorAll('mark')).map((m) => m.textContent?.toLowerCase())).toEqual([
    'budget',
    'budget',
  ])

  await user.type(within(main).getByRole('searchbox', { name: 'Search conversations' }), 'zzz')
  expect(await within(main).findByText('No conversations match “budgetzzz”.')).toBeTruthy()
  expect(within(main).queryByRole('list', { name: 'Search results' })).toBeNull()

  await user.click(within(main).getByRole('button', { name: 'Clear' }))
  expect(await within(main).findByText('Old notes')).toBeTruthy()
  expect(within(main).queryByRole('list', { name: 'Search results' })).toBeNull()
})
