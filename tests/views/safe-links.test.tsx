/**
 * Links from Drive are data (D37): a non-https link never reaches an href or a window,
 * whatever the server sent.
 */
import { screen, waitFor, within } from '@testing-library/react'
import { afterEach, expect, test, vi } from 'vitest'
import { chatBackend, chatConversation, chatMessage, openChat, source } from './chat-fixtures.ts'
import { getFile, listFiles, report } from './drive-handlers.ts'
import { ada, server, signedIn } from './msw-server.ts'
import { renderApp } from './render-app.tsx'

afterEach(() => {
  vi.restoreAllMocks()
})

function fakeTab() {
  return { closed: false, opener: {} as unknown, location: { href: '' }, close: vi.fn() }
}

async function download(file: typeof report) {
  const tab = fakeTab()
  const open = vi.spyOn(window, 'open').mockReturnValue(tab as unknown as Window)
  const alert = vi.spyOn(window, 'alert').mockImplementation(() => {})
  server.use(signedIn(), listFiles([file]).handler, getFile([file]).handler)
  const app = renderApp('/dashboard')
  await screen.findByText(ada.email)
  const sidebar = screen.getByRole('navigation', { name: 'Dashboard sections' })
  await app.user.click(within(sidebar).getByRole('link', { name: 'Documents' }))
  // The Documents table's row for the file (a row is named by its cells, the name first).
  const row = await screen.findByRole('row', { name: new RegExp(`^${file.name.replace('.', '\\.')}`) })
  await app.user.click(within(row).getByRole('button', { name: 'Download' }))
  return { tab, open, alert }
}

test('a javascript: download link and a data: viewer link are never opened: the tab closes with the alert', async () => {
  const { tab, open, alert } = await download({
    ...report,
    webContentLink: 'javascript:alert(document.cookie)',
    webViewLink: 'data:text/html,<script>alert(1)</script>',
  })

  await waitFor(() => expect(alert).toHaveBeenCalledWith('Download link not available for this file'), {
    timeout: 5_000,
  })
  expect(tab.close).toHaveBeenCalled()
  expect(tab.location.href).toBe('')
  expect(open.mock.calls.every(([url]) => url === '')).toBe(true)
})

test('a non-https download link falls back to the https viewer page', async () => {
  const { tab } = await download({
    ...report,
    webContentLink: 'http://drive.example/plain-http',
    webViewLink: 'https://drive.example/file/d/report/view',
  })

  await waitFor(() => expect(tab.location.href).toBe('https://drive.example/file/d/report/view'), {
    timeout: 5_000,
  })
})

test('a source whose link is not https is shown as text, never as a link', async () => {
  const answer = chatMessage('a1', false, 'From your files.', {
    sources: [
      source({
        documentId: 'd1',
        documentName: 'plain.pdf',
        chunkId: 'c1',
        page: 1,
        link: 'http://drive.example/x',
      }),
      source({
        documentId: 'd2',
        documentName: 'data.pdf',
        chunkId: 'c2',
        page: 2,
        link: 'data:text/html,x',
      }),
      source({
        documentId: 'd3',
        documentName: 'vb.pdf',
        chunkId: 'c3',
        page: 3,
        link: ' javascript:alert(1)',
      }),
    ],
  })
  const backend = chatBackend({
    conversations: [chatConversation('s1')],
    messages: { s1: [chatMessage('u1', true, 'Q'), answer] },
  })
  const app = await openChat(backend)
  await app.goTo('Conversation History')
  await app.user.click(within(app.main).getByRole('button', { name: /Conversation s1/ }))
  await app.findExact('From your files.')

  expect(within(app.main).getByText('plain.pdf')).toBeTruthy()
  expect(within(app.main).getByText('data.pdf')).toBeTruthy()
  expect(within(app.main).getByText('vb.pdf')).toBeTruthy()
  // No link leaves the app: the only links are our own viewer's ("View in document").
  const links = within(app.main).queryAllByRole('link')
  expect(links.map((a) => a.getAttribute('href')?.startsWith('/dashboard/documents/'))).toEqual([
    true,
    true,
    true,
  ])
})
