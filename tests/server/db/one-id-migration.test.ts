/**
 * Migration 0020 on a database that already holds documents (D70, one id per document): each
 * library document's passages take the library row's id, and the sources of answers stored
 * before point at it too; a document outside the library, and a source whose document is gone,
 * keep theirs. Built on a fresh database migrated up to 0019, then to the end: an embedded PGlite,
 * or with TEST_DATABASE_URL set an empty database on that PostgreSQL server.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { sql } from 'drizzle-orm'
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres'
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator'
import { drizzle } from 'drizzle-orm/pglite'
import { migrate } from 'drizzle-orm/pglite/migrator'
import pg from 'pg'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { MIGRATIONS_FOLDER } from '#server/db/migrations-folder.ts'
import { PGLITE_EXTENSIONS } from '#server/db/pglite-extensions.ts'
import { TEST_DATABASE_URL } from '../support/postgres-test-db.ts'

const BEFORE = '0020_conversation_scope'

type Fresh = {
  execute: (query: ReturnType<typeof sql>) => Promise<unknown>
  migrate: (folder: string) => Promise<void>
  close: () => Promise<void>
}

/** An empty database: PGlite, or a new database on the TEST_DATABASE_URL server (dropped on close). */
async function freshDatabase(): Promise<Fresh> {
  if (!TEST_DATABASE_URL) {
    const client = new PGlite({ extensions: PGLITE_EXTENSIONS })
    await client.waitReady
    const db = drizzle({ client })
    return {
      execute: (query) => db.execute(query),
      migrate: (folder) => migrate(db, { migrationsFolder: folder }),
      close: () => client.close(),
    }
  }
  const name = `docchat_migration_${crypto.randomUUID().replaceAll('-', '').slice(0, 12)}`
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL })
  await admin.connect()
  await admin.query(`create database ${name}`)
  const url = new URL(TEST_DATABASE_URL)
  url.pathname = `/${name}`
  const pool = new pg.Pool({ connectionString: url.toString(), max: 1 })
  const db = drizzlePg({ client: pool })
  return {
    execute: (query) => db.execute(query),
    migrate: (folder) => migratePg(db, { migrationsFolder: folder }),
    close: async () => {
      await pool.end()
      // Not WITH (FORCE): pool.end() resolves before its connection's backend has exited, and a
      // forced drop then ends that connection with a FATAL error nobody listens for (an uncaught
      // exception seen once under load). Without it, PostgreSQL waits up to 5 s for the backend.
      await admin.query(`drop database if exists ${name}`)
      await admin.end()
    },
  }
}

let database: Fresh
let before: string

beforeAll(async () => {
  // The migrations as they were before this one: the same files, the journal cut before it.
  before = await mkdtemp(join(tmpdir(), 'docchat-migrations-'))
  await cp(MIGRATIONS_FOLDER, before, { recursive: true })
  const journal = JSON.parse(await readFile(join(before, 'meta/_journal.json'), 'utf8'))
  const cut = journal.entries.findIndex((e: { tag: string }) => e.tag === BEFORE)
  expect(cut).toBeGreaterThan(0)
  journal.entries = journal.entries.slice(0, cut)
  await writeFile(join(before, 'meta/_journal.json'), JSON.stringify(journal))
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
