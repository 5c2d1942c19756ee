import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { authEndpoints } from '#contracts/auth.ts'
import { buildApp } from '#server/app.ts'
import { loadConfig } from '#server/config.ts'
import { register, signIn, UNLIMITED_AUTH, uniqueEmail } from '../support/helper.ts'

// These tests open a real PGlite directory (initdb ~3 s the first time), so they share one.
const dataDir = mkdtempSync(join(tmpdir(), 'docchat-data-'))
const config = () => loadConfig({ DATA_DIR: dataDir, NODE_ENV: 'test' })
const open = () => buildApp(config(), { logger: false, rateLimits: UNLIMITED_AUTH, distDir: '/nonexistent' })

test('a second app on the same data directory fails with a clear message; after close it opens', async () => {
  const first = await open()
  try {
    await expect(open()).rejects.toThrow(
      `Another DocChat server is already using the data directory ${dataDir} (PGlite allows one process per directory). Stop it or set DATA_DIR.`,
    )
  } finally {
    await first.close()
  }
  const again = await open()
  await again.close()
}, 60_000)

test('a registered user and a signed-in session survive closing and reopening the app', async () => {
  const email = uniqueEmail('durable')
  const first = await open()
  const user = await register(first, email)
  const { cookie } = await signIn(first, email)
  await first.close()

  const second = await open()
  try {
    const me = await second.inject({ method: 'GET', url: authEndpoints.me.path, headers: { cookie } })
    expect(me.statusCode).toBe(200)
    expect(authEndpoints.me.response.parse(me.json()).data).toEqual(user)
    expect((await signIn(second, email)).user).toEqual(user)
  } finally {
    await second.close()
  }
}, 60_000)
