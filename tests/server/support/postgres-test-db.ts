/**
 * A fresh PostgreSQL database per test app when TEST_DATABASE_URL names a server: the first call
 * in any worker migrates one template database (named after the migrations' content, created
 * under an advisory lock so parallel workers build it once), and every app gets
 * `CREATE DATABASE … TEMPLATE` of it (~80 ms), dropped again when the app closes. The role in
 * TEST_DATABASE_URL needs CREATEDB; the database it names is only used to run these commands.
 */
import { createHash, randomUUID } from 'node:crypto'
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { drizzle } from 'drizzle-orm/node-postgres'
import { migrate } from 'drizzle-orm/node-postgres/migrator'
import pg from 'pg'
import { MIGRATIONS_FOLDER } from '#server/db/migrations-folder.ts'

/** The server the PostgreSQL runs use; undefined: PostgreSQL tests are skipped. */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || undefined

/** Why a PostgreSQL-only test did not run: shown in its name so the report says so. */
export const POSTGRES_SKIP_NOTE = TEST_DATABASE_URL
  ? ''
  : ' [skipped: no PostgreSQL; set TEST_DATABASE_URL or run `npm run test:postgres`]'

/**
 * Whether the databases the tests run on have pgvector: embedded PGlite always has it; a
 * PostgreSQL server only when the extension is installed there (Debian's PostgreSQL 15 has none).
 */
export async function pgvectorAvailable(): Promise<boolean> {
  if (!TEST_DATABASE_URL) return true
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL })
  await client.connect()
  try {
    const { rows } = await client.query(`select 1 from pg_available_extensions where name = 'vector'`)
    return rows.length > 0
  } finally {
    await client.end()
  }
}

const TEMPLATE_LOCK = 0x646f6363 // "docc": any constant both workers agree on

let admin: pg.Pool | undefined
let template: Promise<string> | undefined

function adminPool(url: string): pg.Pool {
  admin ??= new pg.Pool({ connectionString: url, max: 2, allowExitOnIdle: true })
  return admin
}

function withDatabase(url: string, name: string): string {
  const next = new URL(url)
  next.pathname = `/${name}`
  return next.toString()
}

async function migrationsKey(): Promise<string> {
  const hash = createHash('sha256')
  for (const entry of (await readdir(MIGRATIONS_FOLDER, { recursive: true })).sort()) {
    if (!entry.endsWith('.sql') && !entry.endsWith('_journal.json')) continue
    hash.update(entry)
    hash.update(await readFile(join(MIGRATIONS_FOLDER, entry)))
  }
  return hash.digest('hex').slice(0, 12)
}

async function ensureTemplate(url: string): Promise<string> {
  const name = `docchat_template_${await migrationsKey()}`
  const client = await adminPool(url).connect()
  try {
    await client.query('select pg_advisory_lock($1)', [TEMPLATE_LOCK])
    const found = await client.query('select 1 from pg_database where datname = $1', [name])
    if (found.rowCount === 0) {
      const building = `${name}_building`
      await client.query(`drop database if exists ${building} with (force)`)
      await client.query(`create database ${building}`)
      const pool = new pg.Pool({ connectionString: withDatabase(url, building), max: 1 })
      try {
        await migrate(drizzle({ client: pool }), { migrationsFolder: MIGRATIONS_FOLDER })
      } finally {
        await pool.end()
      }
      // Renamed only once complete: a crash mid-way never leaves a half-migrated template.
      await client.query(`alter database ${building} rename to ${name}`)
    }
    return name
  } finally {
    await client.query('select pg_advisory_unlock($1)', [TEMPLATE_LOCK]).catch(() => undefined)
    client.release()
  }
}

export type TestDatabase = { url: string; drop: () => Promise<void> }

/** A new, migrated, empty database on the TEST_DATABASE_URL server. */
export async function createTestDatabase(url = requireUrl()): Promise<TestDatabase> {
  template ??= ensureTemplate(url).catch((error: unknown) => {
    template = undefined
    throw error
  })
  const source = await template
  const name = `docchat_test_${randomUUID().replaceAll('-', '').slice(0, 16)}`
  await adminPool(url).query(`create database ${name} template ${source}`)
  let dropped: Promise<void> | undefined
  return {
    url: withDatabase(url, name),
    drop: () => {
      dropped ??= adminPool(url)
        .query(`drop database if exists ${name} with (force)`)
        .then(() => undefined)
      return dropped
    },
  }
}

function requireUrl(): string {
  if (!TEST_DATABASE_URL) throw new Error('TEST_DATABASE_URL is not set')
  return TEST_DATABASE_URL
}
