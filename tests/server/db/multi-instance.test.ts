/**
 * Several instances acting as one (D39): two apps, each with its own connection pool and
 * its own session cache, on one PostgreSQL database, as two processes behind a load balancer
 * would be. Runs when TEST_DATABASE_URL names a server (`npm run test:postgres`, CI).
 */
import { afterAll, beforeAll, expect, test, vi } from 'vitest'
import { authEndpoints } from '#contracts/auth.ts'
import { documentEndpoints, type Library } from '#contracts/documents.ts'
import type { App } from '#server/app.ts'
import { createGoogleEmulator } from '#tests/fakes/google/emulator.ts'
import { ADA, FIXTURE_FILES } from '#tests/fakes/google/fixtures.ts'
import { connectDrive, driveEnv, ingest, newPerson } from '../support/drive-helpers.ts'
import { buildTestApp, register, signIn, uniqueEmail } from '../support/helper.ts'
import {
  createTestDatabase,
  POSTGRES_SKIP_NOTE,
  TEST_DATABASE_URL,
  type TestDatabase,
} from '../support/postgres-test-db.ts'

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

async function library(app: App, cookie: string): Promise<Library> {
  const response = await app.inject({
    method: documentEndpoints.listDocuments.method,
    url: documentEndpoints.listDocuments.path,
    headers: { cookie },
  })
  return documentEndpoints.listDocuments.response.parse(response.json()).data
}

/** Two instances with Google settings, pointed at one fresh emulator, on the test database. */
async function driveInstances() {
  const emulator = await createGoogleEmulator()
  const env = { ...driveEnv(emulator), DATABASE_URL: database.url }
  const options = { env, googleRetry: { baseDelayMs: 1, maxDelayMs: 4 } }
  const [driveA, driveB] = await Promise.all([buildTestApp(options), buildTestApp(options)])
  const close = async () => {
    await Promise.all([driveA.close(), driveB.close()])
    await emulator.close()
  }
  return { emulator, driveA, driveB, close }
}

/** Until no sync or file read of this person is running, as `app` sees it. */
async function settled(app: App, cookie: string): Promise<void> {
  await vi.waitUntil(async () => !(await library(app, cookie)).progress.running, {
    timeout: 20_000,
    interval: 20,
  })
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

test.skipIf(!url)(
  `the per-account sign-in limit counts attempts made on A and on B${POSTGRES_SKIP_NOTE}`,
  async () => {
    const limits = { loginPerAccountAndIp: { max: 3, timeWindowMs: 15 * 60_000 } }
    const env = { DATABASE_URL: database.url }
    const [limitedA, limitedB] = await Promise.all([
      buildTestApp({ env, rateLimits: limits }),
      buildTestApp({ env, rateLimits: limits }),
    ])
    try {
      const email = uniqueEmail('limit')
      await register(limitedA, email)
      const attempt = (app: App) =>
        app.inject({
          method: authEndpoints.login.method,
          url: authEndpoints.login.path,
          remoteAddress: '198.51.100.7',
          payload: { email, password: 'a wrong password' },
        })
      // Three wrong passwords, spread over both instances, use up the one allowance.
      expect((await attempt(limitedA)).statusCode).toBe(401)
      expect((await attempt(limitedB)).statusCode).toBe(401)
      expect((await attempt(limitedA)).statusCode).toBe(401)
      expect((await attempt(limitedB)).statusCode).toBe(429)
      expect((await attempt(limitedA)).statusCode).toBe(429)
    } finally {
      await Promise.all([limitedA.close(), limitedB.close()])
    }
  },
)

test.skipIf(!url)(
  `an ingest started on A shows its progress on B, and B joins it instead of starting a second one${POSTGRES_SKIP_NOTE}`,
  async () => {
    const { emulator, driveA, driveB, close } = await driveInstances()
    try {
      const ada = await newPerson(driveA, 'multi-drive')
      await connectDrive(driveA, ada, { account: ADA })
      emulator.state.clearRequests()
      emulator.state.setLatency(30)

      const onA = ingest(driveA, ada)
      // B sees A's sync while it runs: files queued or being read, progress short of the total.
      let seen: Library | undefined
      for (let tries = 0; tries < 500 && !seen; tries += 1) {
        const now = await library(driveB, ada.cookie)
        if (now.progress.running && now.documents.length > 0) seen = now
        else await new Promise((resolve) => setTimeout(resolve, 10))
      }
      expect(seen?.progress.done).toBeLessThan(seen?.progress.total ?? 0)
      const onB = await ingest(driveB, ada)
      const fromA = await onA
      emulator.state.setLatency(0)

      expect(fromA.statusCode).toBe(200)
      expect(onB.statusCode).toBe(200)
      // Files not read within the call's wait carry on in the background: count once all are done.
      await settled(driveB, ada.cookie)
      // One listing (three pages) and each readable file read once, whichever instance read it.
      expect(emulator.state.requestCount('files.list')).toBe(3)
      expect(emulator.state.requestCount('files.media') + emulator.state.requestCount('files.export')).toBe(
        27,
      )
    } finally {
      await close()
    }
  },
)

test.skipIf(!url)(
  `after the first sync, A and B syncing at once read Drive's change feed once and the changed file once${POSTGRES_SKIP_NOTE}`,
  async () => {
    const { emulator, driveA, driveB, close } = await driveInstances()
    try {
      const ada = await newPerson(driveA, 'multi-feed')
      await connectDrive(driveA, ada, { account: ADA })
      expect((await ingest(driveA, ada)).statusCode).toBe(200)
      await settled(driveB, ada.cookie)
      emulator.state.updateFile(FIXTURE_FILES.notes.id, {
        content: 'Team notes\n\nStaging moved to the host indigo-db-42.\n',
      })
      emulator.state.clearRequests()
      emulator.state.setLatency(30)

      const [onA, onB] = await Promise.all([
        ingest(driveA, ada),
        new Promise((resolve) => setTimeout(resolve, 10)).then(() => ingest(driveB, ada)),
      ])
      emulator.state.setLatency(0)

      expect([onA.statusCode, onB.statusCode]).toEqual([200, 200])
      await settled(driveB, ada.cookie)
      expect(emulator.state.requestCounts()).toEqual({ 'changes.list': 1, 'files.media': 1 })
    } finally {
      await close()
    }
  },
)
