/**
 * Several instances acting as one (README D39): two apps, each with its own connection pool and
 * its own session cache, on one PostgreSQL database, as two processes behind a load balancer
 * would be. Runs when TEST_DATABASE_URL names a server (`npm run test:postgres`, CI).
 */
import { afterAll, beforeAll, expect, test } from 'vitest'
import { authEndpoints } from '#contracts/auth.ts'
import type { App } from '#server/app.ts'
import { buildTestApp, register, signIn, uniqueEmail } from './helper.ts'
import {
  createTestDatabase,
  POSTGRES_SKIP_NOTE,
  TEST_DATABASE_URL,
  type TestDatabase,
} from './postgres-test-db.ts'

const url = TEST_DATABASE_URL
let database: TestDatabase
let a: App
let b: App

beforeAll(async () => {
  if (!url) return
  database = await createTestDatabase()
  const env = { DATABASE_URL: database.url }
  ;[a, b] = await Promise.all([buildTestApp({ env }), buildTestApp({ env })])
})
afterAll(async () => {
  await Promise.all([a?.close(), b?.close()])
  await database?.drop()
})

const me = (app: App, cookie: string) =>
  app.inject({ method: authEndpoints.me.method, url: authEndpoints.me.path, headers: { cookie } })

/** Milliseconds until `app` answers 401 to `cookie`; fails past `limitMs`. */
async function msUntilRefused(app: App, cookie: string, limitMs: number): Promise<number> {
  const start = performance.now()
  for (;;) {
    const elapsed = performance.now() - start
    if ((await me(app, cookie)).statusCode === 401) return elapsed
    if (elapsed > limitMs) throw new Error(`still signed in after ${Math.round(elapsed)} ms`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/** Signs in on A and makes A cache the sign-in (its next checks need no query). */
async function signedInOnA(): Promise<string> {
  const email = uniqueEmail('multi')
  await register(a, email)
  const { cookie } = await signIn(a, email)
  expect((await me(a, cookie)).statusCode).toBe(200)
  expect((await me(b, cookie)).statusCode).toBe(200)
  return cookie
}

async function logOutOn(app: App, cookie: string): Promise<void> {
  const response = await app.inject({
    method: authEndpoints.logout.method,
    url: authEndpoints.logout.path,
    headers: { cookie },
  })
  expect(response.statusCode).toBe(200)
}

test.skipIf(!url)(
  `signed in on A, logged out on B: A refuses the access cookie within 1 s${POSTGRES_SKIP_NOTE}`,
  async () => {
    const cookie = await signedInOnA()
    await logOutOn(b, cookie)
    expect(await msUntilRefused(a, cookie, 1_000)).toBeLessThan(1_000)
    expect((await me(b, cookie)).statusCode).toBe(401)
  },
)

test.skipIf(!url)(
  `A's listening connection cut by the server: a logout on B still reaches A within 1 s${POSTGRES_SKIP_NOTE}`,
  async () => {
    const cookie = await signedInOnA()
    const killed = (await a.db.execute(
      // Every instance listens on its own connection; cutting them all cuts A's (and B's).
      `select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query ilike 'listen %'`,
    )) as unknown as { rows: unknown[] }
    expect(killed.rows.length).toBeGreaterThanOrEqual(2)
    await logOutOn(b, cookie)
    expect(await msUntilRefused(a, cookie, 1_000)).toBeLessThan(1_000)
  },
)

// To be written once the work that makes them possible is merged (see README D39):
test.todo(
  'the per-account sign-in limit counts attempts made on A and on B (issue 12: limits kept in the database)',
)
test.todo(
  'an ingest started on A shows its progress on B, and B cannot start a second one (issue 11: ingest jobs in the database)',
)
test.todo('one Drive sync per user across instances (issue 11: the sync lock in the database)')
