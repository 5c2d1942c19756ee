import { MatchersV3 } from '@pact-foundation/pact'
import { expect, test } from 'vitest'
import { type ApiError, createHttp } from '#src/api/client.ts'
import { createDriveApi } from '#src/api/drive.ts'
import { createPact } from './pact.ts'

const { string, regex, integer, eachLike, atLeastLike, fromProviderState, iso8601DateTimeWithMillis } =
  MatchersV3

const EMAIL = 'alice@example.com'
const FILE_ID = '1aZ9fileIdOfTheConsumerExample00'

// Drive picks ids, names and times: the consumer only needs their shape. A link is a URL, or null
// for a Google Doc's download link; a matcher cannot say "string or null", so the listing's state
// holds binary files only and a Google Doc has an interaction of its own.
const fileMatcher = {
  id: regex(/^[A-Za-z0-9_-]{10,200}$/, FILE_ID),
  name: string('notes.txt'),
  mimeType: string('text/plain'),
  modifiedTime: iso8601DateTimeWithMillis('2026-01-06T10:00:00.000Z'),
  webContentLink: string(`https://drive.google.com/uc?id=${FILE_ID}&export=download`),
  webViewLink: string(`https://drive.google.com/file/d/${FILE_ID}/view?usp=drivesdk`),
}

// What the banner shows is a sentence whose numbers depend on the Drive: its form is the contract.
const INGEST_MESSAGE =
  /^(Ingested \d+ documents?: \d+ new, \d+ updated, \d+ unchanged, \d+ removed\.( Skipped \d+ \(.+\)\.)?( Failed \d+ \(.+\)\.)?( \d+ more documents? still being read in the background\.)?|Your Google Drive has no files to ingest\.)$/
// Each outcome list may be empty on another Drive or another run: min 0, one example item.
const names = atLeastLike(string('notes.txt'), 0, 1)
const because = (name: string, reason: string) =>
  atLeastLike({ name: string(name), reason: string(reason) }, 0, 1)

function api(url: string) {
  return createDriveApi(createHttp({ baseUrl: url }))
}

async function failureOf(promise: Promise<unknown>): Promise<ApiError> {
  return (await promise.catch((e: unknown) => e)) as ApiError
}

test('listing Drive files answers every file with its links', async () => {
  await createPact()
    .addInteraction()
    .given('alice@example.com is signed in with Google Drive connected')
    .uponReceiving('a request for the Drive files')
    .withRequest('GET', '/api/v1/google-drive/list-files', (b) => b.query({ email: EMAIL }))
    .willRespondWith(200, (b) => b.jsonBody({ success: true, data: { files: eachLike(fileMatcher) } }))
    .executeTest(async (server) => {
      const files = await api(server.url).listFiles(EMAIL)
      expect(files[0]?.id).toBe(FILE_ID)
    })
})

test('getting one file answers it with its download and view links', async () => {
  await createPact()
    .addInteraction()
    .given('alice@example.com is signed in with Google Drive connected')
    .uponReceiving('a request for one Drive file')
    .withRequest(
      'GET',
      fromProviderState(
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a Pact provider-state expression, not JS
        '/api/v1/google-drive/get-file/${fileId}',
        `/api/v1/google-drive/get-file/${FILE_ID}`,
      ),
      (b) => b.query({ email: EMAIL }),
    )
    .willRespondWith(200, (b) => b.jsonBody({ success: true, data: fileMatcher }))
    .executeTest(async (server) => {
      const file = await api(server.url).getFile(FILE_ID, EMAIL)
      expect(file.webContentLink).toMatch(/^https:\/\//)
    })
})

test('a Google Doc answers a view link and no download link (null)', async () => {
  await createPact()
    .addInteraction()
    .given('alice@example.com is signed in with a Google Doc in her connected Drive')
    .uponReceiving('a request for a Google Doc')
    .withRequest(
      'GET',
      fromProviderState(
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a Pact provider-state expression, not JS
        '/api/v1/google-drive/get-file/${fileId}',
        `/api/v1/google-drive/get-file/${FILE_ID}`,
      ),
      (b) => b.query({ email: EMAIL }),
    )
    .willRespondWith(200, (b) =>
      b.jsonBody({
        success: true,
        data: {
          ...fileMatcher,
          name: string('Onboarding Handbook'),
          mimeType: 'application/vnd.google-apps.document',
          webContentLink: null,
          webViewLink: string(`https://docs.google.com/document/d/${FILE_ID}/edit?usp=drivesdk`),
        },
      }),
    )
    .executeTest(async (server) => {
      const file = await api(server.url).getFile(FILE_ID, EMAIL)
      expect(file.webContentLink).toBeNull()
    })
})

test('ingesting answers the report with the sentence for the banner', async () => {
  await createPact()
    .addInteraction()
    .given('alice@example.com is signed in with Google Drive connected')
    .uponReceiving('a request to ingest the Drive documents')
    .withRequest('POST', '/api/v1/google-drive/ingest-documents', (b) => b.jsonBody({ email: EMAIL }))
    .willRespondWith(200, (b) =>
      b.jsonBody({
        success: true,
        data: {
          message: regex(
            INGEST_MESSAGE,
            'Ingested 26 documents: 26 new, 0 updated, 0 unchanged, 0 removed. Skipped 1 (site-survey-scans.pdf: the file is larger than 10 MB). Failed 1 (broken-scan.pdf: the file is not a readable PDF).',
          ),
          added: names,
          updated: names,
          unchanged: names,
          removed: names,
          skipped: because('site-survey-scans.pdf', 'the file is larger than 10 MB'),
          failed: because('broken-scan.pdf', 'the file is not a readable PDF'),
        },
      }),
    )
    .executeTest(async (server) => {
      const report = await api(server.url).ingestDocuments(EMAIL)
      expect(report.message).toMatch(/^Ingested 26 documents/)
    })
})

test("another person's email is refused with 403 and a sentence", async () => {
  await createPact()
    .addInteraction()
    .given('alice@example.com is signed in with Google Drive connected')
    .uponReceiving('a request for the Drive files of another email')
    .withRequest('GET', '/api/v1/google-drive/list-files', (b) => b.query({ email: 'bob@example.com' }))
    .willRespondWith(403, (b) =>
      b.jsonBody({ success: false, message: 'The email does not match the signed-in account.' }),
    )
    .executeTest(async (server) => {
      const error = await failureOf(api(server.url).listFiles('bob@example.com'))
      expect(error.status).toBe(403)
      expect(error.message).toBe('The email does not match the signed-in account.')
    })
})

test('before Drive is connected, the listing says how to connect it (409)', async () => {
  await createPact()
    .addInteraction()
    .given('alice@example.com is signed in without Google Drive')
    .uponReceiving('a request for the Drive files before connecting')
    .withRequest('GET', '/api/v1/google-drive/list-files', (b) => b.query({ email: EMAIL }))
    .willRespondWith(409, (b) =>
      b.jsonBody({
        success: false,
        message: 'Google Drive is not connected. Connect it under Integrations.',
      }),
    )
    .executeTest(async (server) => {
      const error = await failureOf(api(server.url).listFiles(EMAIL))
      expect(error.status).toBe(409)
    })
})

test('disconnecting Drive answers how many documents were removed', async () => {
  await createPact()
    .addInteraction()
    .given('alice@example.com is signed in with Google Drive connected')
    .uponReceiving('a request to disconnect Google Drive, removing its documents')
    .withRequest('POST', '/api/v1/google-drive/disconnect', (b) => b.jsonBody({ documents: 'remove' }))
    .willRespondWith(200, (b) => b.jsonBody({ success: true, data: { removedDocuments: integer(0) } }))
    .executeTest(async (server) => {
      const result = await api(server.url).disconnect('remove')
      expect(result.removedDocuments).toBe(0)
    })
})

// Issue 36: an assistant's knowledge picker lists the connected Drive's folders. parentId is a
// folder id or null (at the top); a matcher cannot say "string or null", so the state's Drive
// holds top folders only, and the folder's id and name are Drive's: only their shape matters.
test('listing the Drive folders answers each folder with its parent (null at the top)', async () => {
  await createPact()
    .addInteraction()
    .given('alice@example.com is signed in with a synced Drive that has a folder')
    .uponReceiving('a request for the Drive folders')
    .withRequest('GET', '/api/v1/google-drive/folders')
    .willRespondWith(200, (b) =>
      b.jsonBody({
        success: true,
        data: eachLike({ id: regex(/^[A-Za-z0-9_-]{10,200}$/, FILE_ID), name: string('HR'), parentId: null }),
      }),
    )
    .executeTest(async (server) => {
      const folders = await api(server.url).listFolders()
      expect(folders[0]).toEqual({ id: FILE_ID, name: 'HR', parentId: null })
    })
})

test('before Drive is connected, the folder list is empty (nothing to pick, not an error)', async () => {
  await createPact()
    .addInteraction()
    .given('alice@example.com is signed in without Google Drive')
    .uponReceiving('a request for the Drive folders before connecting')
    .withRequest('GET', '/api/v1/google-drive/folders')
    .willRespondWith(200, (b) => b.jsonBody({ success: true, data: [] }))
    .executeTest(async (server) => {
      expect(await api(server.url).listFolders()).toEqual([])
    })
})
