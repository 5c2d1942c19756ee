import { afterAll, beforeAll, expect, test } from 'vitest'
import { authEndpoints } from '#contracts/auth.ts'
import type { App } from '#server/app.ts'
import { REFRESH_GRACE_MS } from '#server/auth/tokens.ts'
import { buildTestApp, cookieHeader, register, signIn, TEST_PASSWORD } from '../support/helper.ts'

const lines: string[] = []
let clock = Date.now()
let app: App

beforeAll(async () => {
  app = await buildTestApp({
    now: () => new Date(clock),
    logger: { level: 'info', stream: { write: (line) => lines.push(line) } },
  })
})
afterAll(async () => {
  await app.close()
})

type LogLine = { event?: string; userId?: string; emailDomain?: string; level: number }
const events = () => lines.map((l) => JSON.parse(l) as LogLine).filter((l) => l.event)

test('auth events are logged with a user id or an email domain, never a password, hash, token or cookie', async () => {
  const email = 'Secret.Person@logs.example'
  const user = await register(app, email)
  await app.inject({
    method: 'POST',
    url: authEndpoints.login.path,
    payload: { email, password: 'wrong pw' },
  })
  const { cookie } = await signIn(app, email)
  const refreshed = await app.inject({
    method: 'POST',
    url: authEndpoints.refreshToken.path,
    headers: { cookie },
  })
  clock += REFRESH_GRACE_MS + 1
  await app.inject({ method: 'POST', url: authEndpoints.refreshToken.path, headers: { cookie } })
  await app.inject({
    method: 'POST',
    url: authEndpoints.logout.path,
    headers: { cookie: cookieHeader(refreshed) },
  })

  const logged = events()
  expect(logged.map((e) => e.event)).toEqual([
    'auth.register',
    'auth.login.failed',
    'auth.login',
    'auth.refresh',
    'auth.refresh.reuse',
    'auth.logout',
  ])
  expect(logged.find((e) => e.event === 'auth.login.failed')?.emailDomain).toBe('logs.example')
  expect(logged.find((e) => e.event === 'auth.login')?.userId).toBe(user._id)
  expect(logged.find((e) => e.event === 'auth.refresh.reuse')?.level).toBe(40)

  const all = lines.join('\n')
  for (const secret of [
    TEST_PASSWORD,
    'wrong pw',
    'Secret.Person',
    'argon2',
    'docchat_access',
    'docchat_refresh',
  ]) {
    expect(all).not.toContain(secret)
  }
  for (const value of cookie.split('; ').map((c) => c.split('=')[1] ?? '')) expect(all).not.toContain(value)
})

test('a 5xx is logged with its details while the caller sees none', async () => {
  const failing = await buildTestApp({
    logger: { level: 'info', stream: { write: (line) => lines.push(line) } },
  })
  try {
    failing.get('/api/v1/test/explode', async () => {
      throw new Error('the disk is on fire')
    })
    const response = await failing.inject({ method: 'GET', url: '/api/v1/test/explode' })
    expect(response.body).not.toContain('fire')
    expect(lines.some((l) => l.includes('the disk is on fire') && l.includes('"level":50'))).toBe(true)
  } finally {
    await failing.close()
  }
})
