import { screen, waitFor, within } from '@testing-library/react'
import { expect, test } from 'vitest'
import { authEndpoints } from '#contracts/auth.ts'
import { chatEndpoints } from '#contracts/chat.ts'
import { answerTo, chatBackend, chatConversation, chatMessage, openChat } from './chat-fixtures.ts'
import { listFiles } from './drive-handlers.ts'
import { ada, counted, errorResponse, fail, okResponse, server, signedIn } from './msw-server.ts'
import { renderApp } from './render-app.tsx'

const sidebar = () => screen.getByRole('navigation', { name: 'Dashboard sections' })
const sectionLink = (name: string) => within(sidebar()).getByRole('link', { name })

/** `session`: the answer to the session check (signed in by default). */
async function openAt(path: string, session = signedIn()) {
  server.use(session, listFiles([]).handler)
  const app = renderApp(path)
  await screen.findByText(ada.email, undefined, { timeout: 5000 })
  return app
}

test('each section has its own address, and the sidebar links to it', async () => {
  await openAt('/dashboard')

  expect(
    ['Chat with Docs', 'Documents', 'Integrations', 'Conversation History', 'Settings'].map((name) =>
      sectionLink(name).getAttribute('href'),
    ),
  ).toEqual([
    '/dashboard/chat',
    '/dashboard/docs',
    '/dashboard/integrations',
    '/dashboard/history',
    '/dashboard/settings',
  ])
  expect(
    within(screen.getByRole('banner')).getByRole('link', { name: 'Settings' }).getAttribute('href'),
  ).toBe('/dashboard/settings')
})

test.each([
  ['/dashboard/chat', 'Chat with Docs', 'Start a conversation'],
  ['/dashboard/docs', 'Documents', 'No documents found.'],
  ['/dashboard/integrations', 'Integrations', 'Apps & Integrations'],
  ['/dashboard/history', 'Conversation History', 'View and manage your previous conversations'],
  ['/dashboard/settings', 'Settings', 'Profile'],
])('%s opens on its section', async (path, label, text) => {
  const { currentPath } = await openAt(path)

  expect(await within(screen.getByRole('main')).findByText(text)).toBeTruthy()
  expect(sectionLink(label).getAttribute('aria-current')).toBe('page')
  expect(document.title).toBe(`${label} · DocChat`)
  expect(currentPath()).toBe(path)
})

test('following a section link adds a history entry; following it again does not', async () => {
  const { user, history } = await openAt('/dashboard')

  await user.click(sectionLink('Conversation History'))
  await user.click(sectionLink('Settings'))
  await user.click(sectionLink('Settings'))

  expect(await within(screen.getByRole('main')).findByText('Profile')).toBeTruthy()
  expect(history).toEqual(['/dashboard', '/dashboard/history', '/dashboard/settings'])
})

test('an address under /dashboard that names nothing opens the chat at /dashboard/chat', async () => {
  const { history } = await openAt('/dashboard/no-such-section')

  expect(await within(screen.getByRole('main')).findByText('Start a conversation')).toBeTruthy()
  expect(history).toEqual(['/dashboard/chat'])
})

test('the first message of a new chat gives the conversation its address, in place of the new chat', async () => {
  const backend = chatBackend()
  const { user, main, input, history } = await openChat(backend)

  await user.type(input(), 'What is in my report?{Enter}')

  expect(await within(main).findByText(answerTo('What is in my report?'))).toBeTruthy()
  await waitFor(() => expect(history).toEqual(['/dashboard/c/conversation-1']))
})

test('a first message that fails takes the address back to the new chat it came from', async () => {
  const backend = chatBackend()
  const { user, input, history } = await openChat(backend)
  server.use(fail(chatEndpoints.streamMessage, 502, 'The language model could not be reached.'))

  await user.type(input(), 'Will this be answered?{Enter}')

  await waitFor(() => expect(backend.calls.deleted).toEqual(['conversation-1']))
  await waitFor(() => expect(history).toEqual(['/dashboard']))
  expect(input().value).toBe('Will this be answered?')
})

test('opening a conversation from History goes to its address; Chat with Docs then goes to a new chat', async () => {
  const backend = chatBackend({
    conversations: [chatConversation('s1', { title: 'Budget talk' })],
    messages: { s1: [chatMessage('m1', true, 'About the budget'), chatMessage('m2', false, 'It grew.')] },
  })
  const { user, main, goTo, history } = await openChat(backend)

  await goTo('Conversation History')
  await user.click(await within(main).findByRole('button', { name: /Budget talk/ }))
  expect(await within(main).findByText('It grew.')).toBeTruthy()
  await goTo('Chat with Docs')

  expect(within(main).getByText('Start a conversation')).toBeTruthy()
  expect(history).toEqual(['/dashboard', '/dashboard/history', '/dashboard/c/s1', '/dashboard/chat'])
})

test('the session is checked again on every section change; one that ended sends me to /login', async () => {
  let sessionOpen = true
  const me = counted(authEndpoints.me, () =>
    sessionOpen
      ? okResponse(authEndpoints.me, { success: true, data: ada })
      : errorResponse(401, 'Not signed in'),
  )
  server.use(fail(authEndpoints.refreshToken, 401, 'Session expired'))
  const { user, currentPath } = await openAt('/dashboard', me.handler)
  const before = me.calls()

  await user.click(sectionLink('Documents'))
  await waitFor(() => expect(me.calls()).toBe(before + 1))
  sessionOpen = false
  await user.click(sectionLink('Settings'))

  expect(await screen.findByRole('heading', { name: 'Welcome Back' })).toBeTruthy()
  expect(currentPath()).toBe('/login')
})
