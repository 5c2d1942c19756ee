/**
 * What every server test (and the chat, drive and Pact provider tests to come) builds on: an app
 * on a fresh in-memory database (a clone of one migrated template, ~0.4 s), or with
 * TEST_DATABASE_URL set a fresh PostgreSQL database (postgres-test-db.ts), logger off, no SPA
 * build, and a one-call sign-up + sign-in that hands back the Cookie header to send.
 */
import { randomUUID } from 'node:crypto'
import type { LightMyRequestResponse } from 'fastify'
import { authEndpoints, type User, UserPayloadSchema } from '#contracts/auth.ts'
import { type App, type BuildAppOptions, buildApp } from '#server/app.ts'
import type { AuthRateLimits } from '#server/auth/rate-limits.ts'
import { type Config, loadConfig } from '#server/config.ts'
import { createTestDatabase, TEST_DATABASE_URL } from './postgres-test-db.ts'

export const TEST_PASSWORD = 'correct horse battery'
export const TEST_APP_SECRET = 'test-app-secret-that-is-long-enough-0123456789'
/** A dist directory that does not exist: tests see the "not built" answer unless they pass one. */
export const NO_DIST_DIR = '/nonexistent/docchat-dist'

/** Tests sign up and in far more often than a person: limits are off unless a test sets them. */
const NO_LIMIT = { max: 1_000_000, timeWindowMs: 60_000 }
export const UNLIMITED_AUTH: AuthRateLimits = {
  loginPerIp: NO_LIMIT,
  loginPerAccountAndIp: NO_LIMIT,
  loginFailuresPerAccount: NO_LIMIT,
  registerPerIp: NO_LIMIT,
  registerPerAccount: NO_LIMIT,
  forgotPasswordPerIp: NO_LIMIT,
  forgotPasswordPerAccount: NO_LIMIT,
  confirmationMailPerAccount: NO_LIMIT,
  mailLinkPerIp: NO_LIMIT,
  passwordCheckFailuresPerAccount: NO_LIMIT,
  exportPerUser: NO_LIMIT,
}

export type TestAppOverrides = BuildAppOptions & { env?: Record<string, string> }

/**
 * OCR is off unless a test turns it on (`env: { OCR: 'on' }`): it is the slow part of reading
 * (seconds a page), and only the tests about it need it; the others see images skipped.
 */
export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({
    DATABASE_URL: 'memory:',
    APP_SECRET: TEST_APP_SECRET,
    NODE_ENV: 'test',
    OCR: 'off',
    ...env,
  })
}

/**
 * With TEST_DATABASE_URL set (`npm run test:postgres`, CI), an app whose test names no
 * DATABASE_URL gets its own fresh database on that PostgreSQL server, dropped when it closes;
 * otherwise a fresh in-memory PGlite.
 */
export async function buildTestApp(overrides: TestAppOverrides = {}): Promise<App> {
  const { env, ...options } = overrides
  const database =
    TEST_DATABASE_URL && env?.DATABASE_URL === undefined ? await createTestDatabase() : undefined
  const build = () =>
    buildApp(testConfig({ ...env, ...(database ? { DATABASE_URL: database.url } : {}) }), {
      logger: false,
      distDir: NO_DIST_DIR,
      ...options,
      rateLimits: { ...UNLIMITED_AUTH, ...options.rateLimits },
    })
  if (!database) return build()
  try {
    const app = await build()
    // Dropped once the app's own pool has ended (an onClose hook would run before that).
    const close = app.close.bind(app)
    app.close = (async () => {
      try {
        await close()
      } finally {
        await database.drop()
      }
    }) as unknown as App['close']
    return app
  } catch (error) {
    await database.drop()
    throw error
  }
}

export function uniqueEmail(prefix = 'user'): string {
  return `${prefix}-${randomUUID().slice(0, 8)}@example.com`
}

/**
 * The Cookie header a browser would send back right after `response` (cleared cookies left out).
 * Like a browser it judges expiry on its own clock: a lifetime (Max-Age) counts from now, and the
 * app's injected clock plays no part.
 */
export function cookieHeader(response: LightMyRequestResponse): string {
  return response.cookies
    .filter((c) => c.value !== '' && isLive(c))
    .map((c) => `${c.name}=${c.value}`)
    .join('; ')
}

function isLive(cookie: { maxAge?: number; expires?: Date }): boolean {
  if (cookie.maxAge !== undefined) return cookie.maxAge > 0
  return cookie.expires === undefined || cookie.expires.getTime() > Date.now()
}

export async function register(app: App, email: string, password = TEST_PASSWORD): Promise<User> {
  const response = await app.inject({
    method: authEndpoints.register.method,
    url: authEndpoints.register.path,
    payload: { email, password, confirmPassword: password },
  })
  if (response.statusCode !== 201) throw new Error(`register failed: ${response.statusCode} ${response.body}`)
  return UserPayloadSchema.parse(response.json()).data.user
}

export async function signIn(app: App, email: string, password = TEST_PASSWORD) {
  const response = await app.inject({
    method: authEndpoints.login.method,
    url: authEndpoints.login.path,
    payload: { email, password },
  })
  if (response.statusCode !== 200) throw new Error(`login failed: ${response.statusCode} ${response.body}`)
  return {
    response,
    cookie: cookieHeader(response),
    user: UserPayloadSchema.parse(response.json()).data.user,
  }
}

/** Registers a new account (a unique email unless given) and signs in: the Cookie header to send. */
export async function signUpAndSignIn(
  app: App,
  email = uniqueEmail(),
  password = TEST_PASSWORD,
): Promise<string> {
  await register(app, email, password)
  return (await signIn(app, email, password)).cookie
}
