/**
 * What the migration tests share: an empty database (an embedded PGlite, or with
 * TEST_DATABASE_URL set a new database on that PostgreSQL server, dropped on close), and the
 * migrations as they were before a given one (the same files, the journal cut before it).
 */
import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import type { sql } from 'drizzle-orm'
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres'
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator'
import { drizzle } from 'drizzle-orm/pglite'
import { migrate } from 'drizzle-orm/pglite/migrator'
import pg from 'pg'
import { MIGRATIONS_FOLDER } from '#server/db/migrations-folder.ts'
import { PGLITE_EXTENSIONS } from '#server/db/pglite-extensions.ts'
import { TEST_DATABASE_URL } from './postgres-test-db.ts'

export type Fresh = {
  execute: (query: ReturnType<typeof sql>) => Promise<unknown>
  migrate: (folder: string) => Promise<void>
  close: () => Promise<void>
}

/** An empty database: PGlite, or a new database on the TEST_DATABASE_URL server (dropped on close). */
export async function freshDatabase(): Promise<Fresh> {
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

/** A copy of the migrations folder whose journal stops before `tag` (delete it after). */
export async function migrationsBefore(tag: string): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'docchat-migrations-'))
  await cp(MIGRATIONS_FOLDER, folder, { recursive: true })
  const journal = JSON.parse(await readFile(join(folder, 'meta/_journal.json'), 'utf8'))
  const cut = journal.entries.findIndex((e: { tag: string }) => e.tag === tag)
  if (cut <= 0) throw new Error(`no migration ${tag} after the first`)
  journal.entries = journal.entries.slice(0, cut)
  await writeFile(join(folder, 'meta/_journal.json'), JSON.stringify(journal))
  return folder
}
