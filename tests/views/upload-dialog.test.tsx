import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { HttpResponse, http } from 'msw'
import { expect, test } from 'vitest'
import { authEndpoints } from '#contracts/auth.ts'
import { type DriveUpload, driveEndpoints } from '#contracts/drive.ts'
import { UPLOAD_MAX_BYTES, UPLOAD_MIN_BYTES } from '#machines/upload/upload-rules.ts'
import { chatBackend, openChat } from './chat-fixtures.ts'
import { fail, ok, server, urlOf } from './msw-server.ts'

/** A file that reports `size` bytes without allocating them. */
function fileOf(name: string, type: string, size: number): File {
  const file = new File(['x'], name, { type })
  Object.defineProperty(file, 'size', { value: size })
  return file
}

const goodPdf = () => fileOf('report.pdf', 'application/pdf', 200 * 1024)

/** The dialog on a server with Google Drive (the views' default server has none). */
async function openUpload({ google = true } = {}) {
  server.use(
    ok(authEndpoints.options, {
      success: true,
      data: { google, passwordReset: true, signup: 'open', emailVerification: false },
    }),
  )
  const app = await openChat(chatBackend())
  const attach = within(app.main).getByRole('button', { name: 'Attach file' })
  await app.user.click(attach)
  const dialog = screen.getByRole('dialog', { name: 'Upload File' })
  const picker = within(dialog).getByLabelText('File to upload') as HTMLInputElement
  const button = (name: string) => within(dialog).getByRole('button', { name }) as HTMLButtonElement
  return { ...app, attach, dialog, picker, button }
}

test('on a server without Google Drive the dialog offers Upload alone, and never mentions Drive', async () => {
  const { dialog, button } = await openUpload({ google: false })

  expect(button('Upload').disabled).toBe(true)
  await waitFor(() => expect(within(dialog).queryByRole('button', { name: 'Upload to Drive' })).toBeNull())
  expect(within(dialog).queryByText(/Drive/)).toBeNull()
})

test('the paperclip opens the Upload File dialog with the rules, focus inside it', async () => {
  const { dialog, picker, button } = await openUpload()

  expect(dialog.getAttribute('aria-modal')).toBe('true')
  expect(dialog.contains(document.activeElement)).toBe(true)
  expect(within(dialog).getByText('Allowed types: PDF and Text')).toBeTruthy()
  expect(within(dialog).getByText('Minimum size: 10KB')).toBeTruthy()
  expect(within(dialog).getByText('Maximum size: 5MB')).toBeTruthy()
  expect(button('Browse File')).toBeTruthy()
  expect(picker.accept).toBe('.pdf,.txt,application/pdf,text/plain')
  expect(button('Upload to Drive').disabled).toBe(true)
  expect(button('Upload').disabled).toBe(true)
})

test('a valid file is named and enables both buttons', async () => {
  const { user, dialog, picker, button } = await openUpload()

  await user.upload(picker, goodPdf())

  expect(within(dialog).getByText('report.pdf')).toBeTruthy()
  expect(within(dialog).queryByRole('alert')).toBeNull()
  expect(button('Upload to Drive').disabled).toBe(false)
  expect(button('Upload').disabled).toBe(false)
})

test.each([
  ['a dropped image', fileOf('photo.png', 'image/png', 200 * 1024), 'Only PDF and Text files are allowed.'],
  [
    'a file under 10KB',
    fileOf('tiny.txt', 'text/plain', UPLOAD_MIN_BYTES - 1),
    'File size must be at least 10KB.',
  ],
  [
    'a file over 5MB',
    fileOf('huge.pdf', 'application/pdf', UPLOAD_MAX_BYTES + 1),
    'File size must not exceed 5MB.',
  ],
])('%s is refused with its reason and the buttons stay disabled', async (_, file, message) => {
  const { dialog, button } = await openUpload()

  // Dropping skips the picker's accept filter, which is why the dialog checks the type itself.
  fireEvent.drop(within(dialog).getByTestId('drop-zone'), { dataTransfer: { files: [file] } })

  expect((await within(dialog).findByRole('alert')).textContent).toBe(message)
  expect(within(dialog).getByText(file.name)).toBeTruthy()
  expect(button('Upload to Drive').disabled).toBe(true)
  expect(button('Upload').disabled).toBe(true)
})

test('a good file after a bad one clears the message', async () => {
  const { user, dialog, picker, button } = await openUpload()
  fireEvent.drop(within(dialog).getByTestId('drop-zone'), {
    dataTransfer: { files: [fileOf('a.png', 'image/png', 20_000)] },
  })

  await user.upload(picker, goodPdf())

  expect(within(dialog).queryByRole('alert')).toBeNull()
  expect(button('Upload').disabled).toBe(false)
})

const driveUpload = (message: string): DriveUpload => ({
  file: {
    id: '1AbCdEfGhIjKlMnOpQrStUvWxYz012345',
    name: 'report.pdf',
    mimeType: 'application/pdf',
    modifiedTime: '2026-11-22T10:00:00.000Z',
    webContentLink: null,
    webViewLink: 'https://drive.google.com/file/d/1AbCdEfGhIjKlMnOpQrStUvWxYz012345/view',
  },
  document: null,
  message,
})

test("'Upload to Drive' sends the file to Drive and shows where it stands; the dialog stays open", async () => {
  const received: (string | undefined)[] = []
  const message = 'report.pdf is in your Google Drive and in your library.'
  server.use(
    http.post(urlOf(driveEndpoints.uploadFile), async ({ request }) => {
      // The body itself cannot be read back here (jsdom's File in Node's fetch): its type says multipart.
      received.push(request.headers.get('content-type')?.split(';')[0])
      return HttpResponse.json(
        driveEndpoints.uploadFile.response.parse({ success: true, data: driveUpload(message) }),
        {
          status: 201,
        },
      )
    }),
  )
  const { user, dialog, picker, button } = await openUpload()
  await user.upload(picker, goodPdf())

  await user.click(button('Upload to Drive'))

  expect((await within(dialog).findByRole('status')).textContent).toBe(message)
  expect(received).toEqual(['multipart/form-data'])
  expect(within(dialog).queryByRole('alert')).toBeNull()
  // Sent once: another click would add a second copy to Drive.
  expect(button('Upload to Drive').disabled).toBe(true)
  expect(button('Upload').disabled).toBe(true)
})

test("a refused 'Upload to Drive' shows the server's sentence and lets the person try again", async () => {
  const notConnected = 'Google Drive is not connected. Connect it under Integrations.'
  server.use(fail(driveEndpoints.uploadFile, 409, notConnected))
  const { user, dialog, picker, button } = await openUpload()
  await user.upload(picker, goodPdf())

  await user.click(button('Upload to Drive'))

  expect((await within(dialog).findByRole('alert')).textContent).toBe(notConnected)
  expect(within(dialog).queryByRole('status')).toBeNull()
  expect(button('Upload to Drive').disabled).toBe(false)
})

test('Escape closes the dialog, gives focus back to the paperclip and forgets the file', async () => {
  const { user, attach, picker } = await openUpload()
  await user.upload(picker, goodPdf())

  await user.keyboard('{Escape}')

  expect(screen.queryByRole('dialog')).toBeNull()
  expect(document.activeElement).toBe(attach)
  await user.click(attach)
  expect(within(screen.getByRole('dialog')).queryByText('report.pdf')).toBeNull()
})

test('Close closes the dialog', async () => {
  const { user, button } = await openUpload()

  await user.click(button('Close'))

  expect(screen.queryByRole('dialog')).toBeNull()
})

test('Tab stays inside the dialog', async () => {
  const { user, dialog } = await openUpload()

  for (let i = 0; i < 6; i++) {
    await user.tab()
    expect(dialog.contains(document.activeElement)).toBe(true)
  }
})
