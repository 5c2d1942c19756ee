/**
 * The assistants' calls (issue 36, D113): create, list, get, edit and delete, with every check:
 * another person's assistant is not found (404), a document or Drive folder that is not theirs
 * is refused naming it (400), the limits (100 a person, 500 documents, 50 folders) and bad fields
 * answer 400 with a sentence, a model only from LLM_MODELS. A conversation may be with an
 * assistant; once the assistant is deleted it stays, marked, and answers that it was deleted.
 * Folders come from a DriveFolders made of maps (the real sync's are the Drive helper's tests).
 * With TEST_DATABASE_URL set the same file runs on PostgreSQL.
 */
import { afterAll, beforeAll, expect, test } from 'vitest'
import {
  ASSISTANTS_PER_PERSON,
  assistantEndpoints,
  DEFAULT_FALLBACK_ANSWER,
  KNOWLEDGE_MAX_DOCUMENTS,
  KNOWLEDGE_MAX_FOLDERS,
} from '#contracts/assistants.ts'
import { chatEndpoints } from '#contracts/chat.ts'
import type { App } from '#server/app.ts'
import {
  ASSISTANT_NOT_FOUND,
  documentNotInLibrary,
  folderNotInDrive,
  modelNotOffered,
  TOO_MANY_ASSISTANTS,
} from '#server/assistants/assistant-errors.ts'
import { DELETED_ASSISTANT_REPLY } from '#server/assistants/assistants-service.ts'
import {
  createAssistant,
  createAssistantOk,
  createWithAssistantOk,
  type FakeFolder,
  fakeDriveFolders,
} from '../support/assistant-helpers.ts'
import { call, errorOf, listConversations, sendOk } from '../support/chat-helpers.ts'
import { newPerson, type Person } from '../support/drive-helpers.ts'
import { buildTestApp } from '../support/helper.ts'
import { addLibraryDocument } from '../support/library-helpers.ts'

let app: App
const folders = new Map<string, Map<string, FakeFolder>>()
const gone = new Set<string>()

beforeAll(async () => {
  app = await buildTestApp({
    env: { LLM_BASE_URL: 'http://127.0.0.1:9/v1', LLM_MODEL: 'default-model', LLM_MODELS: 'small, large' },
    driveFolders: fakeDriveFolders(folders, gone),
  })
}, 60_000)
afterAll(async () => {
  await app?.close()
})

const get = (cookie: string, id: string) =>
  call(app, assistantEndpoints.getAssistant, { cookie, params: { id } })
const patch = (cookie: string, id: string, body: unknown) =>
  call(app, assistantEndpoints.updateAssistant, { cookie, params: { id }, body })
const remove = (cookie: string, id: string) =>
  call(app, assistantEndpoints.deleteAssistant, { cookie, params: { id } })

async function personWithFolder(prefix: string): Promise<Person & { doc: string }> {
  const person = await newPerson(app, prefix)
  const doc = await addLibraryDocument(app, person.id, {
    name: 'handbook.txt',
    text: 'Holidays are 25 days.',
  })
  folders.set(person.id, new Map([['hr-folder', { name: 'HR', documentIds: [doc] }]]))
  return { ...person, doc }
}

test('an assistant made with a name only gets the defaults; edited, listed and read back as saved', async () => {
  const person = await personWithFolder('assistant-crud')
  const created = await createAssistantOk(app, person.cookie, { name: '  HR bot ' })
  expect(created).toMatchObject({
    name: 'HR bot',
    description: '',
    instructions: '',
    starterQuestions: [],
    answerPolicy: 'documents-only',
    fallbackAnswer: DEFAULT_FALLBACK_ANSWER,
    temperature: null,
    maxAnswerTokens: null,
    model: null,
    knowledge: { documentIds: [], folderIds: [], documents: [], folders: [] },
  })

  const edited = await patch(person.cookie, created._id, {
    description: 'Answers from the HR folder',
    instructions: 'Be friendly.',
    starterQuestions: ['How many holidays?'],
    answerPolicy: 'documents-first',
    knowledge: { documentIds: [person.doc.toUpperCase(), person.doc], folderIds: ['hr-folder'] },
    temperature: 0.7,
    maxAnswerTokens: 300,
    model: 'large',
  })
  expect(edited.statusCode).toBe(200)
  const saved = assistantEndpoints.getAssistant.response.parse(
    (await get(person.cookie, created._id)).json(),
  ).data
  expect(saved).toMatchObject({
    name: 'HR bot',
    instructions: 'Be friendly.',
    answerPolicy: 'documents-first',
    temperature: 0.7,
    maxAnswerTokens: 300,
    model: 'large',
    knowledge: {
      documentIds: [person.doc],
      folderIds: ['hr-folder'],
      documents: [{ id: person.doc, name: 'handbook.txt' }],
      folders: [{ id: 'hr-folder', name: 'HR', missing: false, documentCount: 1 }],
    },
  })
  // A folder deleted in Drive stays chosen, and the page can say it is missing.
  gone.add('hr-folder')
  const missing = assistantEndpoints.getAssistant.response.parse(
    (await get(person.cookie, created._id)).json(),
  )
  expect(missing.data.knowledge.folders).toEqual([
    { id: 'hr-folder', name: 'HR', missing: true, documentCount: 0 },
  ])
  gone.delete('hr-folder')

  const list = await call(app, assistantEndpoints.listAssistants, { cookie: person.cookie })
  expect(assistantEndpoints.listAssistants.response.parse(list.json()).data).toEqual([
    expect.objectContaining({ _id: created._id, name: 'HR bot', documentCount: 1, folderCount: 1 }),
  ])
  const options = await call(app, assistantEndpoints.assistantOptions, { cookie: person.cookie })
  expect(options.json().data).toEqual({ models: ['small', 'large'] })

  expect((await remove(person.cookie, created._id)).statusCode).toBe(200)
  expect((await get(person.cookie, created._id)).statusCode).toBe(404)
})

test("another person's assistant answers 404 on every call, and a conversation cannot be with it", async () => {
  const owner = await personWithFolder('assistant-owner')
  const other = await newPerson(app, 'assistant-other')
  const { _id } = await createAssistantOk(app, owner.cookie, { name: 'Mine' })
  for (const response of [
    await get(other.cookie, _id),
    await patch(other.cookie, _id, { name: 'Taken' }),
    await patch(other.cookie, _id, { knowledge: { documentIds: [owner.doc], folderIds: [] } }),
    await remove(other.cookie, _id),
    await call(app, chatEndpoints.createConversation, {
      cookie: other.cookie,
      body: { title: 'Hi', assistantId: _id },
    }),
  ]) {
    expect(response.statusCode).toBe(404)
    expect(errorOf(response)).toBe(ASSISTANT_NOT_FOUND)
  }
  expect((await get(owner.cookie, _id)).json().data.name).toBe('Mine')
})

test('a document or folder that is not the person’s is refused naming it, and nothing is stored', async () => {
  const person = await personWithFolder('assistant-ids')
  const stranger = await personWithFolder('assistant-stranger')
  const unknown = crypto.randomUUID()
  for (const [documentIds, named] of [
    [[person.doc, unknown], unknown],
    [[stranger.doc], stranger.doc],
  ] as const) {
    const response = await createAssistant(app, person.cookie, {
      name: 'Bot',
      knowledge: { documentIds, folderIds: [] },
    })
    expect(response.statusCode).toBe(400)
    expect(errorOf(response)).toBe(documentNotInLibrary(named))
  }
  const folder = await createAssistant(app, person.cookie, {
    name: 'Bot',
    knowledge: { documentIds: [], folderIds: ['hr-folder', 'not-a-folder'] },
  })
  expect(folder.statusCode).toBe(400)
  expect(errorOf(folder)).toBe(folderNotInDrive('not-a-folder'))

  const { _id } = await createAssistantOk(app, person.cookie, {
    name: 'Bot',
    knowledge: { documentIds: [person.doc], folderIds: [] },
  })
  const edit = await patch(person.cookie, _id, {
    name: 'Renamed',
    knowledge: { documentIds: [unknown], folderIds: [] },
  })
  expect(edit.statusCode).toBe(400)
  expect(errorOf(edit)).toBe(documentNotInLibrary(unknown))
  // All or nothing: neither the name nor the knowledge changed.
  expect((await get(person.cookie, _id)).json().data).toMatchObject({
    name: 'Bot',
    knowledge: { documentIds: [person.doc] },
  })
  const list = await call(app, assistantEndpoints.listAssistants, { cookie: person.cookie })
  expect(list.json().data).toHaveLength(1)
})

test('bad fields and limits answer 400 with a sentence; a model only from LLM_MODELS', async () => {
  const person = await newPerson(app, 'assistant-fields')
  const ids = (n: number) => Array.from({ length: n }, () => crypto.randomUUID())
  const refused: [Record<string, unknown>, string][] = [
    [{ name: '' }, 'Name is required'],
    [{ name: 'x'.repeat(81) }, 'Name must be at most 80 characters'],
    [{ name: 'Bot', temperature: 3 }, 'Temperature must be between 0 and 2'],
    [{ name: 'Bot', maxAnswerTokens: 10 }, 'The longest answer must be at least 50 tokens'],
    [{ name: 'Bot', answerPolicy: 'anything' }, 'answerPolicy must be "documents-only" or "documents-first"'],
    [{ name: 'Bot', starterQuestions: ['a', 'b', 'c', 'd', 'e', 'f', 'g'] }, 'at most 6 starter questions'],
    [{ name: 'Bot', instructions: 'x'.repeat(8001) }, 'Instructions must be at most 8000 characters'],
    [
      { name: 'Bot', knowledge: { documentIds: ids(KNOWLEDGE_MAX_DOCUMENTS + 1), folderIds: [] } },
      `at most ${KNOWLEDGE_MAX_DOCUMENTS} documents`,
    ],
    [
      { name: 'Bot', knowledge: { documentIds: [], folderIds: ids(KNOWLEDGE_MAX_FOLDERS + 1) } },
      `at most ${KNOWLEDGE_MAX_FOLDERS} Drive folders`,
    ],
    [{ name: 'Bot', model: 'gpt-unknown' }, modelNotOffered('gpt-unknown', ['small', 'large'])],
  ]
  for (const [body, sentence] of refused) {
    const response = await createAssistant(app, person.cookie, body)
    expect(response.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400)
    expect(errorOf(response)).toContain(sentence)
  }
  expect((await createAssistantOk(app, person.cookie, { name: 'Bot', model: 'small' })).model).toBe('small')
})

test(`a person may have ${ASSISTANTS_PER_PERSON} assistants; one more is refused until one is deleted`, async () => {
  const person = await newPerson(app, 'assistant-limit')
  let last = ''
  for (let i = 0; i < ASSISTANTS_PER_PERSON; i++)
    last = (await createAssistantOk(app, person.cookie, { name: `Bot ${i}` }))._id
  const refused = await createAssistant(app, person.cookie, { name: 'One more' })
  expect(refused.statusCode).toBe(400)
  expect(errorOf(refused)).toBe(TOO_MANY_ASSISTANTS)
  await remove(person.cookie, last)
  expect((await createAssistant(app, person.cookie, { name: 'One more' })).statusCode).toBe(201)
}, 120_000)

test('a deleted assistant’s conversations stay, marked deleted under its last name, and say so when asked', async () => {
  const person = await personWithFolder('assistant-deleted')
  const { _id } = await createAssistantOk(app, person.cookie, {
    name: 'Old name',
    knowledge: { documentIds: [person.doc], folderIds: [] },
  })
  const conversation = await createWithAssistantOk(app, person.cookie, _id)
  expect(conversation.assistant).toEqual({ id: _id, name: 'Old name', deleted: false })
  await patch(person.cookie, _id, { name: 'HR bot' })
  expect((await listConversations(app, person.cookie))[0]?.assistant).toEqual({
    id: _id,
    name: 'HR bot',
    deleted: false,
  })
  const plain = await call(app, chatEndpoints.createConversation, {
    cookie: person.cookie,
    body: { title: 'x' },
  })
  expect(plain.json().data.assistant).toBeNull()

  await remove(person.cookie, _id)
  const listed = await listConversations(app, person.cookie)
  expect(listed.find((c) => c._id === conversation._id)?.assistant).toEqual({
    id: _id,
    name: 'HR bot',
    deleted: true,
  })
  const { aiMessage } = await sendOk(app, person.cookie, conversation._id, 'How many holidays are there?')
  expect(aiMessage.content).toBe(DELETED_ASSISTANT_REPLY)
  expect(aiMessage.sources).toEqual([])
})
