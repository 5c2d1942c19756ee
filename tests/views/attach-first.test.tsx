/** Attach before the first message (D88): the file waits in the composer and goes with the first message. */
import { screen, waitFor, within } from '@testing-library/react'
import { expect, test } from 'vitest'
// The views' default server has no Google (msw-server.ts), so the dialog explains 'Upload' alone.
import { UPLOAD_EXPLANATIONS_WITHOUT_DRIVE } from '#src/features/chat/use-upload.ts'
import {
  answerTo,
  chatBackend,
  chatConversation,
  chatMessage,
  libraryFile,
  openChat,
} from './chat-fixtures.ts'

function textFile(name: string, size = 20 * 1024): File {
  const file = new File(['x'], name, { type: 'text/plain' })
  Object.defineProperty(file, 'size', { value: size })
  return file
}

async function attachInNewChat(backend = chatBackend()) {
  const app = await openChat(backend)
  await app.user.click(within(app.main).getByRole('button', { name: 'Attach file' }))
  const dialog = screen.getByRole('dialog', { name: 'Upload File' })
  expect(within(dialog).getByText(UPLOAD_EXPLANATIONS_WITHOUT_DRIVE.newChat)).toBeTruthy()
  await app.user.upload(within(dialog).getByLabelText('File to upload'), textFile('harbour.txt'))
  await app.user.click(within(dialog).getByRole('button', { name: 'Upload' }))
  return { ...app, backend }
}

test('in a new chat the chosen file becomes a chip in the composer; nothing is uploaded yet', async () => {
  const { main, backend } = await attachInNewChat()

  expect(screen.queryByRole('dialog')).toBeNull()
  expect(within(main).getByText('harbour.txt')).toBeTruthy()
  expect(within(main).getByRole('button', { name: 'Remove harbour.txt' })).toBeTruthy()
  expect(backend.calls.order).toEqual([])
})

test('the first message creates the conversation, the file goes into it, then the message is sent', async () => {
  const backend = chatBackend()
  backend.uploadsAs('harbour.txt')
  const { user, main, input, currentPath } = await attachInNewChat(backend)

  await user.type(input(), 'What is the buoy code?{Enter}')

  expect(await within(main).findByText(answerTo('What is the buoy code?'))).toBeTruthy()
  expect(backend.calls.order).toEqual(['create', 'upload', 'send'])
  expect(backend.calls.uploaded).toEqual(['conversation-1'])
  const files = within(main).getByRole('list', { name: 'Files in this conversation' })
  expect(within(files).getByText('harbour.txt')).toBeTruthy()
  expect(within(main).queryByRole('button', { name: 'Remove harbour.txt' })).toBeNull()
  expect(currentPath()).toBe('/dashboard/c/conversation-1')
})

test('Remove takes the file back out: the first message goes alone', async () => {
  const { user, main, input, backend } = await attachInNewChat()

  await user.click(within(main).getByRole('button', { name: 'Remove harbour.txt' }))
  await user.type(input(), 'Hello{Enter}')

  expect(await within(main).findByText(answerTo('Hello'))).toBeTruthy()
  expect(backend.calls.order).toEqual(['create', 'send'])
})

test('a refused file gives the message back, keeps the chip with the reason and leaves no conversation', async () => {
  const backend = chatBackend()
  backend.failUploads({ status: 400, message: 'File size must be at least 10KB.' })
  const { user, main, input } = await attachInNewChat(backend)

  await user.type(input(), 'What is the buoy code?{Enter}')

  expect((await within(main).findByRole('alert')).textContent).toBe('File size must be at least 10KB.')
  await waitFor(() => expect(input().value).toBe('What is the buoy code?'))
  expect(within(main).getByText('harbour.txt')).toBeTruthy()
  await waitFor(() => expect(backend.calls.deleted).toEqual(['conversation-1']))
  expect(backend.calls.sent).toEqual([])
})

test('an open conversation shows its files, and an upload into it joins them', async () => {
  const backend = chatBackend({
    conversations: [chatConversation('s1')],
    messages: { s1: [chatMessage('q1', true, 'Hi')] },
    files: { s1: [libraryFile({ id: 'f1', name: 'older.pdf' })] },
  })
  backend.uploadsAs('newer.txt')
  const { user, main } = await openChat(backend)
  await user.click(within(screen.getByRole('region', { name: 'Recent Conversations' })).getByRole('link'))
  const files = await within(main).findByRole('list', { name: 'Files in this conversation' })
  expect(within(files).getByText('older.pdf')).toBeTruthy()

  await user.click(within(main).getByRole('button', { name: 'Attach file' }))
  const dialog = screen.getByRole('dialog', { name: 'Upload File' })
  expect(within(dialog).getByText(UPLOAD_EXPLANATIONS_WITHOUT_DRIVE.conversation)).toBeTruthy()
  await user.upload(within(dialog).getByLabelText('File to upload'), textFile('newer.txt'))
  await user.click(within(dialog).getByRole('button', { name: 'Upload' }))

  expect(await within(files).findByText('newer.txt')).toBeTruthy()
  expect(backend.calls.uploaded).toEqual(['s1'])
})
