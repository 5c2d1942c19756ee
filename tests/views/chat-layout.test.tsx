/** The chat-first layout (D86): "New chat" first in the sidebar, the conversations beside the chat. */
import { screen, within } from '@testing-library/react'
import { expect, test } from 'vitest'
import { answerTo, chatBackend, chatConversation, chatMessage, openChat } from './chat-fixtures.ts'

const recentBeside = () => within(screen.getByRole('region', { name: 'Recent Conversations' }))

test('the chat lists my recent conversations beside it and marks the open one', async () => {
  const backend = chatBackend({
    conversations: [
      chatConversation('a', { title: 'Budget talk' }),
      chatConversation('b', { title: 'Trip' }),
    ],
    messages: { b: [chatMessage('q', true, 'Where do we go?')] },
  })
  const { user, main, currentPath } = await openChat(backend)

  const links = recentBeside().getAllByRole('link')
  expect(links.map((link) => link.textContent)).toEqual([
    expect.stringContaining('Budget talk'),
    expect.stringContaining('Trip'),
  ])
  expect(links.every((link) => link.getAttribute('aria-current') === null)).toBe(true)

  await user.click(recentBeside().getByRole('link', { name: /Trip/ }))

  expect(await within(main).findByText('Where do we go?')).toBeTruthy()
  expect(currentPath()).toBe('/dashboard/c/b')
  expect(recentBeside().getByRole('link', { name: /Trip/ }).getAttribute('aria-current')).toBe('page')
  expect(
    recentBeside()
      .getByRole('link', { name: /Budget talk/ })
      .getAttribute('aria-current'),
  ).toBeNull()
})

test('"New chat" leaves the open conversation for a new chat, from the chat or another section', async () => {
  const backend = chatBackend({
    conversations: [chatConversation('a', { title: 'Budget talk' })],
    messages: { a: [chatMessage('q', true, 'What is the budget?')] },
  })
  const { user, main, goTo, currentPath } = await openChat(backend)
  await user.click(recentBeside().getByRole('link', { name: /Budget talk/ }))
  expect(await within(main).findByText('What is the budget?')).toBeTruthy()

  await user.click(screen.getByRole('link', { name: 'New chat' }))

  expect(await within(main).findByText('Start a conversation')).toBeTruthy()
  expect(currentPath()).toBe('/dashboard/chat')
  expect(
    recentBeside()
      .getByRole('link', { name: /Budget talk/ })
      .getAttribute('aria-current'),
  ).toBeNull()

  await goTo('Settings')
  await user.click(screen.getByRole('link', { name: 'New chat' }))
  expect(await within(main).findByText('Start a conversation')).toBeTruthy()
})

test('a conversation started in the chat joins the list beside it, marked as open', async () => {
  const { user, main, input } = await openChat(chatBackend())

  await user.type(input(), 'Hello there{Enter}')
  await within(main).findByText(answerTo('Hello there'))

  expect(
    recentBeside()
      .getByRole('link', { name: /Hello there/ })
      .getAttribute('aria-current'),
  ).toBe('page')
})

test('beside the chat at most 20 conversations show, with a link to all of them', async () => {
  const conversations = Array.from({ length: 23 }, (_, i) => chatConversation(`c${i}`))
  const { user } = await openChat(chatBackend({ conversations }))

  expect(recentBeside().getAllByRole('link', { name: /^Conversation c/ })).toHaveLength(20)
  await user.click(recentBeside().getByRole('link', { name: 'All conversations (23)' }))

  expect(await screen.findByRole('heading', { name: 'Conversation History', level: 1 })).toBeTruthy()
})
