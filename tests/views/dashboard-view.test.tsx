import { screen, waitFor, within } from '@testing-library/react'
import { expect, test } from 'vitest'
import { authEndpoints } from '#contracts/auth.ts'
import { listFiles } from './drive-handlers.ts'
import { ada, errorResponse, fail, held, server, signedIn } from './msw-server.ts'
import { renderApp } from './render-app.tsx'

async function openDashboard() {
  server.use(signedIn())
  const app = renderApp('/dashboard')
  await screen.findByText(ada.email)
  const header = screen.getByRole('banner')
  const sidebar = screen.getByRole('navigation', { name: 'Dashboard sections' })
  const main = screen.getByRole('main')
  return { ...app, header, sidebar, main }
}

test('the header shows the logo, my email, Settings and Logout', async () => {
  const { header } = await openDashboard()

  expect(within(header).getByText('DocChat')).toBeTruthy()
  expect(within(header).getByText(ada.email)).toBeTruthy()
  expect(within(header).getByRole('link', { name: 'Settings' })).toBeTruthy()
  expect(within(header).getByRole('button', { name: 'Logout' })).toBeTruthy()
})

test('the header says "User" when my email is unknown', async () => {
  server.use(signedIn({ ...ada, email: '' }))
  renderApp('/dashboard')

  expect(await within(await screen.findByRole('banner')).findByText('User')).toBeTruthy()
})

test("the sidebar lists the spec's five sections with Assistants (issue 36) and opens on Chat with Docs", async () => {
  const { sidebar, main } = await openDashboard()

  const labels = within(sidebar)
    .getAllByRole('link')
    .map((link) => link.textContent)
  expect(labels).toEqual([
    'Chat with Docs',
    'Documents',
    'Assistants',
    'Integrations',
    'Conversation History',
    'Settings',
  ])
  expect(within(sidebar).getByRole('link', { name: 'Chat with Docs' }).getAttribute('aria-current')).toBe(
    'page',
  )
  expect(within(main).getByText('Start a conversation')).toBeTruthy()
  expect(
    within(main).getByText(
      "Ask questions about your documents or start a general conversation. I'm here to help!",
    ),
  ).toBeTruthy()
  expect(within(main).getByPlaceholderText('Type your message...')).toBeTruthy()
  expect(within(main).getByText('Press Enter to send, Shift + Enter for new line')).toBeTruthy()
})

test('Conversation History shows its empty state and the recent conversations panel', async () => {
  const { user, sidebar, main } = await openDashboard()

  await user.click(within(sidebar).getByRole('link', { name: 'Conversation History' }))

  expect(
    within(sidebar).getByRole('link', { name: 'Conversation History' }).getAttribute('aria-current'),
  ).toBe('page')
  expect(within(main).getByRole('heading', { name: 'Conversation History' })).toBeTruthy()
  expect(within(main).getByText('View and manage your previous conversations')).toBeTruthy()
  expect(await within(main).findByText('No conversations yet')).toBeTruthy()
  expect(within(main).getByText('Start chatting to see your conversation history here.')).toBeTruthy()
  expect(screen.getByRole('heading', { name: 'Recent Conversations' })).toBeTruthy()
})

test('Documents shows its heading, the empty list and the Document Library card', async () => {
  server.use(listFiles([]).handler)
  const { user, sidebar, main } = await openDashboard()

  await user.click(within(sidebar).getByRole('link', { name: 'Documents' }))

  expect(within(main).getByRole('heading', { name: 'Documents' })).toBeTruthy()
  expect(await within(main).findByText('No documents found.')).toBeTruthy()
  expect(screen.getByRole('heading', { name: 'Document Library' })).toBeTruthy()
  expect(screen.getByRole('button', { name: 'Upload Document' })).toBeTruthy()
})

test('Integrations offers Google Drive', async () => {
  // Not connected yet: the card keeps offering 'Connect Now'.
  const files = listFiles(() => errorResponse(400, 'Google Drive is not connected'))
  server.use(files.handler)
  const { user, sidebar, main } = await openDashboard()

  await user.click(within(sidebar).getByRole('link', { name: 'Integrations' }))

  expect(within(main).getByRole('heading', { name: 'Apps & Integrations' })).toBeTruthy()
  expect(within(main).getByText('Give your Assistant access to your favorite apps')).toBeTruthy()
  expect(within(main).getByRole('heading', { name: 'Google Drive' })).toBeTruthy()
  await waitFor(() => expect(files.calls()).toBe(1))
  expect(within(main).getByRole('button', { name: 'Connect Now' })).toBeTruthy()
  expect(screen.getByRole('button', { name: 'Google Drive' })).toBeTruthy()
})

test('the settings button opens Settings with my read-only email and a Display Name field', async () => {
  const { user, header, sidebar, main } = await openDashboard()

  await user.click(within(header).getByRole('link', { name: 'Settings' }))

  expect(within(sidebar).getByRole('link', { name: 'Settings' }).getAttribute('aria-current')).toBe('page')
  expect(within(main).getByRole('heading', { name: 'Profile' })).toBeTruthy()
  const email = within(main).getByLabelText('Email') as HTMLInputElement
  expect(email.value).toBe(ada.email)
  expect(email.readOnly).toBe(true)
  const displayName = within(main).getByLabelText('Display Name') as HTMLInputElement
  await user.type(displayName, 'Ada')
  expect(displayName.value).toBe('Ada')
  expect(within(main).queryByRole('button', { name: /save/i })).toBeNull()
  for (const item of ['Account Settings', 'Preferences', 'Privacy']) {
    expect(screen.getByText(item)).toBeTruthy()
  }
})

test('Logout signs me out and goes to /login', async () => {
  const logout = held(authEndpoints.logout, { success: true, data: null })
  server.use(logout.handler)
  const { user, header, currentPath } = await openDashboard()

  await user.click(within(header).getByRole('button', { name: 'Logout' }))
  logout.release()

  expect(await screen.findByRole('heading', { name: 'Welcome Back' })).toBeTruthy()
  expect(currentPath()).toBe('/login')
})

test('a failed logout is only logged: I stay on the dashboard', async () => {
  server.use(fail(authEndpoints.logout, 500, 'Internal error'))
  const { user, header, log, currentPath } = await openDashboard()

  await user.click(within(header).getByRole('button', { name: 'Logout' }))

  await waitFor(() => expect(log.error).toHaveBeenCalled())
  expect(within(header).getByRole('button', { name: 'Logout' })).toBeTruthy()
  expect(screen.getByText(ada.email)).toBeTruthy()
  expect(currentPath()).toBe('/dashboard')
})

test('the first Tab stop skips to the conversation, which has one heading and names the tab', async () => {
  const { user, main } = await openDashboard()
  const skip = screen.getByRole('link', { name: 'Skip to conversation' })
  // The composer takes the focus when the chat opens; start from the top of the page instead.
  ;(document.activeElement as HTMLElement | null)?.blur()

  await user.tab()
  expect(document.activeElement).toBe(skip)
  await user.keyboard('{Enter}')

  expect(document.activeElement).toBe(main)
  expect(screen.getAllByRole('heading', { level: 1 }).map((h) => h.textContent)).toEqual(['Chat with Docs'])
  expect(document.title).toBe('Chat with Docs · DocChat')
})

test('every section has one h1 and its own document title', async () => {
  server.use(listFiles([]).handler)
  const { user, sidebar } = await openDashboard()

  for (const [label, heading] of [
    ['Documents', 'Documents'],
    ['Integrations', 'Apps & Integrations'],
    ['Conversation History', 'Conversation History'],
    ['Settings', 'Settings'],
  ] as const) {
    await user.click(within(sidebar).getByRole('link', { name: label }))
    await waitFor(() => expect(document.title).toBe(`${label} · DocChat`))
    expect(screen.getAllByRole('heading', { level: 1 }).map((h) => h.textContent)).toEqual([heading])
  }
})

test('on a phone the sections and their extras are a drawer behind "Menu": a link, Escape or Close shuts it', async () => {
  server.use(listFiles([]).handler)
  const { user } = await openDashboard()
  const menu = screen.getByRole('button', { name: 'Menu' })
  const drawer = () => document.getElementById(menu.getAttribute('aria-controls') ?? '')
  expect(menu.getAttribute('aria-expanded')).toBe('false')
  expect(drawer()?.hasAttribute('data-open')).toBe(false)

  await user.click(menu)

  expect(menu.getAttribute('aria-expanded')).toBe('true')
  expect(drawer()?.hasAttribute('data-open')).toBe(true)
  // The focus moves into it: its first section.
  await waitFor(() => expect(document.activeElement?.textContent).toBe('Chat with Docs'))
  await user.keyboard('{Escape}')
  expect(menu.getAttribute('aria-expanded')).toBe('false')
  expect(document.activeElement).toBe(menu)

  await user.click(menu)
  await user.click(within(drawer() as HTMLElement).getByRole('link', { name: 'Integrations' }))
  expect(menu.getAttribute('aria-expanded')).toBe('false')
  expect(await screen.findByRole('heading', { name: 'Apps & Integrations' })).toBeTruthy()
  // The section's extras are in the drawer too.
  await user.click(menu)
  expect(within(drawer() as HTMLElement).getByRole('button', { name: 'Google Drive' })).toBeTruthy()
  await user.click(within(drawer() as HTMLElement).getByRole('button', { name: 'Close' }))
  expect(menu.getAttribute('aria-expanded')).toBe('false')
  expect(document.activeElement).toBe(menu)
})
