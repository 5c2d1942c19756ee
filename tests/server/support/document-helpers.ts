/** Indexing a plain-text document straight into a test app's database, as the server tests do. */
import type { Db } from '#server/db/database.ts'
import { type IndexDocumentInput, indexDocument } from '#server/documents/index-document.ts'

/** Indexes `text` as the user's `{externalId}.txt` (one section, no page); `over` changes any field. */
export function indexText(
  db: Db,
  userId: string,
  externalId: string,
  text: string,
  over: Partial<IndexDocumentInput> = {},
) {
  return indexDocument(db, {
    userId,
    source: 'test',
    externalId,
    name: `${externalId}.txt`,
    mimeType: 'text/plain',
    sections: [{ page: null, text }],
    ...over,
  })
}
