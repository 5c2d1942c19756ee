import { afterAll, beforeAll, expect, test } from 'vitest'
import { authEndpoints } from '#contracts/auth.ts'
import { DRIVE_CALLBACK_PATH } from '#contracts/drive.ts'
import { ErrorEnvelopeSchema } from '#contracts/endpoint.ts'
import type { App } from '#server/app.ts'
import { loggableUrl, maskEmails } from '#server/http/request-logger.ts'
import { buildTestApp, signUpAndSignIn, testConfig } from '../support/helper.ts'

const lines: string[] = []
let app: App

beforeAll(async () => {
  app = await buildTestApp({ logger: { level: 'info', stream: { write: (line) => lines.push(line) } } })
})
afterAll(async () => {
  await app.close()
})

test('a malformed URL answers 400 in our envelope, with our security headers, without echoing the path', async () => {
  for (const url of ['/api/v1/%', '/api/v1/chat/sessions/%E0%A4%A/messages']) {
    const response = await app.inject({ method: 'GET', url })
    expect(response.statusCode).toBe(400)
    expect(ErrorEnvelopeSchema.parse(response.json())).toEqual({
      success: false,
      message: 'The address is not a valid URL',
    })
    expect(response.headers['x-content-type-options']).toBe('nosniff')
    expect(response.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'")
    expect(response.headers['cache-control']).toBe('no-store')
  }
  const page = await app.inject({ method: 'GET', url: '/%' })
  expect(page.statusCode).toBe(400)
  expect(page.headers['x-frame-options']).toBeDefined()
  expect(page.headers['content-security-policy']).toContain("script-src 'self'")
})

test('request logs carry neither the OAuth callback code and state nor whole email addresses', async () => {
  const cookie = await signUpAndSignIn(app)
  await app.inject({
    method: 'GET',
    url: `${DRIVE_CALLBACK_PATH}?code=4%2F0AQSTgQSecretCode&state=SecretStateValue&scope=drive`,
    headers: { cookie },
  })
  await app.inject({
    method: 'GET',
    url: '/api/v1/google-drive/files?email=ada.lovelace%40example.com',
    headers: { cookie },
  })
  const logged = lines.join('\n')
  expect(logged).toContain(DRIVE_CALLBACK_PATH)
  expect(logged).not.toContain('SecretCode')
  expect(logged).not.toContain('SecretStateValue')
  expect(logged).toContain('code=[redacted]')
  expect(logged).not.toContain('ada.lovelace')
  expect(logged).toContain('a***@example.com')
})

test('emails are masked to their first letter and domain', () => {
  expect(maskEmails('from ada@example.com and bob.smith@mail.example.org')).toBe(
    'from a***@example.com and b***@mail.example.org',
  )
  expect(loggableUrl('/x?email=ada%40example.com&page=2')).toBe('/x?email=a***@example.com&page=2')
})

test('without TRUST_PROXY a forged X-Forwarded-For changes nothing: limits key on the socket address', async () => {
  const limited = await buildTestApp({ rateLimits: { loginPerIp: { max: 2, timeWindowMs: 60_000 } } })
  try {
    const statuses: number[] = []
    for (let i = 0; i < 3; i++) {
      const response = await limited.inject({
        method: authEndpoints.login.method,
        url: authEndpoints.login.path,
        remoteAddress: '203.0.113.9',
        headers: { 'x-forwarded-for': `198.51.100.${i}` },
        payload: { email: `nobody${i}@example.com`, password: 'wrong password' },
      })
      statuses.push(response.statusCode)
    }
    expect(statuses).toEqual([401, 401, 429])
  } finally {
    await limited.close()
  }
})

test('with TRUST_PROXY naming the proxy, limits key on the client address it forwards', async () => {
  const limited = await buildTestApp({
    env: { TRUST_PROXY: '10.0.0.1' },
    rateLimits: { loginPerIp: { max: 2, timeWindowMs: 60_000 } },
  })
  try {
    const attempt = (client: string, i: number) =>
      limited.inject({
        method: authEndpoints.login.method,
        url: authEndpoints.login.path,
        remoteAddress: '10.0.0.1',
        headers: { 'x-forwarded-for': client },
        payload: { email: `nobody${i}@example.com`, password: 'wrong password' },
      })
    expect((await attempt('198.51.100.1', 1)).statusCode).toBe(401)
    expect((await attempt('198.51.100.1', 2)).statusCode).toBe(401)
    expect((await attempt('198.51.100.1', 3)).statusCode).toBe(429)
    // Another client behind the same proxy has its own allowance.
    expect((await attempt('198.51.100.2', 4)).statusCode).toBe(401)
  } finally {
    await limited.close()
  }
})

test('TRUST_PROXY is off by default and checked at start', () => {
  expect(testConfig().trustProxy).toBe(false)
  expect(testConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true)
  expect(testConfig({ TRUST_PROXY: '10.0.0.1, 192.168.0.0/16' }).trustProxy).toEqual([
    '10.0.0.1',
    '192.168.0.0/16',
  ])
  expect(() => testConfig({ TRUST_PROXY: 'everyone' })).toThrow(/TRUST_PROXY must be true, false/)
})
