import { screen, within } from '@testing-library/react'
import { afterEach, beforeEach, expect, test, vi } from 'vitest'
import { PHONE_QUERY } from '#src/components/ui/use-media-query.ts'
import { chatBackend, chatConversation, chatMessage } from './chat-fixtures.ts'
import { server, signedIn } from './msw-server.ts'
import { renderApp } from './render-app.tsx'

// A phone: the one media query the layout asks about matches (jsdom has no matchMedia of its own).
beforeEach(() => {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: query === PHONE_QUERY,
    media: query,
    addEventListener() {},
    removeEventListener() {},
  }))
})
afterEach(() => vi.unstubAllGlobals())

async function openBudgetTalk() {
  const backend = chatBackend({
    conversations: [chatConversation('s1', { title: 'Budget talk' })],
    messages: { s1: [chatMessage('m1', true, 'About the budget'), chatMessage('m2', false, 'It grew.')] },
  })
  server.use(signedIn(), ...backend.handlers)
  const app = renderApp('/dashboard/c/s1')
  // The dashboard chunk loads lazily: slow on a loaded machine.
  await screen.findByRole('heading', { name: 'Budget talk' }, { timeout: 15_000 })
  return { ...app, main: screen.getByRole('main') }
}

test('on a phone the conversation has one bar: its title and a menu, no row of buttons or scope line', async () => {
  const { user, main } = await openBudgetTalk()

  expect(within(main).queryByRole('button', { name: 'Rename' })).toBeNull()
  expect(within(main).queryByRole('button', { name: 'Export' })).toBeNull()
  expect(within(main).queryByRole('button', { name: 'Choose documents' })).toBeNull()
  expect(within(main).queryByText('Searching: all your documents')).toBeNull()

  await user.click(within(main).getByRole('button', { name: 'Conversation options' }))
  const menu = await screen.findByRole('menu')
  const items = within(menu)
    .getAllByRole('menuitem')
    .map((item) => item.textContent)
  expect(items).toEqual([
    'Rename',
    'Export as Markdown (.md)',
    'Export as PDF (.pdf)',
    'Share',
    'Choose documents',
  ])
  expect(within(menu).getByText('Searching: all your documents')).toBeTruthy()
})

test('on a phone Rename in the bar’s menu edits the title in place, the field focused', async () => {
  const { user, main } = await openBudgetTalk()

  await user.click(within(main).getByRole('button', { name: 'Conversation options' }))
  await user.click(await screen.findByRole('menuitem', { name: 'Rename' }))
  const field = await within(main).findByRole('textbox', { name: 'Conversation title' })
  expect(document.activeElement).toBe(field)
  await user.clear(field)
  await user.type(field, 'Budget 2027{Enter}')

  expect(await within(main).findByRole('heading', { name: 'Budget 2027' })).toBeTruthy()
})
