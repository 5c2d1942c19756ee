import { screen, waitFor, within } from '@testing-library/react'
import { expect, test } from 'vitest'
import { assistantFixture, assistantsBackend, HR_ID } from './assistants-handlers.ts'
import { chatBackend, openChat } from './chat-fixtures.ts'
import { server } from './msw-server.ts'

async function openAssistants(
  path: string,
  backend = assistantsBackend({ assistants: [assistantFixture()] }),
) {
  server.use(...backend.handlers)
  const app = await openChat(chatBackend(), path)
  return { ...app, backend }
}

test('the Assistants section shows one card per assistant, and New assistant opens the new one', async () => {
  const { user, backend, currentPath } = await openAssistants('/dashboard/assistants')

  const card = await screen.findByRole('link', { name: /HR policies/ })
  expect(within(card).getByText('Answers from the HR folder')).toBeTruthy()
  expect(within(card).getByText('0 documents · 1 Drive folder · Only from its documents')).toBeTruthy()

  await user.click(screen.getByRole('button', { name: 'New assistant' }))

  await waitFor(() => expect(currentPath()).toMatch(/^\/dashboard\/assistants\/00000000-/))
  expect(backend.calls.created).toEqual(['New assistant'])
  expect(await screen.findByRole('heading', { name: 'New assistant', level: 1 })).toBeTruthy()
})

test("the editor says what is wrong in the contract's words and saves nothing", async () => {
  const { user, backend } = await openAssistants(`/dashboard/assistants/${HR_ID}`)
  const name = await screen.findByRole('textbox', { name: 'Name' })

  await user.clear(name)
  await user.clear(screen.getByRole('textbox', { name: 'Temperature (0 to 2)' }))
  await user.type(screen.getByRole('textbox', { name: 'Temperature (0 to 2)' }), '3')
  await user.click(screen.getByRole('button', { name: 'Save' }))

  expect(await screen.findByText('Name is required')).toBeTruthy()
  expect(screen.getByText('Temperature must be between 0 and 2')).toBeTruthy()
  expect(backend.calls.updated).toEqual([])
})

test('Save sends every field; Try it then answers as saved', async () => {
  const { user, backend } = await openAssistants(`/dashboard/assistants/${HR_ID}`)
  const name = await screen.findByRole('textbox', { name: 'Name' })

  await user.type(name, ' bot')
  expect(await screen.findByText(/Save to try your changes/)).toBeTruthy()
  await user.click(screen.getByRole('radio', { name: /Its documents first/ }))
  await user.click(screen.getByRole('button', { name: 'Save' }))

  expect(await screen.findByText('Saved.')).toBeTruthy()
  expect(backend.calls.updated).toEqual([
    expect.objectContaining({ name: 'HR policies bot', answerPolicy: 'documents-first', temperature: null }),
  ])
  expect(screen.queryByText(/Save to try your changes/)).toBeNull()
  expect(screen.getByRole('button', { name: 'How many days off do I get?' })).toBeTruthy()
})

test('Delete asks first, says its conversations stay, and goes back to the list', async () => {
  const { user, backend, currentPath } = await openAssistants(`/dashboard/assistants/${HR_ID}`)
  await screen.findByRole('textbox', { name: 'Name' })

  await user.click(screen.getByRole('button', { name: 'Delete' }))
  const dialog = await screen.findByRole('dialog', { name: 'Delete “HR policies”?' })
  expect(within(dialog).getByText(/Its conversations stay in your history/)).toBeTruthy()
  await user.click(within(dialog).getByRole('button', { name: 'Cancel' }))
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
  expect(backend.calls.deleted).toEqual([])

  await user.click(screen.getByRole('button', { name: 'Delete' }))
  await user.click(
    within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete assistant' }),
  )

  await waitFor(() => expect(currentPath()).toBe('/dashboard/assistants'))
  expect(backend.calls.deleted).toEqual([HR_ID])
})

test('a chosen Drive folder that is gone from Drive says that part of the knowledge is empty', async () => {
  const gone = assistantFixture({
    knowledge: {
      documentIds: [],
      folderIds: ['folder-hr'],
      documents: [],
      folders: [{ id: 'folder-hr', name: 'HR', missing: true, documentCount: 0 }],
    },
  })
  await openAssistants(`/dashboard/assistants/${HR_ID}`, assistantsBackend({ assistants: [gone] }))

  expect(
    await screen.findByText(
      /The folder “HR” is gone from your Google Drive, so this part of the knowledge is empty/,
    ),
  ).toBeTruthy()
})

test('on a server without Google Drive the knowledge picker offers documents only, never Drive folders', async () => {
  const documentsOnly = assistantFixture({
    knowledge: { documentIds: [], folderIds: [], documents: [], folders: [] },
  })
  await openAssistants(
    `/dashboard/assistants/${HR_ID}`,
    assistantsBackend({ assistants: [documentsOnly], folders: 'no-drive' }),
  )

  expect(await screen.findByRole('heading', { name: /^Documents/ })).toBeTruthy()
  expect(screen.queryByRole('heading', { name: /Google Drive folders/ })).toBeNull()
  expect(screen.queryByText(/Connect Google Drive/)).toBeNull()
})

test('a starter question asks it in Try it, and the answer stays through a Save', async () => {
  const { user } = await openAssistants(`/dashboard/assistants/${HR_ID}`)
  const tryIt = within(await screen.findByRole('complementary', { name: 'Try it' }))

  await user.click(await tryIt.findByRole('button', { name: 'How many days off do I get?' }))
  expect(await tryIt.findByText('You asked: How many days off do I get?')).toBeTruthy()

  await user.type(screen.getByRole('textbox', { name: 'Description' }), '.')
  await user.click(screen.getByRole('button', { name: 'Save' }))
  expect(await screen.findByText('Saved.')).toBeTruthy()

  const after = within(screen.getByRole('complementary', { name: 'Try it' }))
  expect(after.getByText('You asked: How many days off do I get?')).toBeTruthy()
})
