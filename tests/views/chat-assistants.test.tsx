import { screen, waitFor, within } from '@testing-library/react'
import { expect, test } from 'vitest'
import { CreateConversationRequestSchema, chatEndpoints } from '#contracts/chat.ts'
import { assistantFixture, assistantsBackend, HR_ID } from './assistants-handlers.ts'
import { chatBackend, chatConversation, chatMessage, openChat } from './chat-fixtures.ts'
import { server, urlOf } from './msw-server.ts'

const hr = { id: HR_ID, name: 'HR policies' }

test('the menu beside New chat offers the assistants and starts a chat with the one chosen', async () => {
  server.use(...assistantsBackend({ assistants: [assistantFixture()] }).handlers)
  const backend = chatBackend()
  const app = await openChat(backend, '/dashboard/history')
  const asked: unknown[] = []
  server.events.on('request:start', async ({ request }) => {
    if (request.method === 'POST' && request.url === urlOf(chatEndpoints.createConversation))
      asked.push(CreateConversationRequestSchema.parse(await request.clone().json()))
  })

  await app.user.click(screen.getByRole('button', { name: 'New chat with an assistant' }))
  await app.user.click(await screen.findByRole('menuitem', { name: 'HR policies' }))

  await waitFor(() => expect(app.currentPath()).toBe('/dashboard/chat'))
  expect(await within(app.main).findByText('Assistant: HR policies')).toBeTruthy()
  expect(screen.getByRole('link', { name: 'New chat' })).toBeTruthy()
  await app.user.type(app.input(), 'How many days off?{Enter}')
  await waitFor(() => expect(asked).toEqual([expect.objectContaining({ assistantId: HR_ID })]))
  server.events.removeAllListeners()
})

test('the chat header and History name the assistant, and say when it was deleted', async () => {
  const withHr = chatConversation('c-hr', { title: 'Days off', assistant: { ...hr, deleted: false } })
  const withGone = chatConversation('c-gone', {
    title: 'Old bot chat',
    assistant: { ...hr, name: 'Old bot', deleted: true },
  })
  const backend = chatBackend({
    conversations: [withHr, withGone],
    messages: { 'c-hr': [chatMessage('m1', true, 'Days off?')], 'c-gone': [] },
  })
  const app = await openChat(backend, '/dashboard/c/c-gone')

  expect(await within(app.main).findByText('Assistant: Old bot (deleted)')).toBeTruthy()

  await app.goTo('Conversation History')
  const history = within(app.main)
  expect(await history.findByText('Assistant: HR policies')).toBeTruthy()
  expect(history.getByText('Assistant: Old bot (deleted)')).toBeTruthy()
})

test('with no assistants, the menu leads to the Assistants section', async () => {
  server.use(...assistantsBackend().handlers)
  const app = await openChat(chatBackend(), '/dashboard/chat')

  await app.user.click(screen.getByRole('button', { name: 'New chat with an assistant' }))
  await app.user.click(await screen.findByRole('menuitem', { name: 'No assistants yet: build one' }))

  await waitFor(() => expect(app.currentPath()).toBe('/dashboard/assistants'))
})
