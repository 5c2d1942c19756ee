/**
 * The same migrations and auth flow on a real PostgreSQL server (15 on Debian). Runs only when
 * TEST_DATABASE_URL points at a database it may write to, e.g.
 *   TEST_DATABASE_URL=postgres://docchat:docchat@127.0.0.1:5432/postgres npm run test:postgres
 * (the role needs CREATEDB: every app gets its own fresh database, tests/server/support/postgres-test-db.ts).
 */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { authEndpoints } from '#contracts/auth.ts'
import type { App } from '#server/app.ts'
import { REFRESH_GRACE_MS } from '#server/auth/tokens.ts'
import { type Database, openDatabase } from '#server/db/database.ts'
import { buildTestApp, cookieHeader, register, signIn, testConfig, uniqueEmail } from '../support/helper.ts'
import { createTestDatabase, POSTGRES_SKIP_NOTE, TEST_DATABASE_URL } from '../support/postgres-test-db.ts'

const url = TEST_DATABASE_URL
let app: App
let clock = Date.now()

beforeAll(async () => {
  if (url) app = await buildTestApp({ now: () => new Date(clock) })
})
afterAll(async () => {
  await app?.close()
})

const COLUMNS = sql`
  select table_name, column_name, data_type, is_nullable, column_default
  from information_schema.columns where table_schema = 'public' order by 1, 2`
const INDEXES = sql`select indexname, indexdef from pg_indexes where schemaname = 'public' order by 1`

// Both drivers answer `{ rows }`; the shared Db type leaves the result shape open.
type Rows = { rows: unknown[] }

async function describeSchema(database: Database) {
  const columns = (await database.db.execute(COLUMNS)) as unknown as Rows
  const indexes = (await database.db.execute(INDEXES)) as unknown as Rows
  return { columns: columns.rows, indexes: indexes.rows }
}

test.skipIf(!url)(
  `the migrations give PostgreSQL the same tables and indexes as PGlite${POSTGRES_SKIP_NOTE}`,
  async () => {
    const fresh = await createTestDatabase()
    const postgres = await openDatabase(testConfig({ DATABASE_URL: fresh.url }))
    const pglite = await openDatabase(testConfig())
    try {
      expect(await describeSchema(postgres)).toEqual(await describeSchema(pglite))
    } finally {
      await Promise.all([postgres.close(), pglite.close()])
      await fresh.drop()
    }
  },
)

test.skipIf(!url)(
  `on PostgreSQL: sign up, a case-insensitive duplicate, sign in, me, refresh, logout${POSTGRES_SKIP_NOTE}`,
  async () => {
    const email = uniqueEmail('Pg')
    const user = await register(app, email)
    const duplicate = await app.inject({
      method: 'POST',
      url: authEndpoints.register.path,
      payload: { email: email.toLowerCase(), password: 'secret12', confirmPassword: 'secret12' },
    })
    expect(duplicate.statusCode).toBe(409)
    const { cookie } = await signIn(app, email)
    const me = await app.inject({ method: 'GET', url: authEndpoints.me.path, headers: { cookie } })
    expect(authEndpoints.me.response.parse(me.json()).data).toEqual(user)
    const refreshed = await app.inject({
      method: 'POST',
      url: authEndpoints.refreshToken.path,
      headers: { cookie },
    })
    expect(refreshed.statusCode).toBe(200)
    clock += REFRESH_GRACE_MS + 1
    expect(
      (await app.inject({ method: 'POST', url: authEndpoints.refreshToken.path, headers: { cookie } }))
        .statusCode,
    ).toBe(401)
    const next = cookieHeader(refreshed)
    expect(
      (await app.inject({ method: 'GET', url: authEndpoints.me.path, headers: { cookie: next } })).statusCode,
    ).toBe(401)
    expect(
      (await app.inject({ method: 'POST', url: authEndpoints.logout.path, headers: { cookie: next } }))
        .statusCode,
    ).toBe(200)
  },
)
