/**
 * Makes a document searchable: its passages within the bounds (document-bounds.ts), each with its
 * language (D82), stored with the document writer, replacing any earlier version of the same (user, source, external id).
 * Any source can use it: a test, a benchmark, or a job through `app.writer`.
 */
import type { Db } from '../../db/database.ts'
import type { Section } from '../reading/chunker.ts'
import { boundedPassagesInTurns } from '../reading/document-bounds.ts'
import type { ReadDocument } from '../reading/document-reader.ts'
import { createDocumentWriter, type DocumentWriter } from './document-writer.ts'
import { withLanguages } from './languages.ts'
import type { DocumentKey } from './passage-writes-repository.ts'

export type IndexDocumentInput = DocumentKey & {
  /** The library row's id when the document is a library file: the document takes it (D70). */
  id?: string
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

/** What indexing needs of a library row (library-repository.ts's LibraryRow has it): the index knows no more of the library. */
export type LibraryFile = {
  id: string
  userId: string
  source: string
  externalId: string
  name: string
  mimeType: string
  modifiedTime: Date | null
}

export type IndexedDocument = { documentId: string; chunkCount: number; cut: string | null }

export async function indexDocument(
  db: Db,
  input: IndexDocumentInput,
  writer: DocumentWriter = createDocumentWriter({ db }),
): Promise<IndexedDocument> {
  const { sections, link, version, modifiedTime, ...rest } = input
  const { chunks, cut } = await boundedPassagesInTurns(sections, {
    markdown: hasMarkdownHeadings(input.mimeType, input.name),
  })
  const written = await writer.write({
    document: { ...rest, link: link ?? null, version: version ?? null, modifiedTime: modifiedTime ?? null },
    chunks: await withLanguages(chunks),
  })
  if (!written) throw new Error('A document without a library row was not written')
  return { ...written, cut }
}

/**
 * The document of a library row, as read: written with the row's name and type, and
 * the row marked ready in the same transaction (with its pages, passages, OCR'd pages and what
 * was left unread or cut);
 * null when the row left the library while the file was read.
 */
export async function indexLibraryDocument(
  writer: DocumentWriter,
  row: LibraryFile,
  read: ReadDocument,
  fields: { link: string | null; version: string | null },
): Promise<IndexedDocument | null> {
  const { chunks, cut, pages } = await boundedPassagesInTurns(read.sections, {
    markdown: hasMarkdownHeadings(row.mimeType, row.name),
  })
  // What the reader left unread (OCR's limits, the bounds it cut at itself: D102) and what the
  // bounds cut here, when the reader did not say it already.
  const reason =
    [read.note, cut && !read.note?.includes(cut) ? cut : null].filter((r) => r !== null).join('; ') || null
  const written = await writer.write({
    document: {
      id: row.id,
      userId: row.userId,
      source: row.source,
      externalId: row.externalId,
      name: row.name,
      mimeType: row.mimeType,
      modifiedTime: row.modifiedTime,
      ...fields,
    },
    chunks: await withLanguages(chunks),
    library: { id: row.id, pages: read.pages === null ? null : pages, ocrPages: read.ocrPages, reason },
  })
  return written && { ...written, cut }
}
