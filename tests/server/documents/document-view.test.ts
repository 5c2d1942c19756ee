/**
 * One document for its owner: `GET /documents/{id}` (the viewer's passages in reading order) and
 * `GET /documents/{id}/file` (the file itself, with headers that keep it from ever running as a
 * page of ours). A citation's document id opens the same document as the library's id; another
 * person's id, an unknown one and a deleted document answer 404 alike.
 */
import { afterAll, beforeAll, expect, test } from 'vitest'
import { documentEndpoints } from '#contracts/documents.ts'
import { fillPath } from '#contracts/endpoint.ts'
import type { App } from '#server/app.ts'
import { call, createConversation, errorOf, sendOk } from '../support/chat-helpers.ts'
import { newPerson } from '../support/drive-helpers.ts'
import { buildTestApp } from '../support/helper.ts'
import { pdfFile, postUpload, textFile } from '../support/upload-helpers.ts'

let app: App

beforeAll(async () => {
  app = await buildTestApp()
})
afterAll(async () => {
  await app.close()
})

const { getDocument, documentFile, uploadFile, deleteDocument } = documentEndpoints

async function personWithUpload(file: Awaited<ReturnType<typeof pdfFile>>) {
  const person = await newPerson(app, 'viewer')
  const conversation = await createConversation(app, person.cookie, 'Reading')
  const response = await postUpload(app, person, conversation._id, file)
  expect(response.statusCode).toBe(201)
  const document = uploadFile.response.parse(response.json()).data
  return { ...person, conversationId: conversation._id, document }
}

const fileOf = (cookie: string, id: string) =>
  app.inject({ method: 'GET', url: fillPath(documentFile.path, { id }), headers: { cookie } })

/** Markdown-looking text: two headed sections long enough to make several passages. */
function headedText(): ReturnType<typeof textFile> {
  const para = (topic: string) =>
    `${`The ${topic} paragraph goes on about its own subject at length. `.repeat(9)}\n\n`
  const text = `# Harbour\n\n${para('harbour').repeat(2)}The harbour master's code is OSPREY-4410.\n\n# Lighthouse\n\n${para('lighthouse').repeat(3)}`
  return {
    name: 'coast-notes.md',
    type: 'text/plain',
    bytes: new TextEncoder().encode(text.padEnd(11 * 1024, ' ')),
  }
}

test("the viewer gets the document's passages in reading order, with their pages and headings", async () => {
  const ada = await personWithUpload(await pdfFile('pier-survey.pdf', 'The tide gauge code is KESTREL-9914.'))

  const response = await call(app, getDocument, { cookie: ada.cookie, params: { id: ada.document.id } })

  expect(response.statusCode).toBe(200)
  const view = getDocument.response.parse(response.json()).data
  expect(view.document).toMatchObject({ id: ada.document.id, name: 'pier-survey.pdf', status: 'ready' })
  expect(view.passages.map((p) => p.page)).toEqual([1, 2])
  expect(view.passages[1]?.text).toContain('KESTREL-9914')
})

test('a text document with headings keeps them, passage by passage, in order', async () => {
  const ada = await personWithUpload(headedText())

  const view = getDocument.response.parse(
    (await call(app, getDocument, { cookie: ada.cookie, params: { id: ada.document.id } })).json(),
  ).data

  expect(view.passages.length).toBeGreaterThan(2)
  const headings = view.passages.map((p) => p.heading)
  expect(headings[0]).toBe('Harbour')
  expect(headings.at(-1)).toBe('Lighthouse')
  // Reading order: every Harbour passage comes before the first Lighthouse one.
  expect(headings.lastIndexOf('Harbour')).toBeLessThan(headings.indexOf('Lighthouse'))
})

test("a citation's document id opens the same document, and its passage is among those listed", async () => {
  const ada = await personWithUpload(await pdfFile('pier-survey.pdf', 'The tide gauge code is KESTREL-9914.'))
  const { aiMessage } = await sendOk(app, ada.cookie, ada.conversationId, 'What is the tide gauge code?')
  const source = aiMessage.sources.find((s) => s.documentName === 'pier-survey.pdf')
  if (!source) throw new Error('the answer cites no passage of the upload')

  const view = getDocument.response.parse(
    (await call(app, getDocument, { cookie: ada.cookie, params: { id: source.documentId } })).json(),
  ).data

  expect(view.document.id).toBe(ada.document.id)
  const cited = view.passages.find((p) => p.id === source.chunkId)
  expect(cited).toMatchObject({ page: source.page })
  const file = await fileOf(ada.cookie, source.documentId)
  expect(file.statusCode).toBe(200)
})

test("an upload's file is its bytes, with its type, a safe name, nosniff, no caching and a sandbox", async () => {
  const pdf = await pdfFile('pier "survey"\\2026.pdf', 'The tide gauge code is KESTREL-9914.')
  const ada = await personWithUpload(pdf)

  const response = await fileOf(ada.cookie, ada.document.id)

  expect(response.statusCode).toBe(200)
  expect(Buffer.compare(response.rawPayload, Buffer.from(pdf.bytes))).toBe(0)
  expect(response.headers).toMatchObject({
    'content-type': 'application/pdf',
    'content-length': String(pdf.bytes.length),
    'x-content-type-options': 'nosniff',
    'cache-control': 'private, no-store',
  })
  expect(response.headers['content-security-policy']).toMatch(/(^|; )sandbox(;|$)/)
  expect(response.headers['content-security-policy']).toContain("default-src 'none'")
  const disposition = String(response.headers['content-disposition'])
  expect(disposition).toMatch(/^inline; filename="[^"\\/]*"; filename\*=UTF-8''/)
  expect(disposition).not.toMatch(/\\|\//)
  expect(response.headers['set-cookie']).toBeUndefined()
})

test("another person's document, an unknown id and a deleted one answer 404 on both calls", async () => {
  const ada = await personWithUpload(textFile('ada.txt', 'Ada keeps the code LYNX-5120.'))
  const bob = await newPerson(app, 'viewer-bob')
  const unknown = '0b5c7a52-6c2f-4f4e-9a51-5d1c43e0a111'

  for (const id of [ada.document.id, unknown]) {
    const view = await call(app, getDocument, { cookie: bob.cookie, params: { id } })
    const file = await fileOf(bob.cookie, id)
    expect([view.statusCode, errorOf(view)]).toEqual([404, 'Document not found.'])
    expect([file.statusCode, errorOf(file)]).toEqual([404, 'Document not found.'])
  }
  await call(app, deleteDocument, { cookie: ada.cookie, params: { id: ada.document.id } })
  expect((await fileOf(ada.cookie, ada.document.id)).statusCode).toBe(404)
  expect(
    (await call(app, getDocument, { cookie: ada.cookie, params: { id: ada.document.id } })).statusCode,
  ).toBe(404)
})

test('both calls need a sign-in and a well-formed id', async () => {
  const anonymous = await app.inject({ method: 'GET', url: fillPath(documentFile.path, { id: 'x' }) })
  expect(anonymous.statusCode).toBe(401)
  const ada = await newPerson(app, 'viewer-ids')
  const malformed = await fileOf(ada.cookie, 'not-a-uuid')
  expect([malformed.statusCode, errorOf(malformed)]).toEqual([400, 'Not a valid id'])
})
