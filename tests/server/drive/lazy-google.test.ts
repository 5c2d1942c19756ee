/**
 * The Google client libraries load on the first Drive or OAuth call, not at start (D53):
 * start-up time and idle memory do not pay for them on a server nobody connects a Drive to.
 */
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { expect, test } from 'vitest'

const PROBE = path.join(import.meta.dirname, '../support/fixtures/google-load-probe.ts')

test('starting and serving sign-in and chat loads no Google library; the connect call loads them and works', () => {
  const result = spawnSync(process.execPath, [PROBE], {
    cwd: path.resolve(import.meta.dirname, '../../..'),
    encoding: 'utf8',
    timeout: 60_000,
  })
  expect(result.stderr).toBe('')
  const probe = JSON.parse(result.stdout.trim().split('\n').at(-1) ?? '{}') as {
    afterStart: number
    afterConnect: number
    status: number
    location: string
    promClient: number
  }
  expect(probe.afterStart).toBe(0)
  // With metrics off, prom-client is never loaded (D51).
  expect(probe.promClient).toBe(0)
  expect(probe.afterConnect).toBeGreaterThan(0)
  // The consent URL built by the (now loaded) OAuth client, with its PKCE challenge.
  expect(probe.status).toBe(302)
  expect(probe.location).toMatch(/^https:\/\/accounts\.google\.com\/.*code_challenge_method=S256/)
}, 90_000)
