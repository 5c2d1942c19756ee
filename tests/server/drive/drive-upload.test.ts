/**
 * 'Upload to Drive' (`POST /google-drive/files/upload`, multipart field `file`): the file is
 * created in the signed-in person's own Drive (the emulator's store, through googleapis' multipart
 * upload), the Drive is synced, and the file is in the library, read, and cited; the spec's upload
 * rules as 400s with nothing sent to Google; without a Drive connection, or with one that may not
 * add files, a 409 with a sentence and nothing created; nobody else's Drive or library is touched.
 */
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest'
import { documentEndpoints } from '#contracts/documents.ts'
import { driveEndpoints } from '#contracts/drive.ts'
import type { App } from '#server/app.ts'
import { DRIVE_MESSAGES } from '#server/drive/drive-errors.ts'
import { DRIVE_FILE_SCOPE, DRIVE_READONLY_SCOPE } from '#server/drive/google-connections.ts'
import { createGoogleEmulator, type GoogleEmulator } from '#tests/fakes/google/emulator.ts'
import { ADA, BOB } from '#tests/fakes/google/fixtures.ts'
import { call, createConversation, errorOf, sendOk } from '../support/chat-helpers.ts'
import { buildDriveApp, connectDrive, newPerson, type Person } from '../support/drive-helpers.ts'
import { buildTestApp } from '../support/helper.ts'

let emulator: GoogleEmulator
let app: App

beforeAll(async () => {
  // Empty Drives: the sync after an upload then has only the uploads to read.
  emulator = await createGoogleEmulator({ fixtures: false })
  app = await buildDriveApp(emulator)
})
afterAll(async () => {
  await app.close()
  await emulator.close()
})
beforeEach(() => {
  emulator.state.reset()
})

const { uploadFile } = driveEndpoints
const { listDocuments } = documentEndpoints

type Part = { name: string; type: string; bytes: Uint8Array }

/** A multipart/form-data body as a browser's FormData sends it. */
function formData(file?: Part) {
  const boundary = '----docchat-drive-upload'
  const chunks = file
    ? [
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\n` +
            `Content-Type: ${file.type}\r\n\r\n`,
        ),
        Buffer.from(file.bytes),
        Buffer.from('\r\n'),
      ]
    : []
  chunks.push(Buffer.from(`--${boundary}--\r\n`))
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` }
}

function upload(target: App, person: Pick<Person, 'cookie'>, file?: Part) {
  const body = formData(file)
  return target.inject({
    method: uploadFile.method,
    url: uploadFile.path,
    headers: { cookie: person.cookie, 'content-type': body.contentType },
    payload: body.payload,
  })
}

/** Text of `size` bytes that says `fact` among filler sentences. */
function textFile(name: string, fact: string, size = 12 * 1024): Part {
  let text = `${fact}\n\n`
  while (text.length < size) text += 'The harbour board met again and went through the tide tables. '
  return { name, type: 'text/plain', bytes: new TextEncoder().encode(text.slice(0, size)) }
}

async function connected(account = ADA, grantScopes?: readonly string[]): Promise<Person> {
  const person = await newPerson(app, 'drive-upload')
  await connectDrive(app, person, { account, ...(grantScopes ? { grantScopes } : {}) })
  return person
}

async function library(person: Person) {
  return listDocuments.response.parse((await call(app, listDocuments, { cookie: person.cookie })).json()).data
}

test('connecting asks Google for drive.file beside drive.readonly', async () => {
  await connected()

  const scopes = (emulator.state.lastAuthRequest?.scope ?? '').split(' ')

  expect(scopes).toEqual(expect.arrayContaining([DRIVE_READONLY_SCOPE, DRIVE_FILE_SCOPE]))
})

test("an uploaded file lands in the person's Drive, then in their library, read, and the next answer cites it", async () => {
  const ada = await connected()
  const file = textFile('harbour-notes.txt', 'The harbour pilot code is HERON-5150.')

  const response = await upload(app, ada, file)

  expect(response.statusCode).toBe(201)
  const data = uploadFile.response.parse(response.json()).data
  expect(data.file).toMatchObject({ name: 'harbour-notes.txt', mimeType: 'text/plain' })
  expect(data.document).toMatchObject({ name: 'harbour-notes.txt', source: 'drive', status: 'ready' })
  expect(data.message).toBe('harbour-notes.txt is in your Google Drive and in your library.')
  const inDrive = emulator.state.listFiles(ADA)
  expect(inDrive.map((f) => [f.id, f.name])).toEqual([[data.file.id, 'harbour-notes.txt']])
  expect((await library(ada)).documents.map((d) => [d.name, d.source, d.status])).toEqual([
    ['harbour-notes.txt', 'drive', 'ready'],
  ])
  const conversation = await createConversation(app, ada.cookie, 'Harbour')
  const { aiMessage } = await sendOk(app, ada.cookie, conversation._id, 'What is the harbour pilot code?')
  expect(aiMessage.content).toContain('HERON-5150')
  expect(aiMessage.sources.map((s) => s.documentName)).toContain('harbour-notes.txt')
})

test('a second upload reaches the library through the change feed, leaving the first alone', async () => {
  const ada = await connected()
  await upload(app, ada, textFile('first.txt', 'The first code is ALPHA-1001.'))
  emulator.state.clearRequests()

  const response = await upload(app, ada, textFile('second.txt', 'The second code is BRAVO-2002.'))

  expect(response.statusCode).toBe(201)
  expect(uploadFile.response.parse(response.json()).data.document?.status).toBe('ready')
  const counts = emulator.state.requestCounts()
  expect(counts['files.create']).toBe(1)
  expect(counts['changes.list']).toBe(1)
  expect(counts['files.list']).toBeUndefined()
  // Only the new file is downloaded: the first one is unchanged.
  expect(counts['files.media']).toBe(1)
  expect((await library(ada)).documents.map((d) => d.name).sort()).toEqual(['first.txt', 'second.txt'])
})

test("the spec's sentences as 400s, and nothing reaches Google", async () => {
  const ada = await connected()
  emulator.state.clearRequests()
  const cases: [Part | undefined, string][] = [
    [
      { name: 'photo.png', type: 'image/png', bytes: new Uint8Array(20 * 1024) },
      'Only PDF and Text files are allowed.',
    ],
    [textFile('small.txt', 'tiny', 5 * 1024), 'File size must be at least 10KB.'],
    [textFile('huge.txt', 'huge', 5 * 1024 * 1024 + 1), 'File size must not exceed 5MB.'],
    [undefined, 'Choose a file to upload.'],
  ]

  for (const [file, message] of cases) {
    const response = await upload(app, ada, file)
    expect({ status: response.statusCode, message: errorOf(response) }).toEqual({ status: 400, message })
  }

  expect(emulator.state.requestCount()).toBe(0)
  expect(emulator.state.listFiles(ADA)).toEqual([])
})

test('without a Drive connection the call answers 409 with the reconnect sentence; signed out 401', async () => {
  const someone = await newPerson(app, 'drive-upload')
  const file = textFile('notes.txt', 'Nothing to see.')

  const response = await upload(app, someone, file)

  expect({ status: response.statusCode, message: errorOf(response) }).toEqual({
    status: 409,
    message: DRIVE_MESSAGES.notConnected,
  })
  expect((await upload(app, { cookie: '' }, file)).statusCode).toBe(401)
  expect(emulator.state.listFiles()).toEqual([])
})

test('a connection that may only read (drive.file unticked) answers 409 and creates nothing', async () => {
  const ada = await connected(ADA, [DRIVE_READONLY_SCOPE])

  const response = await upload(app, ada, textFile('notes.txt', 'Nothing to see.'))

  expect({ status: response.statusCode, message: errorOf(response) }).toEqual({
    status: 409,
    message: DRIVE_MESSAGES.cannotWrite,
  })
  expect(emulator.state.requestCount('files.create')).toBe(0)
  expect(emulator.state.listFiles(ADA)).toEqual([])
})

test("an upload goes to the uploader's own Drive only: another person's Drive and library are untouched", async () => {
  const ada = await connected(ADA)
  const bob = await connected(BOB)

  await upload(app, ada, textFile('ada-only.txt', 'The private code is SECRET-7777.'))

  expect(emulator.state.listFiles(BOB)).toEqual([])
  expect((await library(bob)).documents).toEqual([])
  const conversation = await createConversation(app, bob.cookie, 'Bob')
  const { aiMessage } = await sendOk(app, bob.cookie, conversation._id, 'What is the private code?')
  expect(aiMessage.content).not.toContain('SECRET-7777')
})

test('a server without Google settings answers 503 with its sentence', async () => {
  const plain = await buildTestApp()
  try {
    const person = await newPerson(plain, 'drive-upload')
    const response = await upload(plain, person, textFile('notes.txt', 'Nothing to see.'))
    expect({ status: response.statusCode, message: errorOf(response) }).toEqual({
      status: 503,
      message: DRIVE_MESSAGES.notConfigured,
    })
  } finally {
    await plain.close()
  }
})

test("Google's own refusal of the write scope answers the same 409, and nothing is created", async () => {
  const ada = await connected()
  // The grant loses drive.file at Google (as a stored scope list can lag behind it).
  for (const grant of emulator.state.activeGrants(ADA)) grant.scopes = [DRIVE_READONLY_SCOPE]

  const response = await upload(app, ada, textFile('notes.txt', 'Nothing to see.'))

  expect({ status: response.statusCode, message: errorOf(response) }).toEqual({
    status: 409,
    message: DRIVE_MESSAGES.cannotWrite,
  })
  expect(emulator.state.listFiles(ADA)).toEqual([])
})

test('a rate-limited upload is sent again and lands once', async () => {
  const ada = await connected()
  emulator.state.failNextDriveRequests(1, { reason: 'rateLimitExceeded', endpoints: ['files.create'] })

  const response = await upload(app, ada, textFile('retry.txt', 'The retry code is CORMORANT-88.'))

  expect(response.statusCode).toBe(201)
  expect(emulator.state.requestCount('files.create')).toBe(2)
  expect(emulator.state.listFiles(ADA).map((f) => f.name)).toEqual(['retry.txt'])
})

test('a 5xx from Google is not sent again (the file might exist): 503 with the busy sentence', async () => {
  const ada = await connected()
  emulator.state.failNextDriveRequests(1, { reason: 'backendError', endpoints: ['files.create'] })

  const response = await upload(app, ada, textFile('once.txt', 'Sent once.'))

  expect({ status: response.statusCode, message: errorOf(response) }).toEqual({
    status: 503,
    message: DRIVE_MESSAGES.busy,
  })
  expect(emulator.state.requestCount('files.create')).toBe(1)
})

test('when the sync cannot run now, the file is in Drive and the answer says it comes with the next sync', async () => {
  const ada = await connected()
  await upload(app, ada, textFile('first.txt', 'The first code is ALPHA-1001.'))
  // Every change-feed read fails (after its retries): the sync after the next upload cannot run.
  emulator.state.failNextDriveRequests(10, { reason: 'backendError', endpoints: ['changes.list'] })

  const response = await upload(app, ada, textFile('later.txt', 'The later code is DELTA-4004.'))

  expect(response.statusCode).toBe(201)
  const data = uploadFile.response.parse(response.json()).data
  expect(data.document).toBeNull()
  expect(data.message).toBe(
    'later.txt is in your Google Drive; it will appear in your library with the next sync.',
  )
  expect(
    emulator.state
      .listFiles(ADA)
      .map((f) => f.name)
      .sort(),
  ).toEqual(['first.txt', 'later.txt'])
})
