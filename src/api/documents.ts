/** One client function per document-library endpoint; the deps injected into the library machine. */
import {
  type DocumentView,
  documentEndpoints,
  type FirstRun,
  type Library,
  type LibraryDocument,
} from '#contracts/documents.ts'
import { ErrorEnvelopeSchema, fillPath } from '#contracts/endpoint.ts'
import { ApiError, type Http } from './client.ts'
import { fileUrl } from './file-url.ts'

export function createDocumentsApi(http: Http) {
  return {
    async listDocuments(): Promise<Library> {
      return (await http(documentEndpoints.listDocuments)).data
    },
    async deleteDocument(id: string): Promise<void> {
      await http(documentEndpoints.deleteDocument, { params: { id } })
    },
    async retryDocument(id: string): Promise<LibraryDocument> {
      return (await http(documentEndpoints.retryDocument, { params: { id } })).data
    },
    async restoreDocument(id: string): Promise<LibraryDocument> {
      return (await http(documentEndpoints.restoreDocument, { params: { id } })).data
    },
    /** The empty chat's first run: the ready count and starter questions. */
    async firstRun(): Promise<FirstRun> {
      return (await http(documentEndpoints.firstRun)).data
    },
    /** The files uploaded into a conversation, oldest first. */
    async listConversationFiles(conversationId: string): Promise<LibraryDocument[]> {
      return (await http(documentEndpoints.listConversationFiles, { params: { id: conversationId } })).data
    },
    /** One document with its passages in reading order (the viewer). */
    async getDocument(id: string): Promise<DocumentView> {
      return (await http(documentEndpoints.getDocument, { params: { id } })).data
    },
  }
}

/** Where the browser opens or downloads a document's own file (pdf.js, "Download"). */
export function documentFileUrl(id: string): string {
  return fileUrl(documentEndpoints.documentFile, { id })
}

/**
 * Sends one file as multipart (field `file`) to `path` and parses the success body with `schema`:
 * the upload calls do not go through the JSON client; failures become the same ApiError with the
 * server's sentence.
 */
export async function postFile<T>(
  path: string,
  schema: { safeParse(value: unknown): { success: true; data: { data: T } } | { success: false } },
  input: { name: string; content: Blob },
  doFetch: typeof fetch = globalThis.fetch.bind(globalThis),
): Promise<T> {
  const form = new FormData()
  form.append('file', input.content, input.name)
  let response: Response
  try {
    response = await doFetch(path, {
      method: 'POST',
      credentials: 'include',
      headers: { accept: 'application/json' },
      body: form,
    })
  } catch (cause) {
    throw new ApiError(0, cause instanceof Error ? cause.message : 'Network error')
  }
  const json: unknown = await response.json().catch(() => undefined)
  if (!response.ok) {
    const parsed = ErrorEnvelopeSchema.safeParse(json)
    throw new ApiError(response.status, parsed.success ? parsed.data.message : response.statusText)
  }
  const parsed = schema.safeParse(json)
  if (!parsed.success) throw new ApiError(response.status, 'Unexpected response from the upload')
  return parsed.data.data
}

/** The spec's upload call: the file goes into the person's library through the open conversation. */
export function uploadFile(
  input: { conversationId: string; name: string; content: Blob },
  doFetch?: typeof fetch,
): Promise<LibraryDocument> {
  const { uploadFile: endpoint } = documentEndpoints
  return postFile(fillPath(endpoint.path, { id: input.conversationId }), endpoint.response, input, doFetch)
}

/** An upload into the library alone (the Documents section): no conversation. */
export function uploadToLibrary(
  input: { name: string; content: Blob },
  doFetch?: typeof fetch,
): Promise<LibraryDocument> {
  const { uploadToLibrary: endpoint } = documentEndpoints
  return postFile(endpoint.path, endpoint.response, input, doFetch)
}
