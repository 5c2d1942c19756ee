/**
 * The spec's upload call (`POST /chat/sessions/{id}/files/upload`, multipart field `file`): a PDF
 * or a text file of 10 KB to 5 MB is stored in the person's library and read like any other
 * document, so the next question about it is answered from it and cites it; the spec's sentences
 * as 400s for anything else; another person's conversation answers like a missing one; a deleted
 * upload is never cited again.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { documentEndpoints } from '#contracts/documents.ts'
import type { App } from '#server/app.ts'
import { call, createConversation, errorOf, sendOk } from '../support/chat-helpers.ts'
import { newPerson, type Person } from '../support/drive-helpers.ts'
import { buildTestApp } from '../support/helper.ts'
import { type Part, pdfFile, postUpload, textFile } from '../support/upload-helpers.ts'

let app: App

beforeAll(async () => {
  app = await buildTestApp()
})
afterAll(async () => {
  await app.close()
})

const { uploadFile, listDocuments, deleteDocument, listConversationFiles, uploadToLibrary } =
  documentEndpoints

async function filesOf(person: Pick<Person, 'cookie'>, conversationId: string) {
  const response = await call(app, listConversationFiles, {
    cookie: person.cookie,
    params: { id: conversationId },
  })
  return {
    status: response.statusCode,
    files: response.statusCode === 200 ? listConversationFiles.response.parse(response.json()).data : [],
  }
}

async function person(): Promise<Person & { conversationId: string }> {
  const someone = await newPerson(app, 'upload')
  const conversation = await createConversation(app, someone.cookie, 'Uploads')
  return { ...someone, conversationId: conversation._id }
}

test('an uploaded PDF is read at once, listed in the library, and the next answer cites it', async () => {
  const ada = await person()
  const file = await pdfFile('pier-survey.pdf', 'The pier survey found the tide gauge code KESTREL-9914.')

  const response = await postUpload(app, ada, ada.conversationId, file)

  expect(response.statusCode).toBe(201)
  const document = uploadFile.response.parse(response.json()).data
  expect(document).toMatchObject({ name: 'pier-survey.pdf', source: 'upload', status: 'ready', pages: 2 })
  const library = listDocuments.response.parse(
    (await call(app, listDocuments, { cookie: ada.cookie })).json(),
  )
  expect(library.data.documents.map((d) => d.name)).toEqual(['pier-survey.pdf'])
  // No Drive file behind an upload; it was last changed when it came.
  expect(library.data.documents[0]?.driveFileId).toBeNull()
  expect(Number.isNaN(Date.parse(library.data.documents[0]?.modifiedTime ?? ''))).toBe(false)
  const { aiMessage } = await sendOk(
    app,
    ada.cookie,
    ada.conversationId,
    'What is the tide gauge code in the pier survey?',
  )
  expect(aiMessage.content).toContain('KESTREL-9914')
  expect(aiMessage.sources.map((s) => s.documentName)).toContain('pier-survey.pdf')
})

test('a text file is read in whichever encoding it was saved (UTF-16 here)', async () => {
  const ada = await person()
  const text = textFile('notes.txt', 'Notepad notes: the ferry password is MARLIN-2207.', 6 * 1024)
  const utf16 = Buffer.from(`\uFEFF${new TextDecoder().decode(text.bytes)}`, 'utf16le')

  const response = await postUpload(app, ada, ada.conversationId, { ...text, bytes: utf16 })

  expect(response.statusCode).toBe(201)
  expect(uploadFile.response.parse(response.json()).data.status).toBe('ready')
  const { aiMessage } = await sendOk(app, ada.cookie, ada.conversationId, 'What is the ferry password?')
  expect(aiMessage.content).toContain('MARLIN-2207')
})

/** A real file in an older encoding (tests/server/documents/encodings/), repeated past the 10 KB minimum. */
function legacyFile(sample: string, name: string) {
  const bytes = readFileSync(path.join(import.meta.dirname, 'encodings', sample))
  const repeats = Math.ceil((11 * 1024) / bytes.length)
  return { name, type: 'text/plain', bytes: Buffer.concat(Array.from({ length: repeats }, () => bytes)) }
}

test('files in older encodings are read as such, and the library says which encoding it read', async () => {
  const ada = await person()

  expect((await postUpload(app, ada, null, legacyFile('ja.shift_jis.txt', 'rules-ja.txt'))).statusCode).toBe(
    201,
  )
  expect(
    (await postUpload(app, ada, null, legacyFile('ru.windows-1251.txt', 'rules-ru.txt'))).statusCode,
  ).toBe(201)

  const library = listDocuments.response.parse(
    (await call(app, listDocuments, { cookie: ada.cookie })).json(),
  )
  const reasons = Object.fromEntries(library.data.documents.map((d) => [d.name, [d.status, d.reason]]))
  expect(reasons).toEqual({
    'rules-ja.txt': ['ready', 'text read as Shift-JIS (Japanese)'],
    'rules-ru.txt': ['ready', 'text read as Windows-1251 (Cyrillic)'],
  })
  const { aiMessage } = await sendOk(
    app,
    ada.cookie,
    ada.conversationId,
    'Сколько дней можно работать удалённо?',
  )
  expect(aiMessage.content).toContain('не более двух дней в неделю')
})

test("the spec's sentences as 400s: wrong type, under 10KB, over 5MB, no file", async () => {
  const ada = await person()
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
    const response = await postUpload(app, ada, ada.conversationId, file)
    expect({ status: response.statusCode, message: errorOf(response) }).toEqual({ status: 400, message })
  }
  const library = listDocuments.response.parse(
    (await call(app, listDocuments, { cookie: ada.cookie })).json(),
  )
  expect(library.data.documents).toEqual([])
})

test("another person's conversation answers 404 like a missing one; signed out is 401", async () => {
  const ada = await person()
  const bob = await person()
  const file = textFile('notes.txt', 'Nothing to see.')

  const theirs = await postUpload(app, bob, ada.conversationId, file)
  const missing = await postUpload(app, bob, '0b5c7a52-6c2f-4f4e-9a51-5d1c43e0a111', file)

  expect(theirs.statusCode).toBe(404)
  expect(theirs.json()).toEqual(missing.json())
  expect((await postUpload(app, { cookie: '' }, ada.conversationId, file)).statusCode).toBe(401)
})

test('a deleted upload is never cited again', async () => {
  const ada = await person()
  const response = await postUpload(
    app,
    ada,
    ada.conversationId,
    textFile('codes.txt', 'The vault combination is OSPREY-3141.'),
  )
  const document = uploadFile.response.parse(response.json()).data

  const deleted = await call(app, deleteDocument, { cookie: ada.cookie, params: { id: document.id } })

  expect(deleted.statusCode).toBe(200)
  const { aiMessage } = await sendOk(app, ada.cookie, ada.conversationId, 'What is the vault combination?')
  expect(aiMessage.content).not.toContain('OSPREY-3141')
  expect(aiMessage.sources).toEqual([])
})

test('a conversation lists the files uploaded into it, in order, until they leave the library', async () => {
  const ada = await person()
  const other = await createConversation(app, ada.cookie, 'Elsewhere')
  const first = uploadFile.response.parse(
    (await postUpload(app, ada, ada.conversationId, textFile('first.txt', 'The first file.'))).json(),
  ).data
  await postUpload(app, ada, ada.conversationId, textFile('second.txt', 'The second file.'))
  await postUpload(app, ada, other._id, textFile('elsewhere.txt', 'Another conversation.'))

  const listed = await filesOf(ada, ada.conversationId)

  expect(listed.status).toBe(200)
  expect(listed.files.map((f) => [f.name, f.status])).toEqual([
    ['first.txt', 'ready'],
    ['second.txt', 'ready'],
  ])
  await call(app, deleteDocument, { cookie: ada.cookie, params: { id: first.id } })
  expect((await filesOf(ada, ada.conversationId)).files.map((f) => f.name)).toEqual(['second.txt'])
  expect((await filesOf(ada, other._id)).files.map((f) => f.name)).toEqual(['elsewhere.txt'])
})

test("another person's conversation files answer 404 like a missing conversation's", async () => {
  const ada = await person()
  const bob = await person()
  await postUpload(app, ada, ada.conversationId, textFile('private.txt', 'Only for Ada.'))

  const theirs = await call(app, listConversationFiles, {
    cookie: bob.cookie,
    params: { id: ada.conversationId },
  })
  const missing = await call(app, listConversationFiles, {
    cookie: bob.cookie,
    params: { id: '0b5c7a52-6c2f-4f4e-9a51-5d1c43e0a111' },
  })

  expect(theirs.statusCode).toBe(404)
  expect(theirs.json()).toEqual(missing.json())
})

test('an upload into the library alone is read, listed, attached to no conversation, with the same rules', async () => {
  const ada = await person()

  const response = await postUpload(
    app,
    ada,
    null,
    textFile('handbook.txt', 'The harbour code is HERON-5150.'),
  )

  expect(response.statusCode).toBe(201)
  expect(uploadToLibrary.response.parse(response.json()).data).toMatchObject({
    name: 'handbook.txt',
    source: 'upload',
    status: 'ready',
  })
  const library = listDocuments.response.parse(
    (await call(app, listDocuments, { cookie: ada.cookie })).json(),
  )
  expect(library.data.documents.map((d) => d.name)).toEqual(['handbook.txt'])
  expect((await filesOf(ada, ada.conversationId)).files).toEqual([])
  const { aiMessage } = await sendOk(app, ada.cookie, ada.conversationId, 'What is the harbour code?')
  expect(aiMessage.content).toContain('HERON-5150')
  const refused = await postUpload(app, ada, null, textFile('small.txt', 'tiny', 5 * 1024))
  expect({ status: refused.statusCode, message: errorOf(refused) }).toEqual({
    status: 400,
    message: 'File size must be at least 10KB.',
  })
  expect((await postUpload(app, { cookie: '' }, null, textFile('x.txt', 'x'))).statusCode).toBe(401)
})
