/**
 * The document library (contracts/documents.ts) after a Drive sync: every file with its status,
 * reason, pages and chunks; deleting a document takes its passages at once and keeps the Drive
 * file out of later syncs; a failed one can be retried; another person's ids answer like missing
 * ones; and a sync interrupted by a dead process is finished by the next one to claim its jobs.
 */
import { expect, test } from 'vitest'
import { documentEndpoints, type LibraryDocument } from '#contracts/documents.ts'
import { driveEndpoints } from '#contracts/drive.ts'
import { createRetriever } from '#server/answering/retrieval.ts'
import type { App } from '#server/app.ts'
import type { GoogleEmulator } from '#tests/fakes/google/emulator.ts'
import { ADA, FIXTURE_FILES } from '#tests/fakes/google/fixtures.ts'
import { call, errorOf } from '../support/chat-helpers.ts'
import {
  connectDrive,
  connectionRow,
  ingestOk,
  newPerson,
  type Person,
  setUpDriveApp,
} from '../support/drive-helpers.ts'

let emulator: GoogleEmulator
let app: App

setUpDriveApp((started) => {
  ;({ emulator, app } = started)
})

const F = FIXTURE_FILES
const { listDocuments, deleteDocument, retryDocument, restoreDocument, firstRun } = documentEndpoints

async function synced(): Promise<Person> {
  const person = await newPerson(app)
  await connectDrive(app, person, { account: ADA })
  await ingestOk(app, person)
  emulator.state.clearRequests()
  return person
}

async function library(person: Person) {
  const response = await call(app, listDocuments, { cookie: person.cookie })
  expect(response.statusCode).toBe(200)
  return listDocuments.response.parse(response.json()).data
}

async function byName(person: Person, name: string): Promise<LibraryDocument> {
  const found = (await library(person)).documents.find((d) => d.name === name)
  if (!found) throw new Error(`${name} is not in the library`)
  return found
}

const found = async (userId: string, question: string) =>
  (await createRetriever(app.db)(userId, question, 50)).map((p) => `${p.documentName}: ${p.text}`).join('\n')

test('after a sync the library lists every file with its outcome, pages and chunks', async () => {
  const ada = await synced()

  const { documents, progress } = await library(ada)

  expect(progress).toEqual({ running: false, done: 29, total: 29 })
  expect(documents.filter((d) => d.status === 'ready')).toHaveLength(25)
  expect(documents.every((d) => d.source === 'drive')).toBe(true)
  const brief = documents.find((d) => d.name === F.zephyrBrief.name)
  expect(brief).toMatchObject({ status: 'ready', mimeType: 'application/pdf', reason: null })
  expect(brief?.pages).toBeGreaterThanOrEqual(2)
  expect(brief?.chunks).toBeGreaterThan(0)
  expect(brief?.webViewLink).toMatch(/^https?:\/\//)
  expect(Number.isNaN(Date.parse(brief?.updatedAt ?? ''))).toBe(false)
  // The Drive file it was read from and when that file last changed (the Documents table's row).
  expect(brief?.driveFileId).toBe(F.zephyrBrief.id)
  expect(brief?.modifiedTime).toBe(new Date(F.zephyrBrief.modifiedTime).toISOString())
  expect(documents.find((d) => d.name === 'broken-scan.pdf')).toMatchObject({
    status: 'failed',
    reason: 'the file is not a readable PDF',
    chunks: null,
  })
  expect(documents.find((d) => d.name === 'Budget 2027')).toMatchObject({ status: 'ready', reason: null })
  // Tests run with OCR off: the photo is skipped, saying why (with OCR on it is read: ocr.test.ts).
  expect(documents.find((d) => d.name === 'whiteboard.png')).toMatchObject({
    status: 'skipped',
    reason: 'images are read by OCR, which is turned off on this server',
    ocrPages: null,
  })
})

test('the library needs a signed-in person and is empty before any sync', async () => {
  expect((await call(app, listDocuments)).statusCode).toBe(401)
  const newcomer = await newPerson(app)
  expect(await library(newcomer)).toEqual({
    documents: [],
    progress: { running: false, done: 0, total: 0 },
    removed: [],
  })
})

test("the empty chat's first run: how many documents are ready, and questions from their own headings", async () => {
  const newcomer = await newPerson(app)
  const before = await call(app, firstRun, { cookie: newcomer.cookie })
  expect(before.statusCode).toBe(200)
  expect(firstRun.response.parse(before.json()).data).toEqual({ ready: 0, questions: [] })
  expect((await call(app, firstRun)).statusCode).toBe(401)

  const ada = await synced()
  const { data } = firstRun.response.parse((await call(app, firstRun, { cookie: ada.cookie })).json())

  const ready = (await library(ada)).documents.filter((d) => d.status === 'ready')
  expect(data.ready).toBe(ready.length)
  expect(data.questions).toHaveLength(3)
  // Each about a different ready document, by a heading found in it.
  const named = data.questions.map((q) => ready.find((d) => q.startsWith(`What does ${d.name} say about “`)))
  expect(new Set(named.map((d) => d?.id)).size).toBe(3)
  expect(named.every((d) => d !== undefined)).toBe(true)
  // A heading that only repeats its document's name ("Onboarding Handbook" in "Onboarding Handbook") is passed over.
  for (const [i, question] of data.questions.entries()) {
    const heading = /“(.+)”\?$/.exec(question)?.[1] ?? ''
    expect(heading.toLowerCase()).not.toBe(named[i]?.name.replace(/\.[^.]*$/, '').toLowerCase())
  }
  // The newcomer's answer is still their own.
  expect(
    firstRun.response.parse((await call(app, firstRun, { cookie: newcomer.cookie })).json()).data.ready,
  ).toBe(0)
})

test('deleting a document removes its passages at once, and the next sync leaves the Drive file out', async () => {
  const ada = await synced()
  const notes = await byName(ada, F.notes.name)
  expect(await found(ada.id, 'cobalt-db-17')).toContain('cobalt-db-17')

  const response = await call(app, deleteDocument, { cookie: ada.cookie, params: { id: notes.id } })

  expect(response.statusCode).toBe(200)
  expect(await found(ada.id, 'cobalt-db-17')).not.toContain('cobalt-db-17')
  expect((await library(ada)).documents.map((d) => d.name)).not.toContain(F.notes.name)
  emulator.state.updateFile(F.notes.id, { content: 'Team notes\n\nThe staging host is now cobalt-db-18.\n' })
  const report = await ingestOk(app, ada)
  expect(report.added).not.toContain(F.notes.name)
  expect(report.updated).not.toContain(F.notes.name)
  expect(emulator.state.requestCount('files.media')).toBe(0)
  expect(await found(ada.id, 'cobalt-db-18')).not.toContain('cobalt-db-18')
  expect((await call(app, deleteDocument, { cookie: ada.cookie, params: { id: notes.id } })).statusCode).toBe(
    404,
  )
})

test("another person's document answers 404 like a missing one, to delete and to retry; a bad id is 400", async () => {
  const ada = await synced()
  const bob = await newPerson(app)
  const adas = await byName(ada, 'broken-scan.pdf')
  const missing = '0b5c7a52-6c2f-4f4e-9a51-5d1c43e0a111'

  for (const endpoint of [deleteDocument, retryDocument]) {
    const theirs = await call(app, endpoint, { cookie: bob.cookie, params: { id: adas.id } })
    const none = await call(app, endpoint, { cookie: bob.cookie, params: { id: missing } })
    expect(theirs.statusCode).toBe(404)
    expect(none.statusCode).toBe(404)
    expect(theirs.json()).toEqual(none.json())
    expect(errorOf(theirs)).toBe('Document not found.')
    const bad = await call(app, endpoint, { cookie: bob.cookie, params: { id: 'not-an-id' } })
    expect(bad.statusCode).toBe(400)
  }
  expect(await byName(ada, 'broken-scan.pdf')).toEqual(adas)
})

test('a removed Drive file is listed as removed, and adding it back reads it again and lets syncs follow it', async () => {
  const ada = await synced()
  const notes = await byName(ada, F.notes.name)
  await call(app, deleteDocument, { cookie: ada.cookie, params: { id: notes.id } })
  emulator.state.updateFile(F.notes.id, { content: 'Team notes\n\nThe staging host is now cobalt-db-18.\n' })
  await ingestOk(app, ada)
  expect((await library(ada)).removed).toEqual([
    expect.objectContaining({
      id: notes.id,
      name: F.notes.name,
      status: 'skipped',
      reason: 'removed from the library',
    }),
  ])

  const response = await call(app, restoreDocument, { cookie: ada.cookie, params: { id: notes.id } })

  expect(response.statusCode).toBe(200)
  expect(restoreDocument.response.parse(response.json()).data).toMatchObject({
    id: notes.id,
    status: 'queued',
  })
  await expect.poll(async () => (await byName(ada, F.notes.name)).status, { timeout: 15_000 }).toBe('ready')
  expect((await library(ada)).removed).toEqual([])
  expect(await found(ada.id, 'cobalt-db-18')).toContain('cobalt-db-18')
  // Syncs follow it again.
  emulator.state.updateFile(F.notes.id, { content: 'Team notes\n\nThe staging host is now cobalt-db-19.\n' })
  expect((await ingestOk(app, ada)).updated).toEqual([F.notes.name])
  expect(await found(ada.id, 'cobalt-db-19')).toContain('cobalt-db-19')
})

test("adding back: another person's id answers 404 like a missing one, a document still in the library 409", async () => {
  const ada = await synced()
  const bob = await newPerson(app)
  const notes = await byName(ada, F.notes.name)
  await call(app, deleteDocument, { cookie: ada.cookie, params: { id: notes.id } })
  const missing = '0b5c7a52-6c2f-4f4e-9a51-5d1c43e0a111'

  const theirs = await call(app, restoreDocument, { cookie: bob.cookie, params: { id: notes.id } })
  const none = await call(app, restoreDocument, { cookie: bob.cookie, params: { id: missing } })
  const present = await byName(ada, F.zephyrBrief.name)
  const notRemoved = await call(app, restoreDocument, { cookie: ada.cookie, params: { id: present.id } })
  const bad = await call(app, restoreDocument, { cookie: ada.cookie, params: { id: 'not-an-id' } })

  expect(theirs.statusCode).toBe(404)
  expect(theirs.json()).toEqual(none.json())
  expect(errorOf(theirs)).toBe('Document not found.')
  expect(notRemoved.statusCode).toBe(409)
  expect(errorOf(notRemoved)).toBe('Only a document removed from the library can be added back.')
  expect(bad.statusCode).toBe(400)
  expect((await library(ada)).removed.map((d) => d.id)).toEqual([notes.id])
})

test('a removed file that is deleted from Drive is forgotten', async () => {
  const ada = await synced()
  const notes = await byName(ada, F.notes.name)
  await call(app, deleteDocument, { cookie: ada.cookie, params: { id: notes.id } })
  emulator.state.removeFile(F.notes.id)

  const report = await ingestOk(app, ada)

  expect(report.removed).toEqual([])
  expect((await library(ada)).removed).toEqual([])
})

test('a failed document can be retried: after the file is fixed in Drive it becomes ready', async () => {
  const ada = await synced()
  const broken = await byName(ada, 'broken-scan.pdf')
  const ready = await byName(ada, F.notes.name)
  const refused = await call(app, retryDocument, { cookie: ada.cookie, params: { id: ready.id } })
  expect(refused.statusCode).toBe(409)
  expect(errorOf(refused)).toBe('Only a document that could not be read can be retried.')
  const { PDFDocument, StandardFonts } = await import('pdf-lib')
  const doc = await PDFDocument.create()
  const font = await doc.embedFont(StandardFonts.Helvetica)
  doc.addPage([400, 300]).drawText('The retried survey mentions pier 12.', { x: 20, y: 250, size: 11, font })
  emulator.state.updateFile(F.brokenPdf.id, { content: await doc.save() })

  const response = await call(app, retryDocument, { cookie: ada.cookie, params: { id: broken.id } })

  expect(response.statusCode).toBe(200)
  expect(retryDocument.response.parse(response.json()).data).toMatchObject({
    id: broken.id,
    status: 'queued',
  })
  await expect
    .poll(async () => (await byName(ada, 'broken-scan.pdf')).status, { timeout: 15_000 })
    .toBe('ready')
  expect(await found(ada.id, 'retried survey pier 12')).toContain('pier 12')
})

test('disconnecting Drive revokes the grant at Google and deletes the tokens; the documents are kept or removed', async () => {
  const { disconnect } = driveEndpoints
  const keeper = await synced()
  const remover = await synced()

  const kept = await call(app, disconnect, { cookie: keeper.cookie, body: { documents: 'keep' } })
  const removed = await call(app, disconnect, { cookie: remover.cookie, body: { documents: 'remove' } })

  expect(kept.statusCode).toBe(200)
  expect(disconnect.response.parse(kept.json()).data).toEqual({ removedDocuments: 0 })
  expect(disconnect.response.parse(removed.json()).data).toEqual({ removedDocuments: 29 })
  for (const person of [keeper, remover]) expect(await connectionRow(app, person.id)).toBeUndefined()
  expect(emulator.state.activeGrants(ADA)).toEqual([])
  expect((await library(keeper)).documents.filter((d) => d.status === 'ready')).toHaveLength(25)
  expect(await found(keeper.id, 'cobalt-db-17')).toContain('cobalt-db-17')
  expect(await library(remover)).toEqual({
    documents: [],
    progress: { running: false, done: 0, total: 0 },
    removed: [],
  })
  expect(await found(remover.id, 'cobalt-db-17')).toBe('')
  const bad = await call(app, disconnect, { cookie: keeper.cookie, body: { documents: 'maybe' } })
  expect(bad.statusCode).toBe(400)
})
