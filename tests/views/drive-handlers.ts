/**
 * Google Drive answers for the view tests, typed from contracts/drive.ts. Each handler refuses a
 * call that does not carry the signed-in user's email (product §7: query for GETs, body for ingest),
 * counts its calls, and may hold its answer to show what a person sees meanwhile.
 */
import { http } from 'msw'
import { type DriveFile, driveEndpoints, type IngestReport } from '#contracts/drive.ts'
import { ada, errorResponse, okResponse, urlOf } from './msw-server.ts'

export const report: DriveFile = {
  id: 'file-report-000001',
  name: 'Quarterly report.pdf',
  mimeType: 'application/pdf',
  modifiedTime: '2026-03-01T10:00:00.000Z',
  webContentLink: 'https://drive.example/uc?id=file-report-000001&export=download',
  webViewLink: 'https://drive.example/file/d/file-report-000001/view',
}

export const notes: DriveFile = {
  id: 'file-notes-000002',
  name: 'notes.txt',
  mimeType: 'text/plain',
  modifiedTime: '2026-02-14T08:30:00.000Z',
  webContentLink: 'https://drive.example/uc?id=file-notes-000002&export=download',
  webViewLink: 'https://drive.example/file/d/file-notes-000002/view',
}

export const ingestReport: IngestReport = {
  message: 'Ingested 2 documents: 2 added.',
  added: [report.name, notes.name],
  updated: [],
  unchanged: [],
  removed: [],
  skipped: [],
  failed: [],
}

type Answer = (call: number) => Response | Promise<Response>

const wrongUser = () => errorResponse(400, `email must be ${ada.email}`)

export const filesResponse = (files: DriveFile[]) =>
  okResponse(driveEndpoints.listFiles, { success: true, data: { files } })
export const ingestResponse = (body: IngestReport = ingestReport) =>
  okResponse(driveEndpoints.ingestDocuments, { success: true, data: body })

/** GET list-files; `answer` is a file list, or a function of the call number (from 1). */
export function listFiles(answer: DriveFile[] | Answer) {
  let calls = 0
  const handler = http.get(urlOf(driveEndpoints.listFiles), ({ request }) => {
    if (new URL(request.url).searchParams.get('email') !== ada.email) return wrongUser()
    calls += 1
    return typeof answer === 'function' ? answer(calls) : filesResponse(answer)
  })
  return { handler, calls: () => calls }
}

/** GET get-file/:fileId, answering from `files` by id (404 for an unknown id). */
export function getFile(answer: DriveFile[] | ((fileId: string) => Response)) {
  let calls = 0
  const handler = http.get(urlOf(driveEndpoints.getFile), ({ request, params }) => {
    if (new URL(request.url).searchParams.get('email') !== ada.email) return wrongUser()
    calls += 1
    const fileId = String(params.fileId)
    if (typeof answer === 'function') return answer(fileId)
    const file = answer.find((candidate) => candidate.id === fileId)
    return file
      ? okResponse(driveEndpoints.getFile, { success: true, data: file })
      : errorResponse(404, 'File not found')
  })
  return { handler, calls: () => calls }
}

/** POST ingest-documents, whose body must be { email }. */
export function ingest(answer: Answer = () => ingestResponse()) {
  let calls = 0
  const handler = http.post(urlOf(driveEndpoints.ingestDocuments), async ({ request }) => {
    const body = (await request.json().catch(() => null)) as { email?: unknown } | null
    if (body?.email !== ada.email) return wrongUser()
    calls += 1
    return answer(calls)
  })
  return { handler, calls: () => calls }
}

/** An answer that waits for release(): to see 'Loading documents...' or 'Ingesting...'. */
export function gate() {
  const { promise, resolve } = Promise.withResolvers<void>()
  return {
    after:
      (respond: () => Response): Answer =>
      async () => {
        await promise
        return respond()
      },
    release: () => resolve(),
  }
}
