/**
 * The background sync (DRIVE_SYNC_INTERVAL): connected Drives are synced without anyone asking,
 * a change in Drive reaches the library on the next round, and the setting is read in minutes
 * (0 = off, anything else refused with the variable's name).
 */
import { expect, test } from 'vitest'
import { documentEndpoints } from '#contracts/documents.ts'
import { createRetriever } from '#server/answering/retrieval.ts'
import type { App } from '#server/app.ts'
import { loadConfig } from '#server/config.ts'
import type { GoogleEmulator } from '#tests/fakes/google/emulator.ts'
import { ADA, FIXTURE_FILES } from '#tests/fakes/google/fixtures.ts'
import { call } from '../support/chat-helpers.ts'
import { connectDrive, newPerson, setUpDriveApp } from '../support/drive-helpers.ts'
import { TEST_APP_SECRET } from '../support/helper.ts'

let emulator: GoogleEmulator
let app: App

setUpDriveApp(
  (started) => {
    ;({ emulator, app } = started)
  },
  { driveSyncIntervalMs: 100, resetEachTest: false },
)

test('a connected Drive is synced in the background, and a later change in Drive follows', async () => {
  const ada = await newPerson(app)
  await connectDrive(app, ada, { account: ADA })
  const progress = async () =>
    documentEndpoints.listDocuments.response.parse(
      (await call(app, documentEndpoints.listDocuments, { cookie: ada.cookie })).json(),
    ).data.progress

  await expect
    .poll(progress, { timeout: 30_000, interval: 100 })
    .toEqual({ running: false, done: 29, total: 29 })

  emulator.state.updateFile(FIXTURE_FILES.notes.id, {
    content: 'Team notes\n\nThe staging database moved to the host saffron-db-88.\n',
  })
  const found = async () =>
    (await createRetriever(app.db)(ada.id, 'saffron-db-88', 5)).map((p) => p.documentName).join(',')
  await expect.poll(found, { timeout: 30_000, interval: 100 }).toContain('notes.txt')
})

test('DRIVE_SYNC_INTERVAL is in minutes, 15 by default, 0 turns it off', () => {
  const base = { DATABASE_URL: 'memory:', APP_SECRET: TEST_APP_SECRET }
  expect(loadConfig(base).driveSyncIntervalMs).toBe(15 * 60_000)
  expect(loadConfig({ ...base, DRIVE_SYNC_INTERVAL: '0' }).driveSyncIntervalMs).toBe(0)
  expect(loadConfig({ ...base, DRIVE_SYNC_INTERVAL: '5' }).driveSyncIntervalMs).toBe(5 * 60_000)
  expect(() => loadConfig({ ...base, DRIVE_SYNC_INTERVAL: 'soon' })).toThrow(/DRIVE_SYNC_INTERVAL/)
  expect(() => loadConfig({ ...base, DRIVE_SYNC_INTERVAL: '-1' })).toThrow(/DRIVE_SYNC_INTERVAL/)
})
