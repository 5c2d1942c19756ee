import { expect, test, vi } from 'vitest'
import { createActor, waitFor } from 'xstate'
import { libraryDocument } from '../documents/documents-fixtures.ts'
import { provideUploadMachine, UPLOAD_MESSAGES, type UploadDeps, uploadMachine } from './upload-machine.ts'
import {
  type FileFacts,
  UPLOAD_ERRORS,
  UPLOAD_MAX_BYTES,
  UPLOAD_MIN_BYTES,
  uploadError,
} from './upload-rules.ts'

const pdf = (size: number, name = 'report.pdf'): FileFacts => ({ name, size, type: 'application/pdf' })

test.each([
  ['a PDF', pdf(20_000), null],
  ['a text file', { name: 'notes.txt', size: 20_000, type: 'text/plain' }, null],
  ['an image', { name: 'photo.png', size: 20_000, type: 'image/png' }, UPLOAD_ERRORS.type],
  ['a Word file', { name: 'cv.docx', size: 20_000, type: 'application/msword' }, UPLOAD_ERRORS.type],
  ['a .pdf without a MIME type', { name: 'scan.PDF', size: 20_000, type: '' }, null],
  ['a .exe without a MIME type', { name: 'tool.exe', size: 20_000, type: '' }, UPLOAD_ERRORS.type],
  ['a file just under 10KB', pdf(UPLOAD_MIN_BYTES - 1), UPLOAD_ERRORS.tooSmall],
  ['a file of exactly 10KB', pdf(UPLOAD_MIN_BYTES), null],
  ['a file of exactly 5MB', pdf(UPLOAD_MAX_BYTES), null],
  ['a file just over 5MB', pdf(UPLOAD_MAX_BYTES + 1), UPLOAD_ERRORS.tooLarge],
  ['a tiny image (type is checked first)', { name: 'a.png', size: 1, type: 'image/png' }, UPLOAD_ERRORS.type],
])('%s: %j', (_, file, expected) => {
  expect(uploadError(file)).toBe(expected)
})

test('the limits are 10*1024 and 5*1024*1024 bytes, in the spec words', () => {
  expect(UPLOAD_MIN_BYTES).toBe(10240)
  expect(UPLOAD_MAX_BYTES).toBe(5242880)
  expect(UPLOAD_ERRORS).toEqual({
    type: 'Only PDF and Text files are allowed.',
    tooSmall: 'File size must be at least 10KB.',
    tooLarge: 'File size must not exceed 5MB.',
  })
})

test('opens with no file and nothing to upload', () => {
  const upload = createActor(uploadMachine).start()

  upload.send({ type: 'upload.open' })

  expect(upload.getSnapshot().hasTag('open')).toBe(true)
  expect(upload.getSnapshot().hasTag('ready')).toBe(false)
  expect(upload.getSnapshot().context).toEqual({
    into: 'chat',
    file: null,
    content: null,
    error: null,
    notice: null,
  })
})

test('a rejected file is named with the reason and cannot be uploaded', () => {
  const upload = createActor(uploadMachine).start()
  upload.send({ type: 'upload.open' })

  upload.send({ type: 'upload.choose', file: pdf(100) })
  upload.send({ type: 'upload.submit', destination: 'chat' })

  const snapshot = upload.getSnapshot()
  expect(snapshot.hasTag('open')).toBe(true)
  expect(snapshot.hasTag('ready')).toBe(false)
  expect(snapshot.context).toEqual({
    into: 'chat',
    file: pdf(100),
    content: null,
    error: UPLOAD_ERRORS.tooSmall,
    notice: null,
  })
})

test('an accepted file enables upload; a later bad choice disables it again', () => {
  const upload = createActor(uploadMachine).start()
  upload.send({ type: 'upload.open' })

  upload.send({ type: 'upload.choose', file: pdf(20_000) })
  expect(upload.getSnapshot().hasTag('ready')).toBe(true)
  expect(upload.getSnapshot().context.error).toBeNull()

  upload.send({ type: 'upload.choose', file: pdf(UPLOAD_MAX_BYTES + 1) })
  expect(upload.getSnapshot().hasTag('ready')).toBe(false)
  expect(upload.getSnapshot().context.error).toBe(UPLOAD_ERRORS.tooLarge)
})

test("'Upload to Drive' sends the file to Drive and stays open with the server's sentence", async () => {
  const message = 'report.pdf is in your Google Drive and in your library.'
  const uploadToDrive = vi.fn<UploadDeps['uploadToDrive']>().mockResolvedValue({ message })
  const uploadFile = vi.fn<UploadDeps['uploadFile']>()
  const upload = createActor(
    provideUploadMachine({ uploadFile, uploadToDrive, uploadToLibrary: vi.fn() }),
  ).start()
  const content = new Blob(['%PDF'])
  upload.send({ type: 'upload.open' })
  upload.send({ type: 'upload.choose', file: pdf(20_000), content })

  upload.send({ type: 'upload.submit', destination: 'drive', conversationId: null })

  expect(upload.getSnapshot().hasTag('uploadingToDrive')).toBe(true)
  expect(upload.getSnapshot().hasTag('ready')).toBe(false)
  await waitFor(upload, (s) => s.matches({ open: 'sent' }))
  expect(uploadToDrive).toHaveBeenCalledWith({ file: pdf(20_000), content })
  expect(uploadFile).not.toHaveBeenCalled()
  expect(upload.getSnapshot().context).toMatchObject({ notice: message, error: null })
  // Sent once: the buttons wait for another file rather than adding a second copy.
  expect(upload.getSnapshot().hasTag('ready')).toBe(false)
})

test('after a Drive upload, choosing another file clears the sentence and enables the buttons', async () => {
  const uploadToDrive = vi.fn<UploadDeps['uploadToDrive']>().mockResolvedValue({ message: 'Done.' })
  const upload = createActor(
    provideUploadMachine({ uploadFile: vi.fn(), uploadToDrive, uploadToLibrary: vi.fn() }),
  ).start()
  upload.send({ type: 'upload.open' })
  upload.send({ type: 'upload.choose', file: pdf(20_000), content: new Blob(['x']) })
  upload.send({ type: 'upload.submit', destination: 'drive' })
  await waitFor(upload, (s) => s.matches({ open: 'sent' }))

  upload.send({ type: 'upload.choose', file: pdf(30_000, 'other.pdf'), content: new Blob(['y']) })

  expect(upload.getSnapshot().hasTag('ready')).toBe(true)
  expect(upload.getSnapshot().context.notice).toBeNull()
})

test("a refused Drive upload keeps the dialog open with the server's sentence; a failure with ours", async () => {
  const notConnected = 'Google Drive is not connected. Connect it under Integrations.'
  const uploadToDrive = vi
    .fn<UploadDeps['uploadToDrive']>()
    .mockRejectedValueOnce(Object.assign(new Error(notConnected), { status: 409 }))
    .mockRejectedValueOnce(Object.assign(new Error('Internal error'), { status: 500 }))
  const upload = createActor(
    provideUploadMachine({ uploadFile: vi.fn(), uploadToDrive, uploadToLibrary: vi.fn() }),
  ).start()
  upload.send({ type: 'upload.open' })
  upload.send({ type: 'upload.choose', file: pdf(20_000), content: new Blob(['x']) })

  upload.send({ type: 'upload.submit', destination: 'drive' })
  await waitFor(upload, (s) => s.matches({ open: 'accepted' }) && s.context.error !== null)
  expect(upload.getSnapshot().context.error).toBe(notConnected)

  upload.send({ type: 'upload.submit', destination: 'drive' })
  await waitFor(
    upload,
    (s) => s.matches({ open: 'accepted' }) && s.context.error === UPLOAD_MESSAGES.driveFailed,
  )
  expect(upload.getSnapshot().hasTag('ready')).toBe(true)
})

const stored = libraryDocument('report.pdf', { id: 'doc-1', pages: 2, chunks: 3 })

test("'Upload' sends the file to the open conversation, then closes and says what it uploaded", async () => {
  const uploadFile = vi.fn<UploadDeps['uploadFile']>().mockResolvedValue(stored)
  const upload = createActor(
    provideUploadMachine({ uploadFile, uploadToDrive: vi.fn(), uploadToLibrary: vi.fn() }),
  ).start()
  const uploaded: unknown[] = []
  upload.on('upload.uploaded', (event) => uploaded.push(event))
  const content = new Blob(['%PDF'])
  upload.send({ type: 'upload.open' })
  upload.send({ type: 'upload.choose', file: pdf(20_000), content })

  upload.send({ type: 'upload.submit', destination: 'chat', conversationId: 'conversation-1' })

  expect(upload.getSnapshot().hasTag('uploading')).toBe(true)
  await waitFor(upload, (s) => s.matches('closed'))
  expect(uploadFile).toHaveBeenCalledWith({ conversationId: 'conversation-1', file: pdf(20_000), content })
  expect(uploaded).toEqual([{ type: 'upload.uploaded', conversationId: 'conversation-1', document: stored }])
})

test("a refused upload keeps the dialog open with the server's sentence; a failure with ours", async () => {
  const uploadFile = vi
    .fn<UploadDeps['uploadFile']>()
    .mockRejectedValueOnce(Object.assign(new Error('File size must be at least 10KB.'), { status: 400 }))
    .mockRejectedValueOnce(Object.assign(new Error('fetch failed'), { status: 0 }))
  const upload = createActor(
    provideUploadMachine({ uploadFile, uploadToDrive: vi.fn(), uploadToLibrary: vi.fn() }),
  ).start()
  upload.send({ type: 'upload.open' })
  upload.send({ type: 'upload.choose', file: pdf(20_000), content: new Blob(['x']) })

  upload.send({ type: 'upload.submit', destination: 'chat', conversationId: 'conversation-1' })
  await waitFor(upload, (s) => s.matches({ open: 'accepted' }))
  expect(upload.getSnapshot().context.error).toBe('File size must be at least 10KB.')

  upload.send({ type: 'upload.submit', destination: 'chat', conversationId: 'conversation-1' })
  await waitFor(upload, (s) => s.matches({ open: 'accepted' }) && s.context.error === UPLOAD_MESSAGES.failed)
})

test("'Upload' in a new chat hands the file to the composer and closes, uploading nothing yet", () => {
  const uploadFile = vi.fn<UploadDeps['uploadFile']>()
  const upload = createActor(
    provideUploadMachine({ uploadFile, uploadToDrive: vi.fn(), uploadToLibrary: vi.fn() }),
  ).start()
  const attached: unknown[] = []
  upload.on('upload.attached', (event) => attached.push(event))
  const content = new Blob(['x'])
  upload.send({ type: 'upload.open' })
  upload.send({ type: 'upload.choose', file: pdf(20_000), content })

  upload.send({ type: 'upload.submit', destination: 'chat', conversationId: null })

  expect(upload.getSnapshot().matches('closed')).toBe(true)
  expect(attached).toEqual([{ type: 'upload.attached', file: pdf(20_000), content }])
  expect(uploadFile).not.toHaveBeenCalled()
})

test("opened from Documents, 'Upload' puts the file in the library alone, whatever conversation is open", async () => {
  const uploadToLibrary = vi.fn<UploadDeps['uploadToLibrary']>().mockResolvedValue(stored)
  const uploadFile = vi.fn<UploadDeps['uploadFile']>()
  const upload = createActor(
    provideUploadMachine({ uploadFile, uploadToDrive: vi.fn(), uploadToLibrary }),
  ).start()
  const uploaded: unknown[] = []
  upload.on('upload.uploaded', (event) => uploaded.push(event))
  const content = new Blob(['x'])
  upload.send({ type: 'upload.open', into: 'library' })
  upload.send({ type: 'upload.choose', file: pdf(20_000), content })

  upload.send({ type: 'upload.submit', destination: 'chat', conversationId: 'conversation-1' })

  expect(upload.getSnapshot().hasTag('uploading')).toBe(true)
  await waitFor(upload, (s) => s.matches('closed'))
  expect(uploadToLibrary).toHaveBeenCalledWith({ file: pdf(20_000), content })
  expect(uploadFile).not.toHaveBeenCalled()
  expect(uploaded).toEqual([{ type: 'upload.uploaded', conversationId: null, document: stored }])
  // The next opening from the chat uploads into the chat again.
  upload.send({ type: 'upload.open' })
  expect(upload.getSnapshot().context.into).toBe('chat')
})

test('closing forgets the file; reopening starts empty', () => {
  const upload = createActor(uploadMachine).start()
  upload.send({ type: 'upload.open' })
  upload.send({ type: 'upload.choose', file: pdf(100) })

  upload.send({ type: 'upload.close' })
  upload.send({ type: 'upload.open' })

  expect(upload.getSnapshot().context).toEqual({
    into: 'chat',
    file: null,
    content: null,
    error: null,
    notice: null,
  })
  expect(upload.getSnapshot().hasTag('ready')).toBe(false)
})
