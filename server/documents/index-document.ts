/**
 * Makes a document searchable: chunk it, then store it with its chunks, replacing any earlier
 * version of the same (user, source, external id) in one transaction. Any source can use it: the
 * Drive ingest, an upload, a test.
 */
import type { Db } from '../db/database.ts'
import { chunkDocument, type Section } from './chunker.ts'
import { createDocumentsRepository, type DocumentKey } from './documents-repository.ts'

export type IndexDocumentInput = DocumentKey & {
  name: string
  mimeType: string
  /** Where a person can open it (a Drive webViewLink); shown with the answers that quote it. */
  link?: string | null
  /** The source's revision marker, kept so a caller can skip an unchanged document. */
  version?: string | null
  modifiedTime?: Date | null
  /** The extracted text: one section per PDF page, or one for the whole document. */
  sections: Section[]
}

/** Markdown files and Google Docs (exported as markdown) have headings; plain text and PDFs do not. */
const MARKDOWN_TYPES = new Set(['text/markdown', 'text/x-markdown', 'application/vnd.google-apps.document'])

export function hasMarkdownHeadings(mimeType: string, name: string): boolean {
  return MARKDOWN_TYPES.has(mimeType) || (mimeType === 'text/plain' && /\.(md|markdown)$/i.test(name))
}

export type IndexedDocument = { documentId: string; chunkCount: number }

export async function indexDocument(db: Db, input: IndexDocumentInput): Promise<IndexedDocument> {
  const { sections, link, version, modifiedTime, ...rest } = input
  const chunks = chunkDocument(sections, { markdown: hasMarkdownHeadings(input.mimeType, input.name) })
  const { documentId } = await createDocumentsRepository(db).replace(
    { ...rest, link: link ?? null, version: version ?? null, modifiedTime: modifiedTime ?? null },
    chunks,
  )
  return { documentId, chunkCount: chunks.length }
}

/** Forgets a document and its chunks (answers already given keep their source snapshots). */
export async function removeDocument(db: Db, key: DocumentKey): Promise<boolean> {
  return createDocumentsRepository(db).remove(key)
}
