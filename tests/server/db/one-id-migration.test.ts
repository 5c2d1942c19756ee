/**
 * Migration 0020 on a database that already holds documents (D70, one id per document): each
 * library document's passages take the library row's id, and the sources of answers stored
 * before point at it too; a document outside the library, and a source whose document is gone,
 * keep theirs. Built on a fresh database migrated up to 0019, then to the end: an embedded PGlite,
 * or with TEST_DATABASE_URL set an empty database on that PostgreSQL server.
 */
import { rm } from 'node:fs/promises'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { MIGRATIONS_FOLDER } from '#server/db/migrations-folder.ts'
import { type Fresh, freshDatabase, migrationsBefore } from '../support/migration-database.ts'

const BEFORE = '0020_conversation_scope'

let database: Fresh
let before: string

beforeAll(async () => {
  before = await migrationsBefore(BEFORE)
  database = await freshDatabase()
}, 60_000)
afterAll(async () => {
  await database?.close()
  if (before) await rm(before, { recursive: true, force: true })
})

test('library documents take their library ids, and stored sources follow them', async () => {
  const db = database
  await db.migrate(before)
  const one = async <T>(query: ReturnType<typeof sql>) =>
    ((await db.execute(query)) as unknown as { rows: T[] }).rows[0] as T

  const { id: user } = await one<{ id: string }>(
    sql`insert into users (email, password_hash) values ('old@example.com', 'x') returning id`,
  )
  const { id: library } = await one<{ id: string }>(sql`
    insert into library_documents (user_id, source, external_id, name, mime_type, status)
    values (${user}, 'upload', 'u1', 'report.txt', 'text/plain', 'ready') returning id`)
  const { id: indexed } = await one<{ id: string }>(sql`
    insert into documents (user_id, source, external_id, name, mime_type)
    values (${user}, 'upload', 'u1', 'report.txt', 'text/plain') returning id`)
  const { id: outside } = await one<{ id: string }>(sql`
    insert into documents (user_id, source, external_id, name, mime_type)
    values (${user}, 'test', 't1', 'test.txt', 'text/plain') returning id`)
  await db.execute(sql`
    insert into document_chunks (document_id, user_id, ordinal, text)
    values (${indexed}, ${user}, 0, 'The auditor is Finch.'), (${outside}, ${user}, 0, 'A test.')`)
  const { id: conversation } = await one<{ id: string }>(
    sql`insert into chat_sessions (user_id, title) values (${user}, 'Old') returning id`,
  )
  const gone = crypto.randomUUID()
  const sources = [indexed, outside, gone].map((documentId, i) => ({
    documentId,
    documentName: `doc ${i}`,
    chunkId: crypto.randomUUID(),
    page: null,
    link: null,
  }))
  await db.execute(sql`
    insert into chat_messages (session_id, user_id, is_user, content, sources)
    values (${conversation}, ${user}, false, 'An old answer', ${JSON.stringify(sources)}::jsonb)`)
  expect(indexed).not.toBe(library)

  await db.migrate(MIGRATIONS_FOLDER)

  const ids = await db.execute(sql`select id, source from documents order by source`)
  expect((ids as unknown as { rows: { id: string; source: string }[] }).rows).toEqual([
    { id: outside, source: 'test' },
    { id: library, source: 'upload' },
  ])
  const chunks = (await db.execute(
    sql`select document_id from document_chunks order by text`,
  )) as unknown as {
    rows: { document_id: string }[]
  }
  expect(chunks.rows.map((r) => r.document_id)).toEqual([outside, library])
  const stored = await one<{ sources: typeof sources }>(sql`select sources from chat_messages`)
  expect(stored.sources.map((s) => s.documentId)).toEqual([library, outside, gone])
  expect(stored.sources.map((s) => s.documentName)).toEqual(['doc 0', 'doc 1', 'doc 2'])
}, 60_000)
