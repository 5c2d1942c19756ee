import { screen, waitFor, within } from '@testing-library/react'
import { http } from 'msw'
import { afterEach, expect, test, vi } from 'vitest'
import { DRIVE_CONNECTED_MESSAGE, driveEndpoints } from '#contracts/drive.ts'
import { filesResponse, listFiles, report } from './drive-handlers.ts'
import { ada, errorResponse, okResponse, server, signedIn, urlOf } from './msw-server.ts'
import { renderApp } from './render-app.tsx'

afterEach(() => {
  vi.restoreAllMocks()
})

const notConnected = () => errorResponse(400, 'Google Drive is not connected. Connect it under Integrations.')

async function openIntegrations(...handlers: Parameters<typeof server.use>) {
  server.use(signedIn(), ...handlers)
  const app = renderApp('/dashboard')
  await screen.findByText(ada.email)
  const sidebar = screen.getByRole('navigation', { name: 'Dashboard sections' })
  await app.user.click(within(sidebar).getByRole('link', { name: 'Integrations' }))
  return { ...app, main: screen.getByRole('main') }
}

function postToWindow(data: unknown, origin = window.location.origin) {
  window.dispatchEvent(new MessageEvent('message', { data, origin }))
}

test('shows Apps & Integrations with a Google Drive card offering Connect Now', async () => {
  const files = listFiles(notConnected)
  const { main } = await openIntegrations(files.handler)

  expect(within(main).getByRole('heading', { name: 'Apps & Integrations' })).toBeTruthy()
  expect(within(main).getByText('Give your Assistant access to your favorite apps')).toBeTruthy()
  expect(within(main).getByRole('heading', { name: 'Google Drive' })).toBeTruthy()
  expect(within(main).getByText('Chat with the documents in your Drive.')).toBeTruthy()
  await waitFor(() => expect(files.calls()).toBe(1))
  expect(within(main).getByRole('button', { name: 'Connect Now' })).toBeTruthy()
  expect(within(main).queryByRole('button', { name: 'Connected' })).toBeNull()
})

test('Connect Now opens the Google Drive connect page in a new window', async () => {
  const open = vi.spyOn(window, 'open').mockReturnValue(null)
  const { user, main } = await openIntegrations(listFiles(notConnected).handler)

  await user.click(within(main).getByRole('button', { name: 'Connect Now' }))

  expect(open).toHaveBeenCalledTimes(1)
  expect(open).toHaveBeenCalledWith(
    '/api/v1/google-drive/auth/google',
    'google-drive-connect',
    'popup,width=520,height=640',
  )
})

test('a successful drive check shows a disabled Connected button', async () => {
  const { main } = await openIntegrations(listFiles([report]).handler)

  const connected = await within(main).findByRole('button', { name: 'Connected' })
  expect((connected as HTMLButtonElement).disabled).toBe(true)
  expect(within(main).queryByRole('button', { name: 'Connect Now' })).toBeNull()
})

test("the connect window's message reloads the list and the card turns Connected", async () => {
  vi.spyOn(window, 'open').mockReturnValue(null)
  const files = listFiles((call) => (call === 1 ? notConnected() : filesResponse([report])))
  const { user, main } = await openIntegrations(files.handler)
  await waitFor(() => expect(files.calls()).toBe(1))
  await user.click(within(main).getByRole('button', { name: 'Connect Now' }))

  postToWindow(DRIVE_CONNECTED_MESSAGE)

  const connected = await within(main).findByRole('button', { name: 'Connected' })
  expect((connected as HTMLButtonElement).disabled).toBe(true)
  expect(files.calls()).toBe(2)
})

test('the same message from another origin changes nothing', async () => {
  const files = listFiles(notConnected)
  const { main } = await openIntegrations(files.handler)
  await waitFor(() => expect(files.calls()).toBe(1))

  postToWindow(DRIVE_CONNECTED_MESSAGE, 'https://evil.example')
  await new Promise((resolve) => setTimeout(resolve, 50))

  expect(files.calls()).toBe(1)
  expect(within(main).getByRole('button', { name: 'Connect Now' })).toBeTruthy()
})

test('the Drive state is shared: Documents lists the files Integrations found, and lists again', async () => {
  const files = listFiles([report])
  const { user, main } = await openIntegrations(files.handler)
  await within(main).findByRole('button', { name: 'Connected' })

  const sidebar = screen.getByRole('navigation', { name: 'Dashboard sections' })
  await user.click(within(sidebar).getByRole('link', { name: 'Documents' }))

  // The last list stays on screen while Documents refreshes it: no 'Loading documents...'.
  expect(
    within(main).getByRole('row', { name: new RegExp(`^${report.name.replace('.', '\\.')}`) }),
  ).toBeTruthy()
  expect(within(main).queryByText('Loading documents...')).toBeNull()
  await waitFor(() => expect(files.calls()).toBe(2))
})

test('Disconnect asks whether to keep the Drive documents, then disconnects and offers Connect Now', async () => {
  const files = listFiles((call) => (call === 1 ? filesResponse([report]) : notConnected()))
  const choices: unknown[] = []
  server.use(
    http.post(urlOf(driveEndpoints.disconnect), async ({ request }) => {
      choices.push(await request.json())
      return okResponse(driveEndpoints.disconnect, { success: true, data: { removedDocuments: 3 } })
    }),
  )
  const { user, main } = await openIntegrations(files.handler)
  await user.click(await within(main).findByRole('button', { name: 'Disconnect' }))
  const dialog = screen.getByRole('dialog', { name: 'Disconnect Google Drive' })
  expect(within(dialog).getByText(/Keep the documents that came from Google Drive/)).toBeTruthy()

  await user.click(within(dialog).getByRole('button', { name: 'Cancel' }))
  expect(screen.queryByRole('dialog')).toBeNull()
  expect(choices).toEqual([])

  await user.click(within(main).getByRole('button', { name: 'Disconnect' }))
  await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Remove documents' }))

  expect(await within(main).findByRole('button', { name: 'Connect Now' })).toBeTruthy()
  expect(screen.queryByRole('dialog')).toBeNull()
  expect(choices).toEqual([{ documents: 'remove' }])
})

test('on a server without Google Drive the card says so and offers no Connect Now', async () => {
  const files = listFiles(() => errorResponse(503, 'Google Drive is not configured on this server.'))
  const { main } = await openIntegrations(files.handler)

  expect(await within(main).findByText(/Google Drive is not set up on this server/)).toBeTruthy()
  expect(within(main).queryByRole('button', { name: 'Connect Now' })).toBeNull()
})
