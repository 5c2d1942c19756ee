/**
 * The operator's command line (`npm run users -- …`, scripts/users.ts) against a real database:
 * the embedded one in a data directory (the server stopped, as the docs say), and on PostgreSQL
 * with a server running, where a disabled account's session ends at once on that instance too.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { accountLinkEndpoints } from '#contracts/account-links.ts'
import { authEndpoints } from '#contracts/auth.ts'
import { type App, buildApp } from '#server/app.ts'
import { loadConfig } from '#server/config.ts'
import { runUsersCommand } from '../../../scripts/users.ts'
import { call, errorOf } from '../support/chat-helpers.ts'
import {
  buildTestApp,
  NO_DIST_DIR,
  register,
  signIn,
  TEST_APP_SECRET,
  TEST_PASSWORD,
  UNLIMITED_AUTH,
} from '../support/helper.ts'
import { createTestDatabase, POSTGRES_SKIP_NOTE, TEST_DATABASE_URL } from '../support/postgres-test-db.ts'

const dataDir = mkdtempSync(path.join(tmpdir(), 'docchat-users-cli-'))
const env = {
  DATA_DIR: dataDir,
  APP_SECRET: TEST_APP_SECRET,
  NODE_ENV: 'test',
  PUBLIC_URL: 'http://127.0.0.1:3997',
}
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

/** The server, started on the data directory for a moment (the CLI needs it stopped). */
async function withServer<T>(use: (app: App) => Promise<T>): Promise<T> {
  const app = await buildApp(loadConfig(env), {
    logger: false,
    distDir: NO_DIST_DIR,
    rateLimits: UNLIMITED_AUTH,
  })
  try {
    return await use(app)
  } finally {
    await app.close()
  }
}

async function users(...args: string[]) {
  const lines: string[] = []
  const code = await runUsersCommand(args, env, (line) => lines.push(line))
  return { code, out: lines.join('\n') }
}

const ADA = 'ada@example.com'
const BOB = 'bob@example.com'

test('list, disable, enable, reset-link and delete, on the embedded database', async () => {
  const adaCookie = await withServer(async (app) => {
    await register(app, ADA)
    await register(app, BOB)
    return (await signIn(app, ADA)).cookie
  })

  const list = await users('list')
  expect(list.code).toBe(0)
  expect(list.out).toMatch(/ada@example\.com\t\d{4}-\d\d-\d\d\tactive\tpassword/)
  expect(list.out).toContain('2 accounts')

  expect((await users('disable', ADA)).out).toBe(
    'ada@example.com is disabled: it cannot sign in, and 1 session ended.',
  )
  await withServer(async (app) => {
    expect((await call(app, authEndpoints.me, { cookie: adaCookie })).statusCode).toBe(401)
    const refused = await call(app, authEndpoints.login, { body: { email: ADA, password: TEST_PASSWORD } })
    expect(refused.statusCode).toBe(403)
    expect(errorOf(refused)).toBe('This account is disabled. Ask the operator of this server.')
  })
  expect((await users('list')).out).toMatch(/ada@example\.com\t\S+\tdisabled/)
  expect((await users('enable', ADA)).code).toBe(0)
  await withServer(async (app) => expect((await signIn(app, ADA)).user.email).toBe(ADA))

  const link = (await users('reset-link', BOB)).out.split('\n')[1] ?? ''
  expect(link).toMatch(/^http:\/\/127\.0\.0\.1:3997\/reset-password\?token=[\w-]{43}$/)
  await withServer(async (app) => {
    const token = new URL(link).searchParams.get('token') ?? ''
    const body = { token, password: 'bobs new password', confirmPassword: 'bobs new password' }
    expect((await call(app, accountLinkEndpoints.resetPassword, { body })).statusCode).toBe(200)
    expect((await signIn(app, BOB, 'bobs new password')).user.email).toBe(BOB)
  })

  expect((await users('delete', BOB)).out).toBe('bob@example.com is deleted, with everything it held.')
  await withServer(async (app) => {
    expect(
      (await call(app, authEndpoints.login, { body: { email: BOB, password: 'bobs new password' } }))
        .statusCode,
    ).toBe(401)
  })
  expect((await users('list')).out).not.toContain(BOB)
}, 120_000)

test("usage prints the last 30 days, a line a day by source, and this month's totals, also per key and assistant", async () => {
  const cat = 'cat@example.com'
  let prefix = ''
  await withServer(async (app) => {
    const { _id } = await register(app, cat)
    const owner = { id: _id }
    const assistantId = (
      await app.assistants.create(owner, { name: 'Helpdesk', fallbackAnswer: 'Not here.' })
    )._id
    const key = await app.apiKeys.create(owner, { name: "Cat's bot", scopes: ['chat'], expiresInDays: null })
    prefix = key.prefix
    await app.usage.recordAnswer({ ownerId: _id, source: 'app', promptTokens: 10, completionTokens: 2 })
    await app.usage.recordAnswer({
      ownerId: _id,
      source: 'published',
      assistantId,
      promptTokens: 30,
      completionTokens: 0,
    })
    await app.usage.recordAnswer({
      ownerId: _id,
      source: 'api',
      assistantId,
      keyId: key._id,
      promptTokens: 30,
      completionTokens: 10,
    })
  })
  const { code, out } = await users('usage', cat)
  expect(code).toBe(0)
  const lines = out.split('\n')
  expect(lines[0]).toBe('Usage of cat@example.com, the last 30 days (UTC; 1000000 tokens a day):')
  expect(lines[1]).toBe(
    'day\tapp tokens\tapp answers\tapi tokens\tapi answers\tpublished tokens\tpublished answers',
  )
  const today = new Date().toISOString().slice(0, 10)
  expect(lines[31]).toBe(`${today}\t12\t1\t40\t1\t30\t1`)
  expect(lines[32]).toBe(`${today.slice(0, 7)}\t12\t1\t40\t1\t30\t1`)
  expect(lines.slice(33)).toEqual([
    'This month per API key:',
    'key\tprefix\ttokens\tanswers',
    `Cat's bot\t${prefix}\t40\t1`,
    'This month per assistant:',
    'assistant\ttokens\tanswers',
    'Helpdesk\t70\t2',
  ])
}, 60_000)

test('an unknown email, or a wrong command, says so and fails', async () => {
  expect(await users('disable', 'nobody@example.com')).toEqual({
    code: 1,
    out: 'No account with the email nobody@example.com.',
  })
  expect((await users('frobnicate')).code).toBe(2)
  expect((await users('disable')).out).toMatch(/^usage: npm run users -- list \| disable <email>/)
}, 60_000)

test.skipIf(!TEST_DATABASE_URL)(
  `disable ends a running server's sessions at once (PostgreSQL, LISTEN/NOTIFY)${POSTGRES_SKIP_NOTE}`,
  async () => {
    const database = await createTestDatabase()
    const app = await buildTestApp({ env: { DATABASE_URL: database.url } })
    try {
      await register(app, ADA)
      const { cookie } = await signIn(app, ADA)
      expect((await call(app, authEndpoints.me, { cookie })).statusCode).toBe(200)
      const lines: string[] = []
      await runUsersCommand(['disable', ADA], { ...env, DATABASE_URL: database.url }, (l) => lines.push(l))
      await expect
        .poll(async () => (await call(app, authEndpoints.me, { cookie })).statusCode, { timeout: 1_000 })
        .toBe(401)
    } finally {
      await app.close()
      await database.drop()
    }
  },
)
