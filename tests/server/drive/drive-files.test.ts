/**
 * Listing Drive files and reading one file's links (product §7), against the Google emulator: every
 * page of the listing, no folders or trash, the email check, not configured / not connected,
 * revoked access, transparent token refresh, and backoff on Drive's busy answers.
 */
import { eq } from 'drizzle-orm'
import { expect, test } from 'vitest'
import { driveEndpoints } from '#contracts/drive.ts'
import type { App } from '#server/app.ts'
import { documents } from '#server/db/schema.ts'
import { createTokenCipher } from '#server/drive/token-crypto.ts'
import { createGoogleEmulator, type GoogleEmulator } from '#tests/fakes/google/emulator.ts'
import { ADA, BOB, FIXTURE_FILES, listableFixtureFilesOf, MIME } from '#tests/fakes/google/fixtures.ts'
import { errorOf } from '../support/chat-helpers.ts'
import {
  buildDriveApp,
  connectDrive,
  connectedPerson,
  connectionRow,
  getFile,
  ingest,
  ingestOk,
  listFiles,
  newPerson,
  type Person,
  setUpDriveApp,
} from '../support/drive-helpers.ts'
import { buildTestApp, TEST_APP_SECRET } from '../support/helper.ts'

let emulator: GoogleEmulator
let app: App

setUpDriveApp((started) => {
  ;({ emulator, app } = started)
})

const connected = (account = ADA): Promise<Person> => connectedPerson({ app, emulator }, account)

async function filesOf(person: Person) {
  const response = await listFiles(app, person)
  expect(response.statusCode).toBe(200)
  return driveEndpoints.listFiles.response.parse(response.json()).data.files
}

test("the listing holds all of Ada's 29 listable files, from every page, and no folder or trashed file", async () => {
  const ada = await connected()

  const files = await filesOf(ada)

  expect(files).toHaveLength(29)
  expect(new Set(files.map((f) => f.id))).toEqual(new Set(listableFixtureFilesOf(ADA).map((f) => f.id)))
  expect(emulator.state.requestCount('files.list')).toBeGreaterThanOrEqual(3)
  expect(files.some((f) => f.mimeType === MIME.folder)).toBe(false)
  expect(files.map((f) => f.name)).not.toContain('old-draft.txt')
  const listing = emulator.state.requests.find((r) => r.endpoint === 'files.list')
  expect(listing?.query.q).toContain('trashed = false')
  expect(listing?.query.fields).not.toContain('*')
})

test('each file carries its links; a Google Doc has no download link (null)', async () => {
  const ada = await connected()

  const files = await filesOf(ada)

  const notes = files.find((f) => f.id === FIXTURE_FILES.notes.id)
  const handbook = files.find((f) => f.id === FIXTURE_FILES.handbook.id)
  expect(notes).toMatchObject({ name: 'notes.txt', mimeType: MIME.text })
  expect(notes?.webContentLink).toMatch(/^https:\/\//)
  expect(notes?.webViewLink).toMatch(/^https:\/\/drive\.google\.com\/file\/d\//)
  expect(notes?.modifiedTime).toBe(new Date(FIXTURE_FILES.notes.modifiedTime).toISOString())
  expect(handbook?.webContentLink).toBeNull()
  expect(handbook?.webViewLink).toMatch(/^https:\/\/docs\.google\.com\/document\/d\//)
})

test('the email is checked, case-insensitively, and never picks whose Drive is read', async () => {
  const ada = await connected()
  const bob = await connected(BOB)

  const shouting = await listFiles(app, { cookie: ada.cookie, email: ada.email.toUpperCase() })
  const asBob = await listFiles(app, { cookie: ada.cookie, email: bob.email })

  expect(shouting.statusCode).toBe(200)
  expect(asBob.statusCode).toBe(403)
  expect(errorOf(asBob)).toBe('The email does not match the signed-in account.')
})

test("an email that is not the signed-in person's is refused with 403 on all three calls", async () => {
  const ada = await connected()
  const other = { cookie: ada.cookie, email: 'someone-else@example.com' }

  const responses = [
    await listFiles(app, other),
    await getFile(app, { ...other, fileId: FIXTURE_FILES.notes.id }),
    await ingest(app, other),
  ]

  for (const response of responses) {
    expect(response.statusCode).toBe(403)
    expect(errorOf(response)).toBe('The email does not match the signed-in account.')
  }
  expect(emulator.state.requestCount()).toBe(0)
})

test('without sign-in the calls answer 401; without an email, 400', async () => {
  const ada = await connected()

  expect((await listFiles(app, { email: ada.email })).statusCode).toBe(401)
  expect((await ingest(app, { email: ada.email })).statusCode).toBe(401)
  const noEmail = await listFiles(app, { cookie: ada.cookie })
  expect(noEmail.statusCode).toBe(400)
  expect(errorOf(noEmail)).toBe('email is required')
})

test('before connecting, the calls say Drive is not connected (409)', async () => {
  const person = await newPerson(app)

  const responses = [
    await listFiles(app, person),
    await getFile(app, { ...person, fileId: FIXTURE_FILES.notes.id }),
    await ingest(app, person),
  ]

  for (const response of responses) {
    expect(response.statusCode).toBe(409)
    expect(errorOf(response)).toBe('Google Drive is not connected. Connect it under Integrations.')
  }
})

test('without a Google client the calls say Drive is not configured (503)', async () => {
  const bare = await buildTestApp()
  try {
    const person = await newPerson(bare)
    const responses = [
      await listFiles(bare, person),
      await getFile(bare, { ...person, fileId: FIXTURE_FILES.notes.id }),
      await ingest(bare, person),
    ]
    for (const response of responses) {
      expect(response.statusCode).toBe(503)
      expect(errorOf(response)).toBe('Google Drive is not configured on this server.')
    }
  } finally {
    await bare.close()
  }
})

test('get-file answers the file with its links', async () => {
  const ada = await connected()

  const response = await getFile(app, { ...ada, fileId: FIXTURE_FILES.zephyrBrief.id })

  expect(response.statusCode).toBe(200)
  const file = driveEndpoints.getFile.response.parse(response.json()).data
  expect(file).toMatchObject({ id: FIXTURE_FILES.zephyrBrief.id, name: 'zephyr-project-brief.pdf' })
  expect(file.webContentLink).toMatch(/^https:\/\//)
  expect(file.webViewLink).toMatch(/^https:\/\//)
})

test('a Drive name with control and bidi characters is listed, read and stored cleaned, as an upload name is', async () => {
  const ada = await connected()
  const added = emulator.state.addFile({
    owner: ADA,
    name: 'harbour\u202Etxt.exe\u0000\tnotes.txt',
    mimeType: MIME.text,
    content: 'The harbour gate code is HERON-5521. '.repeat(400),
  })

  const listed = (await filesOf(ada)).find((f) => f.id === added.id)
  expect(listed?.name).toBe('harbourtxt.exe notes.txt')
  const one = await getFile(app, { ...ada, fileId: added.id })
  expect(driveEndpoints.getFile.response.parse(one.json()).data.name).toBe('harbourtxt.exe notes.txt')

  const report = await ingestOk(app, ada)
  expect(report.added).toContain('harbourtxt.exe notes.txt')
  const stored = await app.db
    .select({ name: documents.name })
    .from(documents)
    .where(eq(documents.externalId, added.id))
  expect(stored).toEqual([{ name: 'harbourtxt.exe notes.txt' }])
})

test('get-file refuses a malformed id (400) before asking Google, and answers 404 for an unknown one', async () => {
  const ada = await connected()

  const malformed = await getFile(app, { ...ada, fileId: 'bad id!' })
  const unknown = await getFile(app, { ...ada, fileId: '1unknownFileIdThatDriveDoesNotHave0' })
  const bobs = await getFile(app, { ...ada, fileId: FIXTURE_FILES.bobNotes.id })

  expect(malformed.statusCode).toBe(400)
  expect(errorOf(malformed)).toBe('Not a valid Drive file id')
  expect(unknown.statusCode).toBe(404)
  expect(errorOf(unknown)).toBe('File not found in your Google Drive.')
  expect(bobs.statusCode).toBe(404)
  expect(emulator.state.requestCount('files.get')).toBe(2)
})

test('access revoked at Google: the reconnect sentence, and the useless tokens are forgotten', async () => {
  const ada = await connected()
  emulator.state.revokeGrants(ADA)
  emulator.state.expireAccessTokens(ADA)

  const revoked = await listFiles(app, ada)
  const after = await listFiles(app, ada)

  expect(revoked.statusCode).toBe(409)
  expect(errorOf(revoked)).toBe(
    'Google Drive access has expired or was revoked. Reconnect Google Drive under Integrations.',
  )
  expect(await connectionRow(app, ada.id)).toBeUndefined()
  expect(errorOf(after)).toBe('Google Drive is not connected. Connect it under Integrations.')
})

test('revoking with a still-valid expiry also ends in the reconnect sentence (401 → refresh → invalid_grant)', async () => {
  const ada = await connected()
  emulator.state.revokeGrants(ADA)

  const response = await getFile(app, { ...ada, fileId: FIXTURE_FILES.notes.id })

  expect(response.statusCode).toBe(409)
  expect(errorOf(response)).toMatch(/expired or was revoked/)
  expect(emulator.state.requestCount('token.refresh_token')).toBe(1)
  expect(await connectionRow(app, ada.id)).toBeUndefined()
})

test('an access token Google expired early is refreshed transparently and the new one is stored', async () => {
  const ada = await connected()
  const cipher = createTokenCipher(TEST_APP_SECRET)
  const before = JSON.parse(cipher.decrypt((await connectionRow(app, ada.id))?.tokens ?? '', ada.id))
  emulator.state.expireAccessTokens(ADA)

  const files = await filesOf(ada)

  expect(files).toHaveLength(29)
  expect(emulator.state.requestCount('token.refresh_token')).toBe(1)
  const after = JSON.parse(cipher.decrypt((await connectionRow(app, ada.id))?.tokens ?? '', ada.id))
  expect(after.access_token).not.toBe(before.access_token)
  expect(after.refresh_token).toBe(before.refresh_token)
  emulator.state.clearRequests()
  await filesOf(ada)
  expect(emulator.state.requestCount('token.refresh_token')).toBe(0)
})

test('Drive busy (429) a few times: backed off and retried, then the listing succeeds', async () => {
  const ada = await connected()
  emulator.state.failNextDriveRequests(2)

  const files = await filesOf(ada)

  expect(files).toHaveLength(29)
  // 2 refused + 3 pages.
  expect(emulator.state.requestCount('files.list')).toBe(5)
})

test('Drive busy on every try: a bounded number of attempts, then 503 with a sentence', async () => {
  const ada = await connected()
  emulator.state.failNextDriveRequests(50, { reason: 'rateLimitExceeded' })

  const response = await listFiles(app, ada)

  expect(response.statusCode).toBe(503)
  expect(errorOf(response)).toBe('Google Drive is busy right now. Try again in a minute.')
  expect(emulator.state.requestCount('files.list')).toBe(4)
  expect(await connectionRow(app, ada.id)).toBeDefined()
})

test('userRateLimitExceeded (403) and backendError (500) are retried too', async () => {
  const ada = await connected()
  emulator.state.failNextDriveRequests(1, { reason: 'userRateLimitExceeded' })
  emulator.state.failNextDriveRequests(1, { reason: 'backendError' })

  const response = await getFile(app, { ...ada, fileId: FIXTURE_FILES.notes.id })

  expect(response.statusCode).toBe(200)
  expect(emulator.state.pendingFailures()).toBe(0)
})

test('Google out of reach answers 503 with a sentence, not a 500', async () => {
  const gone = await createGoogleEmulator()
  const lonely = await buildDriveApp(gone)
  try {
    const person = await newPerson(lonely)
    await connectDrive(lonely, person)
    await gone.close()
    const response = await listFiles(lonely, person)
    expect(response.statusCode).toBe(503)
    expect(errorOf(response)).toBe('Google Drive could not be reached. Try again in a minute.')
  } finally {
    await lonely.close()
  }
})
