/** One client function per document-library endpoint; the deps injected into the library machine. */
import { documentEndpoints, type Library, type LibraryDocument } from '#contracts/documents.ts'
import type { Http } from './client.ts'

export type DocumentsApi = ReturnType<typeof createDocumentsApi>

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
  }
}
