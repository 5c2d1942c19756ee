/**
 * An uploaded file's bytes are stored and read in parts (D104): no statement carries more than
 * UPLOAD_PART_BYTES of the file (a 5 MB parameter held embedded PGlite's thread, and so every other
 * person's request, for seconds), and the file comes back byte for byte, from the library's file
 * call and to the job that reads it; a file stored whole before D104 (its only part, 0) still is.
 */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { documentEndpoints } from '#contracts/documents.ts'
import { fillPath } from '#contracts/endpoint.ts'
import type { App } from '#server/app.ts'
import { queryRows } from '#server/db/query-rows.ts'
import { libraryUploads } from '#server/db/schema.ts'
import { readUploadBytes, UPLOAD_PART_BYTES } from '#server/documents/library/uploads-repository.ts'
import { createConversation } from '../support/chat-helpers.ts'
import { newPerson } from '../support/drive-helpers.ts'
import { buildTestApp } from '../support/helper.ts'
import { postUpload } from '../support/upload-helpers.ts'

let app: App

beforeAll(async () => {
  app = await buildTestApp()
}, 120_000)
afterAll(async () => {
  await app.close()
})

/** Latin-1 text of `size` bytes using every printable byte value, so the hex round trip is seen whole. */
function latin1Text(size: number): Uint8Array {
  const bytes = new Uint8Array(size)
  for (let i = 0; i < size; i++) bytes[i] = i % 97 === 96 ? 0x0a : 0x20 + ((i * 31) % 0xe0)
  return bytes
}

test('an upload is stored in parts of at most UPLOAD_PART_BYTES and comes back byte for byte', async () => {
  const ada = await newPerson(app, 'parts')
  const conversation = await createConversation(app, ada.cookie, 'Parts')
  const bytes = latin1Text(2 * UPLOAD_PART_BYTES + 1000)

  const response = await postUpload(app, ada, conversation._id, {
    name: 'parts.txt',
    type: 'text/plain',
    bytes,
  })

  expect(response.statusCode).toBe(201)
  const document = documentEndpoints.uploadFile.response.parse(response.json()).data
  expect(document.status).toBe('ready')
  const parts = await queryRows<{ part: number; bytes: number }>(
    app.db,
    sql`select part, octet_length(content) as bytes from library_uploads
        where library_document_id = ${document.id} order by part`,
  )
  expect(parts.map((p) => p.part)).toEqual([0, 1, 2])
  expect(Math.max(...parts.map((p) => Number(p.bytes)))).toBeLessThanOrEqual(UPLOAD_PART_BYTES)
  const file = await app.inject({
    method: 'GET',
    url: fillPath(documentEndpoints.documentFile.path, { id: document.id }),
    headers: { cookie: ada.cookie },
  })
  expect(file.statusCode).toBe(200)
  expect(Buffer.compare(file.rawPayload, Buffer.from(bytes))).toBe(0)
}, 60_000)

test('a file stored whole before the parts (its only part, 0) is read back whole', async () => {
  const ada = await newPerson(app, 'whole')
  const response = await postUpload(app, ada, null, {
    name: 'whole.txt',
    type: 'text/plain',
    bytes: latin1Text(20 * 1024),
  })
  const id = documentEndpoints.uploadToLibrary.response.parse(response.json()).data.id
  const whole = latin1Text(UPLOAD_PART_BYTES * 2 + 7)
  await app.db.delete(libraryUploads).where(sql`${libraryUploads.libraryDocumentId} = ${id}`)
  await app.db.insert(libraryUploads).values({ libraryDocumentId: id, content: Buffer.from(whole) })

  const read = await readUploadBytes(app.db, id)

  expect(read && Buffer.compare(Buffer.from(read), Buffer.from(whole))).toBe(0)
  expect(await readUploadBytes(app.db, '00000000-0000-4000-8000-000000000000')).toBeNull()
})
