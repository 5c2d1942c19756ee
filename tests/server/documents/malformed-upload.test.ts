/**
 * Malformed multipart bodies are the sender's fault: on both upload calls (the spec's upload into
 * the library and 'Upload to Drive'), a body cut short, without a boundary or with part headers
 * that never end answers 400 with a sentence, never 500, and nothing is stored or sent to
 * Google. A file's name is cleaned before it is stored (or named to Google): control and bidi
 * characters removed, its length capped with its extension kept, an empty one named (D85).
 */
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest'
import { documentEndpoints } from '#contracts/documents.ts'
import { driveEndpoints } from '#contracts/drive.ts'
import { fillPath } from '#contracts/endpoint.ts'
import type { App } from '#server/app.ts'
import { FILE_NAME_MAX_LENGTH, UPLOAD_MESSAGES } from '#server/documents/library/upload.ts'
import { createGoogleEmulator, type GoogleEmulator } from '#tests/fakes/google/emulator.ts'
import { ADA } from '#tests/fakes/google/fixtures.ts'
import { call, createConversation, errorOf } from '../support/chat-helpers.ts'
import { buildDriveApp, connectDrive, newPerson, type Person } from '../support/drive-helpers.ts'
import { multipart, type Part, textFile } from '../support/upload-helpers.ts'

let emulator: GoogleEmulator
let app: App
let ada: Person
let conversationId: string

beforeAll(async () => {
  emulator = await createGoogleEmulator({ fixtures: false })
  app = await buildDriveApp(emulator)
  ada = await newPerson(app, 'malformed')
  await connectDrive(app, ada, { account: ADA })
  conversationId = (await createConversation(app, ada.cookie, 'Uploads'))._id
})
afterAll(async () => {
  await app?.close()
  await emulator?.close()
})
beforeEach(() => {
  emulator.state.clearRequests()
})

const B = 'docchat-malformed-boundary'
const TYPED = `multipart/form-data; boundary=${B}`
const HEAD = `--${B}\r\nContent-Disposition: form-data; name="file"; filename="notes.txt"\r\nContent-Type: text/plain\r\n\r\n`
const FILE = 'The harbour board met again and went through the tide tables. '.repeat(200)

/** [what is wrong, Content-Type, body]: each answered 400 UPLOAD_MESSAGES.malformed. */
const MALFORMED: [string, string, string][] = [
  ['no boundary in the Content-Type', 'multipart/form-data', `${HEAD}${FILE}\r\n--${B}--\r\n`],
  ['an empty boundary', 'multipart/form-data; boundary=', `${HEAD}${FILE}\r\n--${B}--\r\n`],
  [
    'a boundary longer than a parser takes',
    `multipart/form-data; boundary=${'b'.repeat(300)}`,
    `--${'b'.repeat(300)}\r\nContent-Disposition: form-data; name="file"; filename="notes.txt"\r\n\r\n${FILE}`,
  ],
  ['a body that never has its boundary', TYPED, FILE],
  ['cut short inside the file', TYPED, `${HEAD}${FILE.slice(0, 5000)}`],
  ['cut short right after the first boundary', TYPED, `--${B}\r\n`],
  [
    'cut short inside the part headers',
    TYPED,
    `--${B}\r\nContent-Disposition: form-data; name="file"; filen`,
  ],
  [
    'part headers that never end',
    TYPED,
    `--${B}\r\nContent-Disposition: form-data; name="file"; filename="notes.txt"\r\nX-Pad: ${'a'.repeat(100_000)}`,
  ],
  ['no closing boundary', TYPED, `${HEAD}${FILE}\r\n`],
  ['cut short inside the closing boundary', TYPED, `${HEAD}${FILE}\r\n--${B.slice(0, 8)}`],
]

/** Readable as multipart, but with no file in the field `file`: the spec's "no file" sentence. */
const WITHOUT_FILE: [string, string, string][] = [
  ['a part header line without a colon', TYPED, `--${B}\r\nnot a header\r\n\r\n${FILE}\r\n--${B}--\r\n`],
  [
    'a part without Content-Disposition',
    TYPED,
    `--${B}\r\nContent-Type: text/plain\r\n\r\n${FILE}\r\n--${B}--\r\n`,
  ],
]

const CALLS = {
  library: () => fillPath(documentEndpoints.uploadFile.path, { id: conversationId }),
  drive: () => driveEndpoints.uploadFile.path,
} as const

function post(url: string, contentType: string, payload: string | Buffer) {
  return app.inject({
    method: 'POST',
    url,
    headers: { cookie: ada.cookie, 'content-type': contentType },
    payload,
  })
}

async function libraryNames(): Promise<string[]> {
  const response = await call(app, documentEndpoints.listDocuments, { cookie: ada.cookie })
  return documentEndpoints.listDocuments.response.parse(response.json()).data.documents.map((d) => d.name)
}

test.each(
  Object.keys(CALLS).flatMap((target) => MALFORMED.map(([what, type, body]) => [target, what, type, body])),
)(
  '%s upload, %s: 400 with a sentence, nothing stored or sent to Google',
  async (target, _what, type, body) => {
    const before = await libraryNames()

    const response = await post(CALLS[target as keyof typeof CALLS](), type, body)

    expect({ status: response.statusCode, message: errorOf(response) }).toEqual({
      status: 400,
      message: UPLOAD_MESSAGES.malformed,
    })
    expect(await libraryNames()).toEqual(before)
    expect(emulator.state.listFiles(ADA)).toEqual([])
  },
)

test.each(
  Object.keys(CALLS).flatMap((target) =>
    WITHOUT_FILE.map(([what, type, body]) => [target, what, type, body]),
  ),
)('%s upload, %s: 400 "Choose a file to upload."', async (target, _what, type, body) => {
  const response = await post(CALLS[target as keyof typeof CALLS](), type, body)

  expect({ status: response.statusCode, message: errorOf(response) }).toEqual({
    status: 400,
    message: UPLOAD_MESSAGES.noFile,
  })
})

function uploadNamed(target: keyof typeof CALLS, file: Part) {
  const body = multipart([{ field: 'file', file }])
  return post(CALLS[target](), body.contentType, body.payload)
}

test('a file name is stored without control or bidi characters', async () => {
  const cases: [string, string][] = [
    ['minutes\u0000.txt', 'minutes.txt'],
    ['tide\u0007 tables\u001b.txt', 'tide tables.txt'],
    // U+202E (RLO) showed "invoice\u202Etxt.exe" as "invoiceexe.txt": the real name is what stays.
    ['invoice\u202Etxt.exe.txt', 'invoicetxt.exe.txt'],
    ['\u2066report\u2069 2024\u200F.txt', 'report 2024.txt'],
  ]
  for (const [sent, stored] of cases) {
    const response = await uploadNamed('library', textFile(sent, `The code is ${stored}.`))
    expect(response.statusCode).toBe(201)
    expect(documentEndpoints.uploadFile.response.parse(response.json()).data.name).toBe(stored)
  }
  expect(await libraryNames()).toEqual(expect.arrayContaining(cases.map(([, stored]) => stored)))
})

test('a very long name is cut to 255 characters with its extension; a name of nothing is "Untitled"', async () => {
  const long = await uploadNamed('library', textFile(`${'a'.repeat(70_000)}.txt`, 'The code is LONG-1.'))
  const nothing = await uploadNamed('library', textFile('\u202E\u0000 \u200F', 'The code is EMPTY-1.'))

  const longName = documentEndpoints.uploadFile.response.parse(long.json()).data.name
  expect(Array.from(longName)).toHaveLength(FILE_NAME_MAX_LENGTH)
  expect(longName).toMatch(/^a+…\.txt$/)
  expect(documentEndpoints.uploadFile.response.parse(nothing.json()).data.name).toBe('Untitled.txt')
})

test('Upload to Drive names the file to Google cleaned, and stores it so', async () => {
  const response = await uploadNamed(
    'drive',
    textFile('harbour\u202Etxt.exe\u0000.txt', 'The code is HERON-1.'),
  )

  expect(response.statusCode).toBe(201)
  const data = driveEndpoints.uploadFile.response.parse(response.json()).data
  expect(data.file.name).toBe('harbourtxt.exe.txt')
  expect(emulator.state.listFiles(ADA).map((f) => f.name)).toEqual(['harbourtxt.exe.txt'])
})
