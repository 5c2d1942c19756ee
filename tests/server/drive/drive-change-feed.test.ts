/**
 * Syncs after the first one read Drive's change feed (D56): only files that were added,
 * edited, trashed or deleted are touched; files removed from the library stay out; a token Drive
 * refuses means one full listing; shared drives the person belongs to are synced, shortcuts
 * followed; Sheets, Slides and Word files are read. Counted at the emulator, call by call.
 */
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest'
import { documentEndpoints } from '#contracts/documents.ts'
import { createRetriever } from '#server/answering/retrieval.ts'
import type { App } from '#server/app.ts'
import { libraryDocuments } from '#server/db/schema.ts'
import { DOCX_MIME, docxFile } from '#tests/fakes/google/docx.ts'
import { createGoogleEmulator, type GoogleEmulator } from '#tests/fakes/google/emulator.ts'
import { ADA, BOB, FIXTURE_FILES, googleDocExports } from '#tests/fakes/google/fixtures.ts'
import { workbookFile, XLSX_MIME } from '#tests/fakes/google/xlsx.ts'
import { call } from '../support/chat-helpers.ts'
import {
  buildDriveApp,
  connectDrive,
  ingest,
  ingestOk,
  newPerson,
  type Person,
} from '../support/drive-helpers.ts'

let emulator: GoogleEmulator
let app: App

beforeAll(async () => {
  emulator = await createGoogleEmulator()
  app = await buildDriveApp(emulator)
})
afterAll(async () => {
  await app.close()
  await emulator.close()
})
beforeEach(() => {
  emulator.state.reset()
})

const F = FIXTURE_FILES
const SHORTCUT = 'application/vnd.google-apps.shortcut'

async function connected(account = ADA): Promise<Person> {
  const person = await newPerson(app)
  await connectDrive(app, person, { account })
  return person
}

/** Connected and synced once; the emulator's request log starts empty after. */
async function synced(account = ADA): Promise<Person> {
  const person = await connected(account)
  await ingestOk(app, person)
  emulator.state.clearRequests()
  return person
}

async function library(person: Person) {
  const response = await call(app, documentEndpoints.listDocuments, { cookie: person.cookie })
  return documentEndpoints.listDocuments.response.parse(response.json()).data.documents
}

/** A text file of Bob's, shared with Ada (what her shortcuts point to). */
const bobShares = (name: string, content: string) =>
  emulator.state.addFile({ owner: BOB, name, mimeType: 'text/plain', content, sharedWith: [ADA] })

const found = async (userId: string, question: string) =>
  (await createRetriever(app.db)(userId, question, 50)).map((p) => `${p.documentName}: ${p.text}`).join('\n')

/** The files the sync downloaded or exported, by id. */
const readIds = () =>
  emulator.state.requests
    .filter((r) => r.endpoint === 'files.media' || r.endpoint === 'files.export')
    .map((r) => r.path.split('/')[4])

test('the next sync reads only what changed: an edit and a new file are read, a trashed and a deleted file are removed', async () => {
  const ada = await synced()
  emulator.state.updateFile(F.notes.id, {
    content: 'Team notes\n\nStaging moved to the host indigo-db-42.\n',
  })
  const added = emulator.state.addFile({
    owner: ADA,
    name: 'harbour.txt',
    mimeType: 'text/plain',
    content: 'Harbour log: the pilot boat is called SEA-WREN.\n',
  })
  emulator.state.trashFile(F.meetingMinutes.id)
  emulator.state.removeFile(F.handbook.id)

  const report = await ingestOk(app, ada)

  expect(emulator.state.requestCounts()).toEqual({ 'changes.list': 1, 'files.media': 2 })
  expect(readIds().sort()).toEqual([F.notes.id, added.id].sort())
  expect(report.added).toEqual(['harbour.txt'])
  expect(report.updated).toEqual(['notes.txt'])
  expect(report.removed.sort()).toEqual(['Onboarding Handbook', 'meeting-minutes.md'])
  expect(report.unchanged).toHaveLength(22)
  expect(report.message).toMatch(/^Ingested 24 documents: 1 new, 1 updated, 22 unchanged, 2 removed\./)
  const names = (await library(ada)).map((d) => d.name)
  expect(names).toContain('harbour.txt')
  expect(names).not.toContain('meeting-minutes.md')
  expect(names).not.toContain('Onboarding Handbook')
  expect(await found(ada.id, 'pilot boat SEA-WREN')).toContain('harbour.txt')
  expect(await found(ada.id, 'indigo-db-42')).toContain('notes.txt')
  expect(await found(ada.id, 'cobalt-db-17')).not.toContain('cobalt-db-17')
  expect(await found(ada.id, 'BLUE HERON retrospective codename')).not.toContain('BLUE HERON')
  expect(await found(ada.id, 'NOVA-58 badge prefix')).not.toContain('NOVA-58')
})

test('a sync with nothing changed makes one call to Drive; a file restored from the trash comes back', async () => {
  const ada = await synced()

  await ingestOk(app, ada)
  expect(emulator.state.requestCounts()).toEqual({ 'changes.list': 1 })

  emulator.state.trashFile(F.notes.id)
  expect((await ingestOk(app, ada)).removed).toEqual(['notes.txt'])
  emulator.state.trashFile(F.notes.id, false)
  expect((await ingestOk(app, ada)).added).toEqual(['notes.txt'])
  expect(await found(ada.id, 'cobalt-db-17')).toContain('cobalt-db-17')
})

test('a file removed from the library stays out when it changes in Drive, and is never downloaded', async () => {
  const ada = await synced()
  const notes = (await library(ada)).find((d) => d.name === F.notes.name)
  await call(app, documentEndpoints.deleteDocument, { cookie: ada.cookie, params: { id: notes?.id ?? '' } })
  emulator.state.updateFile(F.notes.id, { content: 'Team notes\n\nThe staging host is now cobalt-db-18.\n' })

  const report = await ingestOk(app, ada)

  expect(emulator.state.requestCounts()).toEqual({ 'changes.list': 1 })
  expect([...report.added, ...report.updated]).toEqual([])
  expect(await found(ada.id, 'cobalt-db-18')).not.toContain('cobalt-db-18')
})

test('a change token Drive no longer accepts: one full listing again, and still only the changed file is read', async () => {
  const ada = await synced()
  emulator.state.expireChangeTokens()
  emulator.state.updateFile(F.notes.id, {
    content: 'Team notes\n\nStaging moved to the host indigo-db-42.\n',
  })

  const report = await ingestOk(app, ada)

  expect(emulator.state.requestCounts()).toEqual({
    'changes.list': 1,
    'changes.getStartPageToken': 1,
    'files.list': 3,
    'files.media': 1,
  })
  expect(emulator.state.requests.find((r) => r.endpoint === 'changes.list')?.status).toBe(400)
  expect(report.updated).toEqual(['notes.txt'])
  expect(report.unchanged).toHaveLength(24)
  // The new token works: the sync after reads the feed again.
  emulator.state.clearRequests()
  await ingestOk(app, ada)
  expect(emulator.state.requestCounts()).toEqual({ 'changes.list': 1 })
})

test('many changes span several pages of the feed; each new file is read once', async () => {
  const ada = await synced()
  for (let i = 1; i <= 23; i++) {
    emulator.state.addFile({
      owner: ADA,
      name: `log-${i}.txt`,
      mimeType: 'text/plain',
      content: `Log ${i} notes the buoy code BUOY-${700 + i}.\n`,
    })
  }

  const report = await ingestOk(app, ada)

  // The emulator's pages hold 10 changes.
  expect(emulator.state.requestCount('changes.list')).toBe(3)
  expect(emulator.state.requestCount('files.media')).toBe(23)
  expect(report.added).toHaveLength(23)
  expect(await found(ada.id, 'BUOY-723')).toContain('log-23.txt')
})

test('two syncs at once after the first read the change feed once and each changed file once', async () => {
  const ada = await synced()
  emulator.state.updateFile(F.notes.id, {
    content: 'Team notes\n\nStaging moved to the host indigo-db-42.\n',
  })
  emulator.state.setLatency(30)

  const [first, second] = await Promise.all([
    ingest(app, ada),
    new Promise((resolve) => setTimeout(resolve, 10)).then(() => ingest(app, ada)),
  ])
  emulator.state.setLatency(0)

  expect([first.statusCode, second.statusCode]).toEqual([200, 200])
  expect(emulator.state.requestCounts()).toEqual({ 'changes.list': 1, 'files.media': 1 })
})

test("shared drives: a member's shared-drive files are synced, another drive's are not, and edits there follow", async () => {
  const team = emulator.state.addSharedDrive({ name: 'Team', members: [ADA, BOB] })
  const bobsOwn = emulator.state.addSharedDrive({ name: 'Bob only', members: [BOB] })
  const plan = emulator.state.addFile({
    owner: BOB,
    driveId: team.id,
    parents: [team.id],
    name: 'team-plan.md',
    mimeType: 'text/markdown',
    content: '# Team plan\n\nThe offsite is at the lighthouse KESTREL-3.\n',
  })
  emulator.state.addFile({
    owner: BOB,
    driveId: bobsOwn.id,
    parents: [bobsOwn.id],
    name: 'bob-secret.txt',
    mimeType: 'text/plain',
    content: 'Bob alone knows the code MAGPIE-12.\n',
  })
  const ada = await connected()

  const first = await ingestOk(app, ada)

  expect(first.added).toContain('team-plan.md')
  expect(first.added).not.toContain('bob-secret.txt')
  expect(await found(ada.id, 'offsite lighthouse KESTREL-3')).toContain('team-plan.md')
  expect(await found(ada.id, 'MAGPIE-12')).not.toContain('MAGPIE-12')
  const listing = emulator.state.requests.find((r) => r.endpoint === 'files.list')?.query
  expect(listing).toMatchObject({
    corpora: 'allDrives',
    includeItemsFromAllDrives: 'true',
    supportsAllDrives: 'true',
  })

  emulator.state.clearRequests()
  emulator.state.updateFile(plan.id, {
    content: '# Team plan\n\nThe offsite moved to the harbour OSPREY-9.\n',
  })
  const second = await ingestOk(app, ada)
  expect(second.updated).toEqual(['team-plan.md'])
  expect(emulator.state.requestCounts()).toEqual({ 'changes.list': 1, 'files.media': 1 })
  expect(emulator.state.requests.find((r) => r.endpoint === 'changes.list')?.query).toMatchObject({
    includeItemsFromAllDrives: 'true',
    supportsAllDrives: 'true',
  })
  expect(await found(ada.id, 'OSPREY-9')).toContain('team-plan.md')
})

test('shortcuts are followed once, a shortcut to a listed file adds nothing, a broken one is skipped, and deleting the shortcut removes the document', async () => {
  const shared = bobShares('bob-recipes.txt', 'Bob bakes bread with the starter called HAZEL-44.\n')
  const toShared = emulator.state.addFile({
    owner: ADA,
    name: 'Recipes (shortcut)',
    mimeType: SHORTCUT,
    shortcutTargetId: shared.id,
  })
  emulator.state.addFile({
    owner: ADA,
    name: 'Notes (shortcut)',
    mimeType: SHORTCUT,
    shortcutTargetId: F.notes.id,
  })
  emulator.state.addFile({
    owner: ADA,
    name: 'Gone (shortcut)',
    mimeType: SHORTCUT,
    shortcutTargetId: 'no-such-file',
  })
  const ada = await connected()

  const first = await ingestOk(app, ada)

  expect(first.added).toContain('bob-recipes.txt')
  expect(first.skipped).toContainEqual({
    name: 'Gone (shortcut)',
    reason: 'the shortcut points to a file that is gone or not shared with you',
  })
  const names = (await library(ada)).map((d) => d.name)
  expect(names.filter((n) => n === 'notes.txt')).toHaveLength(1)
  expect(names.filter((n) => n.includes('shortcut'))).toEqual([])
  expect(await found(ada.id, 'bread starter HAZEL-44')).toContain('bob-recipes.txt')

  // Bob edits his file: Ada's next sync follows.
  emulator.state.clearRequests()
  emulator.state.updateFile(shared.id, { content: 'Bob now bakes with the starter called ROWAN-45.\n' })
  expect((await ingestOk(app, ada)).updated).toEqual(['bob-recipes.txt'])
  expect(emulator.state.requestCounts()).toEqual({ 'changes.list': 1, 'files.media': 1 })

  // Bob edits it again while Ada deletes the shortcut: the document goes, Bob's file stays.
  emulator.state.updateFile(shared.id, { content: 'Bob now bakes with the starter called ROWAN-46.\n' })
  emulator.state.removeFile(toShared.id)
  emulator.state.clearRequests()
  expect((await ingestOk(app, ada)).removed).toEqual(['bob-recipes.txt'])
  expect(emulator.state.requestCount('files.media')).toBe(0)
  expect(await found(ada.id, 'ROWAN-46')).not.toContain('ROWAN-46')
  expect(await found(ada.id, 'ROWAN-45')).not.toContain('ROWAN-45')
})

test('two shortcuts to one file: deleting the one it was reached through keeps the document, deleting both removes it', async () => {
  const shared = bobShares('bob-tides.txt', 'High tide at the north pier is marked KESTREL-17.\n')
  const shortcuts = ['Tides (shortcut)', 'Tides again (shortcut)'].map((name) =>
    emulator.state.addFile({ owner: ADA, name, mimeType: SHORTCUT, shortcutTargetId: shared.id }),
  )
  const ada = await connected()
  expect((await ingestOk(app, ada)).added).toContain('bob-tides.txt')
  const via = async () => {
    const [row] = await app.db
      .select({ via: libraryDocuments.viaShortcut })
      .from(libraryDocuments)
      .where(and(eq(libraryDocuments.userId, ada.id), eq(libraryDocuments.externalId, shared.id)))
    return row?.via
  }
  const recorded = await via()
  const other = shortcuts.find((s) => s.id !== recorded)
  expect(recorded).toBeDefined()
  expect(other).toBeDefined()

  // The shortcut it was recorded through goes; the other still points to the file.
  emulator.state.removeFile(recorded as string)
  emulator.state.clearRequests()
  const kept = await ingestOk(app, ada)
  expect(kept.removed).toEqual([])
  expect(kept.unchanged).toContain('bob-tides.txt')
  expect(emulator.state.requestCount('files.media')).toBe(0)
  expect(await via()).toBe(other?.id)
  expect(await found(ada.id, 'north pier KESTREL-17')).toContain('bob-tides.txt')

  // Then the last one goes too.
  emulator.state.removeFile(other?.id as string)
  expect((await ingestOk(app, ada)).removed).toEqual(['bob-tides.txt'])
  expect(await found(ada.id, 'north pier KESTREL-17')).not.toContain('KESTREL-17')
})

// Sheets now come as XLSX, every tab a table (D75): the CSV export (first tab only) goes unused.
test('Sheets as XLSX, Slides as text and Word files are read; a broken Word file fails alone; an old .doc is skipped', async () => {
  const ada = await synced()
  emulator.state.addFile({
    owner: ADA,
    name: 'Quarterly review',
    mimeType: 'application/vnd.google-apps.presentation',
    exports: { 'text/plain': '\uFEFFQuarterly review\r\n\r\nRevenue grew in the region code FJORD-21.\r\n' },
  })
  emulator.state.addFile({
    owner: ADA,
    name: 'fleet.docx',
    mimeType: DOCX_MIME,
    content: docxFile(['Fleet handbook', 'Every trawler carries the radio call sign TIDEPOOL-88.']),
  })
  emulator.state.addFile({ owner: ADA, name: 'torn.docx', mimeType: DOCX_MIME, content: 'not a zip at all' })
  emulator.state.addFile({ owner: ADA, name: 'legacy.doc', mimeType: 'application/msword', content: 'old' })
  emulator.state.addFile({
    owner: ADA,
    name: 'Inventory',
    mimeType: 'application/vnd.google-apps.spreadsheet',
    exports: {
      'text/csv': 'Item,Shelf\r\nLanterns,SHELF-LANTERN-7\r\n',
      [XLSX_MIME]: workbookFile([
        {
          name: 'Stock',
          rows: [
            ['Item', 'Shelf'],
            ['Lanterns', 'SHELF-LANTERN-7'],
          ],
        },
      ]),
      ...googleDocExports('unused'),
    },
  })

  const report = await ingestOk(app, ada)

  expect(report.added.sort()).toEqual(['Inventory', 'Quarterly review', 'fleet.docx'])
  expect(report.failed).toContainEqual({
    name: 'torn.docx',
    reason: 'the file is not a readable Word document',
  })
  expect(report.skipped).toContainEqual({
    name: 'legacy.doc',
    reason: 'old Word files (.doc) are not supported',
  })
  expect(await found(ada.id, 'radio call sign TIDEPOOL-88')).toContain(
    'fleet.docx: Fleet handbook\n\nEvery trawler carries the radio call sign TIDEPOOL-88.',
  )
  expect(await found(ada.id, 'region code FJORD-21')).toContain('Quarterly review')
  expect(await found(ada.id, 'SHELF-LANTERN-7')).toContain(
    'Inventory: Stock\n\nItem: Lanterns · Shelf: SHELF-LANTERN-7',
  )
  const exports = emulator.state.requests
    .filter((r) => r.endpoint === 'files.export')
    .map((r) => r.query.mimeType)
  expect(exports.sort()).toEqual([XLSX_MIME, 'text/plain'])
})

test('after connecting again (here as another Google account) the next sync lists the whole Drive once', async () => {
  const person = await synced()
  await connectDrive(app, person, { account: BOB })
  emulator.state.clearRequests()

  const report = await ingestOk(app, person)

  expect(emulator.state.requestCount('changes.list')).toBe(0)
  expect(emulator.state.requestCount('files.list')).toBe(1)
  expect(report.added).toEqual(['bob-notes.txt'])
  expect(report.removed).toHaveLength(25)
  emulator.state.clearRequests()
  await ingestOk(app, person)
  expect(emulator.state.requestCounts()).toEqual({ 'changes.list': 1 })
})

test('a file edited while the first listing runs is caught by the next sync', async () => {
  const ada = await connected()
  emulator.state.setLatency(100)
  const first = ingest(app, ada)
  // The second page is asked for: the first, with notes.txt as it was, has been answered.
  await expect.poll(() => emulator.state.requestCount('files.list'), { timeout: 10_000 }).toBeGreaterThan(1)
  emulator.state.updateFile(F.notes.id, {
    content: 'Team notes\n\nStaging moved to the host indigo-db-42.\n',
  })
  expect((await first).statusCode).toBe(200)
  emulator.state.setLatency(0)
  emulator.state.clearRequests()

  await ingestOk(app, ada)

  // The edit is in the feed (the token predates the listing), so the file is read at its revision.
  expect(readIds()).toEqual([F.notes.id])
  expect(await found(ada.id, 'indigo-db-42')).toContain('notes.txt')
  expect(await found(ada.id, 'cobalt-db-17')).not.toContain('cobalt-db-17')
})
