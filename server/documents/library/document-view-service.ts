/**
 * One document for its owner (`app.documentView`): its passages in reading order (the viewer) and
 * its own file (the viewer's PDF, "Download"). An upload's bytes come from the database; a file of
 * another source (a Drive file) from that source's own reader, registered by the source's plugin
 * (`registerFileSource`), since the library sits below Google Drive in the server's layers.
 *
 * A document has two ids: the library's row, and the passages' document that citations name
 * (`Source.documentId`). Either opens it, always scoped to the signed-in person: another person's
 * id, an unknown one and a removed document answer the same 404 (D72).
 */
import type { DocumentView } from '#contracts/documents.ts'
import type { Db } from '../../db/database.ts'
import { NotFound } from '../../http/domain-errors.ts'
import type { FileReply } from '../../http/file-reply.ts'
import { createDocumentViewRepository } from './document-view-repository.ts'
import { DocumentNotFound } from './library-errors.ts'
import { createLibraryRepository, type LibraryRow } from './library-repository.ts'
import { toLibraryDocument } from './library-service.ts'
import { UPLOAD_SOURCE } from './sources.ts'
import { readUploadBytes } from './uploads-repository.ts'

export const DOCUMENT_FILE_MESSAGES = {
  unavailable: "This document's file cannot be opened here.",
  missing: 'The uploaded file is missing.',
} as const

/** Reads one document's file from where it lives; throws a domain error with a sentence when it cannot. */
export type FileSource = (row: LibraryRow) => Promise<FileReply>

export type DocumentViewService = ReturnType<typeof createDocumentViewService>

export function createDocumentViewService(db: Db) {
  const library = createLibraryRepository(db)
  const repository = createDocumentViewRepository(db)
  const fileSources = new Map<string, FileSource>()

  /** The person's library row named by either id; 404 for anything else. */
  async function owned(userId: string, id: string): Promise<LibraryRow> {
    const row = await library.findOwned(userId, id)
    if (row) return row
    const passages = await repository.documentKey(userId, id)
    const viaPassages = passages && (await library.findExternal(userId, passages.source, passages.externalId))
    if (!viaPassages || viaPassages.excluded) throw new DocumentNotFound()
    return viaPassages
  }

  return {
    registerFileSource(source: string, read: FileSource): void {
      fileSources.set(source, read)
    },

    async view(userId: string, id: string): Promise<DocumentView> {
      const row = await owned(userId, id)
      const passages = await repository.passages(userId, row)
      return { document: toLibraryDocument(row), passages }
    },

    async file(userId: string, id: string): Promise<FileReply> {
      const row = await owned(userId, id)
      if (row.source === UPLOAD_SOURCE) {
        const bytes = await readUploadBytes(db, row.id)
        if (!bytes) throw new NotFound(DOCUMENT_FILE_MESSAGES.missing)
        return {
          bytes,
          contentType: row.mimeType,
          fileName: row.name,
          disposition: 'inline',
        }
      }
      const read = fileSources.get(row.source)
      if (!read) throw new NotFound(DOCUMENT_FILE_MESSAGES.unavailable)
      return read(row)
    },
  }
}
