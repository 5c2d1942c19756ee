/**
 * Drive folders as an assistant's knowledge (issue 36, D115): the sync records the Drive's folders
 * and the folders each file sits in, and `app.driveFolders` answers "the documents of this folder
 * and its subfolders, now" after every sync, full listing or change feed: new files join, files
 * moved out, deleted or trashed leave, a deleted folder is missing. Through the real app against
 * the Google emulator; each person sees only their own Drive's folders.
 */
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest'
import { assistantEndpoints } from '#contracts/assistants.ts'
import { documentEndpoints } from '#contracts/documents.ts'
import { driveEndpoints } from '#contracts/drive.ts'
import type { App } from '#server/app.ts'
import { createGoogleEmulator, type GoogleEmulator } from '#tests/fakes/google/emulator.ts'
import { ADA, BOB, FIXTURE_FILES, MIME } from '#tests/fakes/google/fixtures.ts'
import { call } from '../support/chat-helpers.ts'
import { buildDriveApp, connectDrive, ingestOk, newPerson, type Person } from '../support/drive-helpers.ts'
import { buildTestApp } from '../support/helper.ts'

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

const SHORTCUT = 'application/vnd.google-apps.shortcut'

function folder(name: string, parent?: string, owner = ADA): string {
  return emulator.state.addFile({
    owner,
    name,
    mimeType: MIME.folder,
    ...(parent ? { parents: [parent] } : {}),
  }).id
}

function textFile(name: string, parent?: string, owner = ADA): string {
  return emulator.state.addFile({
    owner,
    name,
    mimeType: 'text/plain',
    content: `${name} says hello.\n`,
    ...(parent ? { parents: [parent] } : {}),
  }).id
}

async function connected(account = ADA): Promise<Person> {
  const person = await newPerson(app, 'folders')
  await connectDrive(app, person, { account })
  return person
}

/** The library's document id of each name. */
async function libraryIds(person: Person): Promise<Map<string, string>> {
  const response = await call(app, documentEndpoints.listDocuments, { cookie: person.cookie })
  const { documents } = documentEndpoints.listDocuments.response.parse(response.json()).data
  return new Map(documents.map((d) => [d.name, d.id]))
}

/** The names of the documents in `folderIds` (with subfolders), sorted. */
async function namesIn(person: Person, folderIds: string[]): Promise<string[]> {
  const byId = new Map([...(await libraryIds(person))].map(([name, id]) => [id, name]))
  const ids = await app.driveFolders.documentIdsIn(person.id, folderIds)
  return ids.map((id) => byId.get(id) ?? id).sort()
}

function listFolders(cookie?: string) {
  return call(app, assistantEndpoints.listDriveFolders, cookie ? { cookie } : {})
}

async function folders(person: Person) {
  const response = await listFolders(person.cookie)
  expect(response.statusCode).toBe(200)
  return assistantEndpoints.listDriveFolders.response.parse(response.json()).data
}

/** HR › Policies › Leave, a file at each level, and one file outside HR. */
function hrTree() {
  const hr = folder('HR')
  const policies = folder('Policies', hr)
  const leave = folder('Leave', policies)
  textFile('handbook.txt', hr)
  textFile('conduct.txt', policies)
  textFile('parental-leave.txt', leave)
  textFile('lunch-menu.txt')
  return { hr, policies, leave }
}

test('the folders call lists the connected Drive’s folders with their parents; a top folder’s parent is null', async () => {
  const { hr, policies, leave } = hrTree()
  const trashed = folder('Old stuff')
  emulator.state.trashFile(trashed)
  const ada = await connected()
  await ingestOk(app, ada)

  const listed = await folders(ada)

  expect(listed).toEqual(
    expect.arrayContaining([
      { id: hr, name: 'HR', parentId: null },
      { id: policies, name: 'Policies', parentId: hr },
      { id: leave, name: 'Leave', parentId: policies },
      { id: FIXTURE_FILES.projectsFolder.id, name: 'Projects', parentId: null },
    ]),
  )
  expect(listed).toHaveLength(4)
  // Folders are no documents: none of them is in the library.
  expect([...(await libraryIds(ada)).keys()]).not.toContain('HR')
})

test('a folder’s documents include its subfolders’ at any depth, and nothing outside it', async () => {
  const { hr, policies, leave } = hrTree()
  const ada = await connected()
  await ingestOk(app, ada)

  expect(await namesIn(ada, [hr])).toEqual(['conduct.txt', 'handbook.txt', 'parental-leave.txt'])
  expect(await namesIn(ada, [policies])).toEqual(['conduct.txt', 'parental-leave.txt'])
  expect(await namesIn(ada, [leave, policies])).toEqual(['conduct.txt', 'parental-leave.txt'])
  expect(await namesIn(ada, [FIXTURE_FILES.projectsFolder.id])).toEqual(['meeting-minutes.md'])
  expect(await app.driveFolders.describe(ada.id, [leave, hr])).toEqual([
    { id: leave, name: 'Leave', missing: false, documentCount: 1 },
    { id: hr, name: 'HR', missing: false, documentCount: 3 },
  ])
})

test('after a sync, a new file in a subfolder joins, a file moved out leaves, a deleted and a trashed file leave', async () => {
  const { hr, leave } = hrTree()
  const sick = textFile('sick-leave.txt', leave)
  const ada = await connected()
  await ingestOk(app, ada)
  const conduct = emulator.state.listFiles(ADA).find((f) => f.name === 'conduct.txt')?.id ?? ''
  const handbook = emulator.state.listFiles(ADA).find((f) => f.name === 'handbook.txt')?.id ?? ''

  textFile('holidays.txt', leave)
  emulator.state.moveFile(conduct, {
    addParents: ['root'],
    removeParents: [emulator.state.getFile(conduct)?.parents[0] ?? ''],
  })
  emulator.state.removeFile(handbook)
  emulator.state.trashFile(sick)
  const report = await ingestOk(app, ada)

  expect(report.added).toEqual(['holidays.txt'])
  expect(await namesIn(ada, [hr])).toEqual(['holidays.txt', 'parental-leave.txt'])
  // Moved, not deleted: still in the library, outside the folder.
  expect([...(await libraryIds(ada)).keys()]).toContain('conduct.txt')
})

test('a folder moved elsewhere in Drive takes its documents out of its old parent’s', async () => {
  const { hr, policies } = hrTree()
  const ada = await connected()
  await ingestOk(app, ada)
  const archive = folder('Archive')

  emulator.state.moveFile(policies, { addParents: [archive], removeParents: [hr] })
  await ingestOk(app, ada)

  expect(await namesIn(ada, [hr])).toEqual(['handbook.txt'])
  expect(await namesIn(ada, [archive])).toEqual(['conduct.txt', 'parental-leave.txt'])
  expect((await folders(ada)).find((f) => f.id === policies)?.parentId).toBe(archive)
})

test('a folder deleted in Drive is described as missing, keeps its name, and its documents leave', async () => {
  const { hr, policies, leave } = hrTree()
  const ada = await connected()
  await ingestOk(app, ada)

  emulator.state.removeFile(policies)
  await ingestOk(app, ada)

  expect(await app.driveFolders.describe(ada.id, [policies, leave, hr])).toEqual([
    { id: policies, name: 'Policies', missing: true, documentCount: 0 },
    { id: leave, name: 'Leave', missing: true, documentCount: 0 },
    { id: hr, name: 'HR', missing: false, documentCount: 1 },
  ])
  expect(await namesIn(ada, [policies, hr])).toEqual(['handbook.txt'])
  expect((await folders(ada)).map((f) => f.name)).not.toContain('Policies')
  // Seen once: known, not unknown, so an assistant that follows it is not refused.
  expect(await app.driveFolders.unknown(ada.id, [policies])).toEqual([])
})

test('a trashed folder is missing too, on a full listing as on the change feed, and comes back when restored', async () => {
  const { hr, policies } = hrTree()
  const ada = await connected()
  await ingestOk(app, ada)

  emulator.state.trashFile(policies)
  // Drive refuses the old token: this sync is a whole listing again.
  emulator.state.expireChangeTokens()
  await ingestOk(app, ada)
  expect(await app.driveFolders.describe(ada.id, [policies])).toEqual([
    { id: policies, name: 'Policies', missing: true, documentCount: 0 },
  ])
  expect(await namesIn(ada, [hr])).toEqual(['handbook.txt'])

  emulator.state.trashFile(policies, false)
  await ingestOk(app, ada)
  expect(await namesIn(ada, [hr])).toEqual(['conduct.txt', 'handbook.txt', 'parental-leave.txt'])
})

test('a shortcut in a folder brings its target’s document into the folder; deleting the shortcut takes it out', async () => {
  const { hr } = hrTree()
  const shortcut = emulator.state.addFile({
    owner: ADA,
    name: 'Menu shortcut',
    mimeType: SHORTCUT,
    shortcutTargetId: emulator.state.listFiles(ADA).find((f) => f.name === 'lunch-menu.txt')?.id ?? '',
    parents: [hr],
  })
  const ada = await connected()
  await ingestOk(app, ada)

  expect(await namesIn(ada, [hr])).toEqual([
    'conduct.txt',
    'handbook.txt',
    'lunch-menu.txt',
    'parental-leave.txt',
  ])

  emulator.state.removeFile(shortcut.id)
  await ingestOk(app, ada)
  expect(await namesIn(ada, [hr])).toEqual(['conduct.txt', 'handbook.txt', 'parental-leave.txt'])
  // The file itself is in the Drive: it stays in the library, outside the folder.
  expect([...(await libraryIds(ada)).keys()]).toContain('lunch-menu.txt')
})

test('a file removed from the library is not among its folder’s documents', async () => {
  const { hr } = hrTree()
  const ada = await connected()
  await ingestOk(app, ada)
  const handbook = (await libraryIds(ada)).get('handbook.txt') ?? ''

  await call(app, documentEndpoints.deleteDocument, { cookie: ada.cookie, params: { id: handbook } })

  expect(await namesIn(ada, [hr])).toEqual(['conduct.txt', 'parental-leave.txt'])
})

test('another person’s folders are never visible: not listed, no documents, unknown', async () => {
  const adaHr = hrTree().hr
  const bobFolder = folder('Warehouse', undefined, BOB)
  textFile('stock.txt', bobFolder, BOB)
  const ada = await connected(ADA)
  const bob = await connected(BOB)
  await ingestOk(app, ada)
  await ingestOk(app, bob)

  expect((await folders(bob)).map((f) => f.name)).toEqual(['Warehouse'])
  expect((await folders(ada)).map((f) => f.name)).not.toContain('Warehouse')
  expect(await app.driveFolders.documentIdsIn(bob.id, [adaHr])).toEqual([])
  expect(await app.driveFolders.documentIdsIn(ada.id, [bobFolder])).toEqual([])
  expect(await app.driveFolders.unknown(bob.id, [adaHr, bobFolder])).toEqual([adaHr])
  expect(await app.driveFolders.describe(bob.id, [adaHr])).toEqual([
    { id: adaHr, name: adaHr, missing: true, documentCount: 0 },
  ])
})

test('unknown() names the ids the person’s Drive has never shown, once each, in order', async () => {
  const { hr } = hrTree()
  const ada = await connected()
  expect(await app.driveFolders.unknown(ada.id, [hr])).toEqual([hr])
  await ingestOk(app, ada)

  expect(await app.driveFolders.unknown(ada.id, ['no-such-folder', hr, 'other', 'no-such-folder'])).toEqual([
    'no-such-folder',
    'other',
  ])
  expect(await app.driveFolders.unknown(ada.id, [])).toEqual([])
})

test('disconnecting Drive stops following its folders: none listed, each missing with its name', async () => {
  const { hr } = hrTree()
  const ada = await connected()
  await ingestOk(app, ada)

  const response = await call(app, driveEndpoints.disconnect, {
    cookie: ada.cookie,
    body: { documents: 'keep' },
  })
  expect(response.statusCode).toBe(200)

  expect(await folders(ada)).toEqual([])
  expect(await app.driveFolders.describe(ada.id, [hr])).toEqual([
    { id: hr, name: 'HR', missing: true, documentCount: 0 },
  ])
})

test('the folders call needs sign-in (401), and answers an empty list before Drive is connected', async () => {
  const signedOut = await listFolders()
  expect(signedOut.statusCode).toBe(401)

  const person = await newPerson(app, 'folders')
  expect(await folders(person)).toEqual([])
})

test('without Google configured: no folders, no documents, every id unknown', async () => {
  const plain = await buildTestApp()
  try {
    const person = await newPerson(plain, 'folders')
    const response = await call(plain, assistantEndpoints.listDriveFolders, { cookie: person.cookie })
    expect(response.statusCode).toBe(200)
    expect(assistantEndpoints.listDriveFolders.response.parse(response.json()).data).toEqual([])
    expect(await plain.driveFolders.documentIdsIn(person.id, ['f1'])).toEqual([])
    expect(await plain.driveFolders.unknown(person.id, ['f1', 'f2'])).toEqual(['f1', 'f2'])
  } finally {
    await plain.close()
  }
})
