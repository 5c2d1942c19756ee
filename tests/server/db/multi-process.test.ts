/**
 * Two real server processes (`node server/main.ts`, as deployed) on one PostgreSQL database,
 * behind nothing: sign in on A, log out on B, and A refuses the access cookie within 1 s. Both
 * then shut down on SIGTERM and exit 0. Runs when TEST_DATABASE_URL names a server (D39).
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { createServer } from 'node:net'
import path from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { authEndpoints } from '#contracts/auth.ts'
import { readyEndpoint } from '#contracts/operations.ts'
import { TEST_APP_SECRET, TEST_PASSWORD, uniqueEmail } from '../support/helper.ts'
import {
  createTestDatabase,
  POSTGRES_SKIP_NOTE,
  TEST_DATABASE_URL,
  type TestDatabase,
} from '../support/postgres-test-db.ts'

const ROOT = path.resolve(import.meta.dirname, '../../..')
const url = TEST_DATABASE_URL
let database: TestDatabase | undefined
const servers: Array<{ child: ChildProcess; base: string }> = []

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as { port: number }
  server.close()
  return port
}

async function startServer(databaseUrl: string): Promise<{ child: ChildProcess; base: string }> {
  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  const child = spawn(process.execPath, ['server/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      DATABASE_URL: databaseUrl,
      APP_SECRET: TEST_APP_SECRET,
      PORT: String(port),
      PUBLIC_URL: base,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  const deadline = Date.now() + 45_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`)
    const ready = await fetch(`${base}${readyEndpoint.path}`).catch(() => undefined)
    if (ready?.status === 200) return { child, base }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`${base} was not ready within 45 s`)
}

beforeAll(async () => {
  if (!url) return
  database = await createTestDatabase()
  servers.push(...(await Promise.all([startServer(database.url), startServer(database.url)])))
}, 60_000)

afterAll(async () => {
  for (const { child } of servers) if (child.exitCode === null) child.kill('SIGKILL')
  await database?.drop()
})

const post = (base: string, p: string, body: unknown, cookie?: string) =>
  fetch(`${base}${p}`, {
    method: 'POST',
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(cookie ? { cookie } : {}),
    },
    body: body === undefined ? null : JSON.stringify(body),
  })
const me = (base: string, cookie: string) => fetch(`${base}${authEndpoints.me.path}`, { headers: { cookie } })

test.skipIf(!url)(
  `two server processes: signed in on A, logged out on B, A refuses within 1 s; both exit 0 on SIGTERM${POSTGRES_SKIP_NOTE}`,
  async () => {
    const [a, b] = servers as [(typeof servers)[0], (typeof servers)[0]]
    const email = uniqueEmail('procs')
    const registered = await post(a.base, authEndpoints.register.path, {
      email,
      password: TEST_PASSWORD,
      confirmPassword: TEST_PASSWORD,
    })
    expect(registered.status).toBe(201)
    const login = await post(a.base, authEndpoints.login.path, { email, password: TEST_PASSWORD })
    expect(login.status).toBe(200)
    const cookie = login.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ')
    expect((await me(a.base, cookie)).status).toBe(200)
    expect((await me(b.base, cookie)).status).toBe(200)

    expect((await post(b.base, authEndpoints.logout.path, undefined, cookie)).status).toBe(200)
    const start = performance.now()
    let status = 200
    while (status !== 401 && performance.now() - start < 1_000) {
      status = (await me(a.base, cookie)).status
      if (status !== 401) await new Promise((resolve) => setTimeout(resolve, 20))
    }
    expect(status).toBe(401)
    expect(performance.now() - start).toBeLessThan(1_000)

    const exits = servers.map(({ child }) => once(child, 'exit'))
    for (const { child } of servers) child.kill('SIGTERM')
    expect((await Promise.all(exits)).map(([code]) => code)).toEqual([0, 0])
  },
  60_000,
)
