import { MatchersV3 } from '@pact-foundation/pact'
import { expect, test } from 'vitest'
import { type ApiError, createHttp } from '#src/api/client.ts'
import { createDocumentsApi } from '#src/api/documents.ts'
import { createPact } from './pact.ts'

const { string, regex, integer, boolean, eachLike, fromProviderState, iso8601DateTimeWithMillis, uuid } =
  MatchersV3

const DOCUMENT_ID = '6f1c2b7e-3d4a-4b8e-9a0f-1c2d3e4f5a6b'
const MISSING_ID = '0b5c7a52-6c2f-4f4e-9a51-5d1c43e0a111'

// The provider's library holds one text file read from Drive: no pages, no reason, a view link.
const readyText = {
  id: uuid(DOCUMENT_ID),
  name: string('bob-notes.txt'),
  source: regex(/^(drive|upload)$/, 'drive'),
  mimeType: string('text/plain'),
  status: regex(/^(queued|processing|ready|failed|skipped)$/, 'ready'),
  reason: null,
  pages: null,
  chunks: integer(1),
  ocrPages: null,
  updatedAt: iso8601DateTimeWithMillis('2026-01-06T10:00:00.000Z'),
  webViewLink: string(`https://drive.google.com/file/d/1aZ9fileIdOfTheConsumerExample00/view?usp=drivesdk`),
}

const api = (url: string) => createDocumentsApi(createHttp({ baseUrl: url }))
const documentPath = (suffix = '') =>
  fromProviderState(`/api/v1/documents/\${documentId}${suffix}`, `/api/v1/documents/${DOCUMENT_ID}${suffix}`)

async function failureOf(promise: Promise<unknown>): Promise<ApiError> {
  return (await promise.catch((e: unknown) => e)) as ApiError
}

test('the library lists each document with its status and the overall progress', async () => {
  await createPact()
    .addInteraction()
    .given('alice@example.com is signed in with a synced Drive library')
    .uponReceiving('a request for the document library')
    .withRequest('GET', '/api/v1/documents')
    .willRespondWith(200, (b) =>
      b.jsonBody({
        success: true,
        data: {
          documents: eachLike(readyText),
          progress: { running: boolean(false), done: integer(1), total: integer(1) },
          // Nothing removed in this state: an empty list, exactly.
          removed: [],
        },
      }),
    )
    .executeTest(async (server) => {
      const library = await api(server.url).listDocuments()
      expect(library.documents[0]?.status).toBe('ready')
      expect(library.progress.total).toBe(1)
    })
})

test("the empty chat's first run answers the ready count and starter questions", async () => {
  await createPact()
    .addInteraction()
    .given('alice@example.com is signed in with a synced Drive library')
    .uponReceiving("a request for the empty chat's first run")
    .withRequest('GET', '/api/v1/documents/first-run')
    .willRespondWith(200, (b) =>
      b.jsonBody({
        success: true,
        // Her one text file has no headings: no question to ask about it.
        data: { ready: integer(1), questions: [] },
      }),
    )
    .executeTest(async (server) => {
      const firstRun = await api(server.url).firstRun()
      expect(firstRun).toEqual({ ready: 1, questions: [] })
    })
})

test('deleting a document answers null', async () => {
  await createPact()
    .addInteraction()
    .given('alice@example.com is signed in with a synced Drive library')
    .uponReceiving('a request to delete a document')
    .withRequest('DELETE', documentPath())
    .willRespondWith(200, (b) => b.jsonBody({ success: true, data: null }))
    .executeTest(async (server) => {
      await expect(api(server.url).deleteDocument(DOCUMENT_ID)).resolves.toBeUndefined()
    })
})

test('deleting a document that is not hers answers 404 with a sentence', async () => {
  await createPact()
    .addInteraction()
    .given('alice@example.com is signed in')
    .uponReceiving('a request to delete a document she does not have')
    .withRequest('DELETE', `/api/v1/documents/${MISSING_ID}`)
    .willRespondWith(404, (b) => b.jsonBody({ success: false, message: 'Document not found.' }))
    .executeTest(async (server) => {
      const error = await failureOf(api(server.url).deleteDocument(MISSING_ID))
      expect(error.status).toBe(404)
      expect(error.message).toBe('Document not found.')
    })
})

test('retrying a document that could not be read queues it again', async () => {
  await createPact()
    .addInteraction()
    .given('alice@example.com is signed in with a document that could not be read')
    .uponReceiving('a request to retry a failed document')
    .withRequest('POST', documentPath('/retry'))
    .willRespondWith(200, (b) =>
      b.jsonBody({
        success: true,
        data: {
          ...readyText,
          name: string('broken-scan.pdf'),
          mimeType: string('application/pdf'),
          status: 'queued',
          chunks: null,
        },
      }),
    )
    .executeTest(async (server) => {
      const document = await api(server.url).retryDocument(DOCUMENT_ID)
      expect(document.status).toBe('queued')
    })
})

test('adding back a document removed from the library queues it to be read', async () => {
  await createPact()
    .addInteraction()
    .given('alice@example.com is signed in with a Drive document removed from her library')
    .uponReceiving('a request to add a removed document back')
    .withRequest('POST', documentPath('/restore'))
    .willRespondWith(200, (b) =>
      b.jsonBody({
        success: true,
        data: { ...readyText, status: 'queued', chunks: null },
      }),
    )
    .executeTest(async (server) => {
      const document = await api(server.url).restoreDocument(DOCUMENT_ID)
      expect(document.status).toBe('queued')
    })
})

test('a conversation lists the files uploaded into it', async () => {
  await createPact()
    .addInteraction()
    .given('alice@example.com is signed in with a file uploaded into a chat session')
    .uponReceiving('a request for the files of a chat session')
    .withRequest(
      'GET',
      fromProviderState(
        `/api/v1/chat/sessions/\${sessionId}/files`,
        '/api/v1/chat/sessions/3f1c2b7e-3d4a-4b8e-9a0f-1c2d3e4f5a6b/files',
      ),
    )
    .willRespondWith(200, (b) =>
      b.jsonBody({
        success: true,
        data: eachLike({
          ...readyText,
          name: string('harbour-notes.txt'),
          source: regex(/^(drive|upload)$/, 'upload'),
          webViewLink: null,
        }),
      }),
    )
    .executeTest(async (server) => {
      const files = await api(server.url).listConversationFiles('3f1c2b7e-3d4a-4b8e-9a0f-1c2d3e4f5a6b')
      expect(files[0]?.source).toBe('upload')
    })
})

test('one document opens with its passages in reading order', async () => {
  await createPact()
    .addInteraction()
    .given('alice@example.com is signed in with a synced Drive library')
    .uponReceiving('a request for one document and its passages')
    .withRequest('GET', documentPath())
    .willRespondWith(200, (b) =>
      b.jsonBody({
        success: true,
        data: {
          document: readyText,
          // A text file: no pages, no headings.
          passages: eachLike({
            id: uuid('3e1d6c1a-9f0b-4c5e-8a2d-7b6c5d4e3f21'),
            page: null,
            heading: null,
            text: string('Bob notes\n\nThe Orion warehouse door code is 5521-ORION.'),
          }),
        },
      }),
    )
    .executeTest(async (server) => {
      const view = await api(server.url).getDocument(DOCUMENT_ID)
      expect(view.document.id).toBe(DOCUMENT_ID)
      expect(view.passages[0]?.text).toContain('5521-ORION')
    })
})
