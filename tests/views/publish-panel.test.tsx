import { screen, waitFor, within } from '@testing-library/react'
import { expect, test } from 'vitest'
import { assistantFixture, assistantsBackend, HR_ID } from './assistants-handlers.ts'
import { chatBackend, openChat } from './chat-fixtures.ts'
import { server } from './msw-server.ts'

async function openPublish(backend = assistantsBackend({ assistants: [assistantFixture()] })) {
  server.use(...backend.handlers)
  const app = await openChat(chatBackend(), `/dashboard/assistants/${HR_ID}`)
  const panel = within(await screen.findByRole('region', { name: 'Publish' }))
  return { ...app, backend, panel }
}

test('publishing is saved with the PATCH, and an empty list of sites says the widget works nowhere', async () => {
  const { user, backend, panel } = await openPublish()
  expect(panel.getByText('The widget works on no website; only the public page.')).toBeTruthy()

  await user.click(panel.getByRole('checkbox', { name: /^Published/ }))
  await user.click(panel.getByRole('checkbox', { name: /^Allow search engines/ }))
  await user.click(panel.getByRole('button', { name: 'Add a site' }))
  await user.type(panel.getByRole('textbox', { name: 'Allowed site 1' }), 'https://intranet.example.com')
  await user.clear(panel.getByRole('textbox', { name: 'Answers a visitor an hour' }))
  await user.type(panel.getByRole('textbox', { name: 'Answers a visitor an hour' }), '5')
  await user.click(panel.getByRole('button', { name: 'Save publishing' }))

  // What was saved draws the panel afresh: it is looked up again.
  expect(await screen.findByText('Publishing saved.')).toBeTruthy()
  expect(backend.calls.updated).toEqual([
    expect.objectContaining({
      published: true,
      allowIndexing: true,
      allowedOrigins: ['https://intranet.example.com'],
      budgets: expect.objectContaining({ visitorAnswersPerHour: 5 }),
    }),
  ])
  const after = within(screen.getByRole('region', { name: 'Publish' }))
  expect(after.queryByText('The widget works on no website; only the public page.')).toBeNull()
  expect(after.getByText(/data-assistant="pub-hr-7Qx"/)).toBeTruthy()
})

test('hiding unverified sentences is off until ticked, then saved with the PATCH and shown ticked', async () => {
  const { user, backend, panel } = await openPublish()
  const hide = panel.getByRole('checkbox', {
    name: /^Hide sentences the check could not find in the documents/,
  })
  expect((hide as HTMLInputElement).checked).toBe(false)

  await user.click(hide)
  await user.click(panel.getByRole('button', { name: 'Save publishing' }))

  expect(await screen.findByText('Publishing saved.')).toBeTruthy()
  expect(backend.calls.updated).toEqual([expect.objectContaining({ hideUnverified: true })])
  const after = within(screen.getByRole('region', { name: 'Publish' }))
  const saved = after.getByRole('checkbox', { name: /^Hide sentences the check could not find/ })
  expect((saved as HTMLInputElement).checked).toBe(true)
})

test("an allowed site that is not an origin says the contract's sentence, and nothing is saved", async () => {
  const { user, backend, panel } = await openPublish()

  await user.click(panel.getByRole('button', { name: 'Add a site' }))
  await user.type(panel.getByRole('textbox', { name: 'Allowed site 1' }), 'https://example.com/help')
  await user.click(panel.getByRole('button', { name: 'Save publishing' }))

  expect(
    await panel.findByText(
      'An allowed site must be an origin such as https://www.example.com or https://*.example.com (no path)',
    ),
  ).toBeTruthy()
  expect(backend.calls.updated).toEqual([])
})

test('a published assistant shows its snippets with its public id, and Copy copies them', async () => {
  const published = assistantFixture({ published: true, publicId: 'pub-hr-7Qx' })
  const { user, panel } = await openPublish(assistantsBackend({ assistants: [published] }))
  const origin = window.location.origin

  expect(panel.getByRole('link', { name: `${origin}/a/pub-hr-7Qx` })).toBeTruthy()
  const script = `<script src="${origin}/embed.js" data-assistant="pub-hr-7Qx" async></script>`
  expect(panel.getByText(script)).toBeTruthy()
  expect(panel.getByText(/<iframe src=".*\/embed\/pub-hr-7Qx"/)).toBeTruthy()
  expect(panel.getByRole('link', { name: 'Preview the widget' }).getAttribute('href')).toBe(
    `${origin}/embed/pub-hr-7Qx`,
  )

  await user.click(panel.getByRole('button', { name: 'Copy the embed script' }))

  expect(await panel.findByText('Copied')).toBeTruthy()
  expect(await navigator.clipboard.readText()).toBe(script)
})

test('the identity secret is shown once, in a dialog, and rotating it is asked first', async () => {
  const { user, backend, panel } = await openPublish()

  await user.click(panel.getByRole('button', { name: 'Make a secret' }))
  const dialog = within(await screen.findByRole('dialog', { name: 'The identity secret' }))
  expect(dialog.getByText('secret-1')).toBeTruthy()
  expect(dialog.getByText(/it is shown only this once/)).toBeTruthy()
  expect(dialog.getByText(/algorithm: 'HS256'/)).toBeTruthy()
  await user.click(dialog.getByRole('button', { name: 'Done' }))
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
  expect(screen.queryByText('secret-1')).toBeNull()

  await user.click(panel.getByRole('button', { name: 'Rotate the secret' }))
  const ask = within(await screen.findByRole('dialog', { name: 'Rotate the secret?' }))
  expect(ask.getByText(/The old secret stops working at once/)).toBeTruthy()
  await user.click(ask.getByRole('button', { name: 'Rotate' }))

  expect(await screen.findByText('secret-2')).toBeTruthy()
  expect(backend.calls.secrets).toEqual(['secret-1', 'secret-2'])
})
