/**
 * A Drive document's own file (`GET /documents/{id}/file`), read through the owner's own Drive
 * connection at the emulator: a PDF as Drive stores it, a Google Doc as its PDF export, the
 * ingest's 10 MB limit (a larger file is refused while it arrives), another person's document a
 * 404, and Drive not connected the usual 409 sentence.
 */
import { expect, test } from 'vitest'
import { documentEndpoints, type LibraryDocument } from '#contracts/documents.ts'
import { fillPath } from '#contracts/endpoint.ts'
import type { App } from '#server/app.ts'
import type { GoogleEmulator } from '#tests/fakes/google/emulator.ts'
import { buildFixtureFiles, FIXTURE_FILES } from '#tests/fakes/google/fixtures.ts'
import { call, errorOf } from '../support/chat-helpers.ts'
import { connectedPerson, ingestOk, newPerson, type Person, setUpDriveApp } from '../support/drive-helpers.ts'

let emulator: GoogleEmulator
let app: App

setUpDriveApp(
  (started) => {
    ;({ emulator, app } = started)
  },
  { ingestWaitMs: 60_000 },
)

const { listDocuments, documentFile } = documentEndpoints

async function libraryOf(person: Person): Promise<Map<string, LibraryDocument>> {
  const library = listDocuments.response.parse(
    (await call(app, listDocuments, { cookie: person.cookie })).json(),
  )
  return new Map(library.data.documents.map((d) => [d.name, d]))
}

const fileOf = (person: Pick<Person, 'cookie'>, id: string) =>
  app.inject({ method: 'GET', url: fillPath(documentFile.path, { id }), headers: { cookie: person.cookie } })

async function idOf(person: Person, name: string): Promise<string> {
  const document = (await libraryOf(person)).get(name)
  if (!document) throw new Error(`${name} is not in the library`)
  return document.id
}

test("a Drive PDF is streamed from the owner's Drive as it is stored, with the file call's headers", async () => {
  const ada = await connectedPerson({ app, emulator })
  await ingestOk(app, ada)
  const stored = (await buildFixtureFiles()).find((f) => f.name === FIXTURE_FILES.zephyrBrief.name)
  emulator.state.clearRequests()

  const response = await fileOf(ada, await idOf(ada, FIXTURE_FILES.zephyrBrief.name))

  expect(response.statusCode).toBe(200)
  expect(Buffer.compare(response.rawPayload, Buffer.from(stored?.content ?? ''))).toBe(0)
  expect(response.headers).toMatchObject({
    'content-type': 'application/pdf',
    'x-content-type-options': 'nosniff',
    'cache-control': 'private, no-store',
  })
  expect(response.headers['content-disposition']).toBe(
    `inline; filename="zephyr-project-brief.pdf"; filename*=UTF-8''zephyr-project-brief.pdf`,
  )
  expect(response.headers['content-security-policy']).toMatch(/(^|; )sandbox(;|$)/)
  expect(emulator.state.requestCount('files.media')).toBe(1)
})

test('a Google Doc opens as its PDF export, named after the Doc', async () => {
  const ada = await connectedPerson({ app, emulator })
  await ingestOk(app, ada)
  const id = await idOf(ada, FIXTURE_FILES.handbook.name)
  emulator.state.clearRequests()

  const response = await fileOf(ada, id)

  expect(response.statusCode).toBe(200)
  expect(response.headers['content-type']).toBe('application/pdf')
  expect(response.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-')
  expect(response.headers['content-disposition']).toContain('filename="Onboarding Handbook.pdf"')
  const exportCall = emulator.state.requests.find((r) => r.endpoint === 'files.export')
  expect(exportCall?.query.mimeType).toBe('application/pdf')
})

test('a file over the 10 MB limit is refused with a sentence while it arrives, never sent', async () => {
  const ada = await connectedPerson({ app, emulator })
  await ingestOk(app, ada)

  const response = await fileOf(ada, await idOf(ada, FIXTURE_FILES.largePdf.name))

  expect([response.statusCode, errorOf(response)]).toEqual([
    413,
    'The file is larger than 10 MB, too large to open here.',
  ])
  expect(response.headers['content-disposition']).toBeUndefined()
})

test("another person's Drive document is a 404, and without a Drive connection the file cannot be read", async () => {
  const ada = await connectedPerson({ app, emulator })
  await ingestOk(app, ada)
  const id = await idOf(ada, FIXTURE_FILES.zephyrBrief.name)
  const stranger = await newPerson(app, 'stranger')

  const foreign = await fileOf(stranger, id)
  expect([foreign.statusCode, errorOf(foreign)]).toEqual([404, 'Document not found.'])

  const disconnect = await app.inject({
    method: 'POST',
    url: '/api/v1/google-drive/disconnect',
    headers: { cookie: ada.cookie },
    payload: { documents: 'keep' },
  })
  expect(disconnect.statusCode).toBe(200)
  const afterwards = await fileOf(ada, id)
  expect([afterwards.statusCode, errorOf(afterwards)]).toEqual([
    409,
    'Google Drive is not connected. Connect it under Integrations.',
  ])
})
