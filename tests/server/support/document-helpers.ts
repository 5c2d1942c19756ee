/**
 * Indexing a plain-text document straight into a test app's database, as the server tests do, and
 * the statistics per language a test compares with a recount.
 */
import { sql } from 'drizzle-orm'
import type { Db } from '#server/db/database.ts'
import { queryRows } from '#server/db/query-rows.ts'
import { type IndexDocumentInput, indexDocument } from '#server/documents/index/index-document.ts'

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

/**
 * A person's BM25 statistics per language as kept (D82), beside a recount from their passages, and
 * how many lexemes unfinished parts still remember (indexing_lexemes).
 */
export async function languageStatistics(db: Db, userId: string) {
  const rows = (query: ReturnType<typeof sql>) => queryRows<Record<string, unknown>>(db, query)
  const [parts] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from indexing_lexemes i join documents d on d.id = i.document_id
        where d.user_id = ${userId}`,
  )
  return {
    terms: await rows(sql`
      select language::text, lexeme, chunk_count, document_count from retrieval_terms
      where user_id = ${userId} order by 1, 2`),
    termsRecount: await rows(sql`
      select c.language::text, t.lexeme, count(*)::int as chunk_count, count(distinct c.document_id)::int as document_count
      from document_chunks c, unnest(c.tsv) as t where c.user_id = ${userId} group by 1, 2 order by 1, 2`),
    languages: await rows(sql`
      select language::text, chunk_count, document_count, token_count::int from retrieval_languages
      where user_id = ${userId} order by 1`),
    languagesRecount: await rows(sql`
      select language::text, count(*)::int as chunk_count, count(distinct document_id)::int as document_count,
        sum(token_count)::int as token_count
      from document_chunks where user_id = ${userId} group by 1 order by 1`),
    partsRemembered: parts?.n,
  }
}
