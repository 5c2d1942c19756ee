/**
 * Conversations limited to chosen documents (D70): the scope is stored with the conversation and
 * answered by create, list and PATCH; every id is the person's own library document (anything
 * else is a 400 naming it, never a silent widening); deleting a document drops it from every
 * scope, and a scope left empty says so; one id names a document everywhere (library, scope,
 * citation). With TEST_DATABASE_URL set the same file runs on PostgreSQL.
 */
import { afterAll, beforeAll, expect, test } from 'vitest'
import { chatEndpoints, SCOPE_MAX_DOCUMENTS } from '#contracts/chat.ts'
import { documentEndpoints } from '#contracts/documents.ts'
import { EMPTY_SCOPE_REPLY } from '#server/answering/answer-shapes.ts'
import { NO_MODEL_NOTE, NOTHING_FOUND_IN_SCOPE_REPLY } from '#server/answering/extractive.ts'
import type { App } from '#server/app.ts'
import { notInLibrary } from '#server/chat/chat-errors.ts'
import {
  call,
  conversationExists,
  createConversation,
  errorOf,
  listConversations,
  sendOk,
} from '../support/chat-helpers.ts'
import { newPerson, type Person } from '../support/drive-helpers.ts'
import { buildTestApp } from '../support/helper.ts'
import {
  addLibraryDocument,
  createScoped,
  createScopedOk,
  updateConversation,
} from '../support/library-helpers.ts'

let app: App
let ada: Person
let handbook: string
let minutes: string
let canteen: string

const HANDBOOK = 'The staff handbook says the office opens at eight in the morning.'
const MINUTES =
  'Board minutes: the office opens at nine. Office opening times: the office opens at nine on Mondays.'

beforeAll(async () => {
  app = await buildTestApp()
  ada = await newPerson(app, 'scope')
  handbook = await addLibraryDocument(app, ada.id, { name: 'handbook.txt', text: HANDBOOK })
  minutes = await addLibraryDocument(app, ada.id, { name: 'minutes.txt', text: MINUTES, source: 'drive' })
  canteen = await addLibraryDocument(app, ada.id, {
    name: 'canteen.txt',
    text: 'The canteen serves lunch from noon.',
  })
}, 60_000)
afterAll(async () => {
  await app?.close()
})

test('a conversation created with documents keeps them, and create and list answer them with their names', async () => {
  const created = await createScopedOk(app, ada.cookie, 'Opening hours', [handbook, canteen])

  const scope = {
    documentIds: [handbook, canteen],
    documents: [
      { id: handbook, name: 'handbook.txt' },
      { id: canteen, name: 'canteen.txt' },
    ],
  }
  expect(created.scope).toEqual(scope)
  const listed = (await listConversations(app, ada.cookie)).find((c) => c._id === created._id)
  expect(listed?.scope).toEqual(scope)
})

test('a conversation without documents searches the whole library: its scope is null', async () => {
  const plain = await createConversation(app, ada.cookie, 'Anything')
  expect(plain.scope).toBeNull()
  expect((await listConversations(app, ada.cookie)).find((c) => c._id === plain._id)?.scope).toBeNull()
})

test('PATCH sets, changes and clears the scope; a title alone keeps it; an id given twice counts once', async () => {
  const conversation = await createConversation(app, ada.cookie, 'Edit me')
  const set = await updateConversation(app, ada.cookie, conversation._id, {
    scope: { documentIds: [minutes, handbook, minutes] },
  })
  expect(set.statusCode).toBe(200)
  expect(chatEndpoints.updateConversation.response.parse(set.json()).data.scope?.documentIds).toEqual([
    minutes,
    handbook,
  ])

  const renamed = await updateConversation(app, ada.cookie, conversation._id, { title: 'Hours' })
  expect(chatEndpoints.updateConversation.response.parse(renamed.json()).data).toMatchObject({
    title: 'Hours',
    scope: { documentIds: [minutes, handbook] },
  })

  const cleared = await updateConversation(app, ada.cookie, conversation._id, { scope: null })
  expect(chatEndpoints.updateConversation.response.parse(cleared.json()).data).toMatchObject({
    title: 'Hours',
    scope: null,
  })

  const nothing = await updateConversation(app, ada.cookie, conversation._id, {})
  expect(nothing.statusCode).toBe(400)
  expect(errorOf(nothing)).toBe('Send a title, a scope, or both')
})

test("another person's document, an unknown id or a removed one: 400 naming it, and nothing is stored", async () => {
  const bob = await newPerson(app, 'scope-bob')
  const bobs = await addLibraryDocument(app, bob.id, { name: 'bob.txt', text: 'Bob keeps his own notes.' })
  const unknown = crypto.randomUUID()
  const before = (await listConversations(app, ada.cookie)).length

  for (const id of [bobs, unknown]) {
    const refused = await createScoped(app, ada.cookie, 'Not mine', [handbook, id])
    expect(refused.statusCode).toBe(400)
    expect(errorOf(refused)).toBe(notInLibrary(id))
  }
  expect((await listConversations(app, ada.cookie)).length).toBe(before)

  const conversation = await createScopedOk(app, ada.cookie, 'Mine', [handbook])
  const patched = await updateConversation(app, ada.cookie, conversation._id, {
    scope: { documentIds: [canteen, bobs] },
  })
  expect(patched.statusCode).toBe(400)
  expect(errorOf(patched)).toBe(notInLibrary(bobs))
  const kept = (await listConversations(app, ada.cookie)).find((c) => c._id === conversation._id)
  expect(kept?.scope?.documentIds).toEqual([handbook])

  // Bob cannot reach Ada's conversation either: 404, as for a missing one.
  const theirs = await updateConversation(app, bob.cookie, conversation._id, { scope: null })
  expect(theirs.statusCode).toBe(404)
})

test.each([
  [{ documentIds: ['not-an-id'] }, 'Not a valid document id: not-an-id'],
  [{ documentIds: [] }, 'Choose at least one document (or send scope: null to search all your documents)'],
  [
    { documentIds: Array.from({ length: SCOPE_MAX_DOCUMENTS + 1 }, () => crypto.randomUUID()) },
    `A conversation can be limited to at most ${SCOPE_MAX_DOCUMENTS} documents`,
  ],
  [{ documentIds: [crypto.randomUUID()], extra: 1 }, 'Unknown field: extra'],
])('a scope of %j is refused with 400: %s', async (scope, message) => {
  const response = await call(app, chatEndpoints.createConversation, {
    cookie: ada.cookie,
    body: { title: 'Bad scope', scope },
  })
  expect(response.statusCode).toBe(400)
  expect(errorOf(response)).toBe(message)
})

test('a deleted document leaves every scope; once none is left the conversation says so instead of searching everything', async () => {
  const person = await newPerson(app, 'scope-delete')
  const upload = await addLibraryDocument(app, person.id, {
    name: 'memo.txt',
    text: 'The memo says the lift is fixed.',
  })
  const drive = await addLibraryDocument(app, person.id, {
    name: 'drive-memo.txt',
    text: 'The drive memo says the lift was inspected.',
    source: 'drive',
  })
  await addLibraryDocument(app, person.id, {
    name: 'other.txt',
    text: 'Another note says the lift is broken.',
  })
  const conversation = await createScopedOk(app, person.cookie, 'Lift', [upload, drive])

  const deleteDocument = (id: string) =>
    call(app, documentEndpoints.deleteDocument, { cookie: person.cookie, params: { id } })
  expect((await deleteDocument(upload)).statusCode).toBe(200)
  const scopeNow = async () =>
    (await listConversations(app, person.cookie)).find((c) => c._id === conversation._id)?.scope
  expect(await scopeNow()).toEqual({
    documentIds: [drive],
    documents: [{ id: drive, name: 'drive-memo.txt' }],
  })

  // A Drive file removed from the library keeps its row (excluded): it leaves the scope all the same.
  expect((await deleteDocument(drive)).statusCode).toBe(200)
  expect(await scopeNow()).toEqual({ documentIds: [], documents: [] })

  const { aiMessage } = await sendOk(app, person.cookie, conversation._id, 'Is the lift broken?')
  expect(aiMessage.content).toBe(EMPTY_SCOPE_REPLY)
  expect(aiMessage.sources).toEqual([])
})

test('a scoped answer quotes only its documents, although a better match lies outside', async () => {
  const question = 'When does the office open?'
  const everything = await createConversation(app, ada.cookie, 'All')
  const unscoped = await sendOk(app, ada.cookie, everything._id, question)
  // The test means something only if the whole library prefers the other document.
  expect(unscoped.aiMessage.sources[0]?.documentId).toBe(minutes)

  const scoped = await createScopedOk(app, ada.cookie, 'Handbook only', [handbook])
  const { aiMessage } = await sendOk(app, ada.cookie, scoped._id, question)
  expect(aiMessage.content.startsWith(NO_MODEL_NOTE)).toBe(true)
  expect(aiMessage.content).toContain('opens at eight')
  expect(aiMessage.content).not.toContain('nine')
  expect(aiMessage.sources.map((s) => [s.documentId, s.mode])).toEqual([[handbook, 'whole-document']])

  const nothing = await sendOk(app, ada.cookie, scoped._id, 'What does the canteen serve?')
  expect(nothing.aiMessage.content).toBe(NOTHING_FOUND_IN_SCOPE_REPLY)
})

test("a citation's document id is the library's: the same id lists it, cites it and scopes a conversation", async () => {
  const person = await newPerson(app, 'scope-id')
  const conversation = await createConversation(app, person.cookie, 'Upload')
  let text = 'The quarterly report names the auditor Finch and Partners.\n\n'
  while (text.length < 12 * 1024) text += 'The committee reviewed the figures again in detail. '
  const uploaded = await app.library.upload(person.id, conversation._id, {
    name: 'report.txt',
    mimeType: 'text/plain',
    bytes: new TextEncoder().encode(text),
  })
  expect(uploaded.status).toBe('ready')

  const { aiMessage } = await sendOk(app, person.cookie, conversation._id, 'Who is the auditor?')
  expect(aiMessage.sources[0]?.documentId).toBe(uploaded.id)
  const scoped = await createScopedOk(app, person.cookie, 'Report', [aiMessage.sources[0]?.documentId ?? ''])
  expect(scoped.scope?.documents).toEqual([{ id: uploaded.id, name: 'report.txt' }])
  expect(await conversationExists(app, scoped._id, person.id)).toBe(true)
})
