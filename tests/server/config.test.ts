import { mkdtempSync, readFileSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { APP_SECRET_MIN_LENGTH, loadConfig } from '#server/config.ts'

const scratch = () => mkdtempSync(join(tmpdir(), 'docchat-config-'))

test('defaults: port 3000 on 127.0.0.1, PGlite in ./.data, info logs, public URL on localhost', () => {
  const dir = scratch()
  const config = loadConfig({ DATA_DIR: dir })
  expect(config.port).toBe(3000)
  expect(config.host).toBe('127.0.0.1')
  expect(config.database).toEqual({ kind: 'pglite', dataDir: join(dir, 'pglite') })
  expect(config.publicUrl).toBe('http://localhost:3000')
  expect(config.publicOrigin).toBe('http://localhost:3000')
  expect(config.secureCookies).toBe(false)
  expect(config.logLevel).toBe('info')
  expect(config.isProduction).toBe(false)
})

test('DATA_DIR defaults to ./.data, resolved to an absolute path', () => {
  const config = loadConfig({ DATABASE_URL: 'memory:' })
  expect(config.dataDir).toBe(join(process.cwd(), '.data'))
})

test('PUBLIC_URL defaults to localhost on the configured PORT', () => {
  expect(loadConfig({ DATABASE_URL: 'memory:', PORT: '4123' }).publicUrl).toBe('http://localhost:4123')
})

test('an https PUBLIC_URL turns on secure cookies', () => {
  const config = loadConfig({ DATABASE_URL: 'memory:', PUBLIC_URL: 'https://docs.example.com/' })
  expect(config.secureCookies).toBe(true)
  expect(config.publicOrigin).toBe('https://docs.example.com')
})

test('DATABASE_URL picks in-memory PGlite or PostgreSQL', () => {
  expect(loadConfig({ DATABASE_URL: 'memory:' }).database).toEqual({ kind: 'memory' })
  const url = 'postgres://docchat:pw@127.0.0.1:5432/docchat'
  expect(loadConfig({ DATABASE_URL: url, DATA_DIR: scratch() }).database).toEqual({ kind: 'postgres', url })
  const alt = 'postgresql://127.0.0.1/docchat'
  expect(loadConfig({ DATABASE_URL: alt, DATA_DIR: scratch() }).database).toEqual({
    kind: 'postgres',
    url: alt,
  })
})

test('blank variables count as unset', () => {
  expect(loadConfig({ DATABASE_URL: 'memory:', PORT: '', LOG_LEVEL: ' ' }).port).toBe(3000)
})

test.each([
  [{ PORT: 'abc' }, /PORT: PORT must be a number/],
  [{ PORT: '70000' }, /PORT: PORT must be between 1 and 65535/],
  [{ PORT: '30.5' }, /PORT: PORT must be a whole number/],
  [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL: DATABASE_URL must be unset/],
  [{ APP_SECRET: 'short' }, /APP_SECRET: APP_SECRET must be at least 32 characters/],
  [{ PUBLIC_URL: 'ftp://example.com' }, /PUBLIC_URL: PUBLIC_URL must be an http/],
  [{ PUBLIC_URL: 'not a url' }, /PUBLIC_URL: PUBLIC_URL must be an http/],
  [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL: LOG_LEVEL must be one of/],
])('a bad value stops the start with a message naming the variable: %o', (env, message) => {
  expect(() => loadConfig({ DATABASE_URL: 'memory:', ...env })).toThrow(message)
})

test('APP_SECRET is required in production', () => {
  expect(() => loadConfig({ NODE_ENV: 'production', DATABASE_URL: 'memory:' })).toThrow(
    /APP_SECRET: required when NODE_ENV=production/,
  )
  const secret = 'x'.repeat(APP_SECRET_MIN_LENGTH)
  expect(loadConfig({ NODE_ENV: 'production', DATABASE_URL: 'memory:', APP_SECRET: secret }).appSecret).toBe(
    secret,
  )
})

test('without APP_SECRET a secret is generated once, kept in DATA_DIR/app-secret (0600), and reused', () => {
  const dir = scratch()
  const first = loadConfig({ DATA_DIR: dir })
  const second = loadConfig({ DATA_DIR: dir })
  expect(first.appSecret.length).toBeGreaterThanOrEqual(APP_SECRET_MIN_LENGTH)
  expect(second.appSecret).toBe(first.appSecret)
  const file = join(dir, 'app-secret')
  expect(readFileSync(file, 'utf8')).toBe(first.appSecret)
  expect(statSync(file).mode & 0o777).toBe(0o600)
})

test('an in-memory database gets a fresh secret each time, written nowhere', () => {
  const a = loadConfig({ DATABASE_URL: 'memory:' })
  const b = loadConfig({ DATABASE_URL: 'memory:' })
  expect(a.appSecret).not.toBe(b.appSecret)
  expect(a.appSecret.length).toBeGreaterThanOrEqual(APP_SECRET_MIN_LENGTH)
})

test('OCR is on in English by default; OCR=off turns it off; its limits are settings', () => {
  const base = { DATABASE_URL: 'memory:' }
  expect(loadConfig(base).ocr).toEqual({ languages: 'eng', maxPages: 200, pageTimeMs: 30_000 })
  expect(loadConfig({ ...base, OCR: 'off' }).ocr).toBeNull()
  expect(loadConfig({ ...base, OCR_MAX_PAGES: '20', OCR_PAGE_TIMEOUT_MS: '5000' }).ocr).toMatchObject({
    maxPages: 20,
    pageTimeMs: 5000,
  })
  expect(() => loadConfig({ ...base, OCR: 'maybe' })).toThrow('OCR: OCR must be on or off')
  expect(() => loadConfig({ ...base, OCR_MAX_PAGES: '0' })).toThrow(
    'OCR_MAX_PAGES: OCR_MAX_PAGES must be at least 1',
  )
})

test('OCR_LANGUAGES names only languages whose data package is installed, or the start stops saying which', () => {
  const base = { DATABASE_URL: 'memory:' }
  // Only English's data ships with DocChat (package.json); another language is an npm install away.
  expect(() => loadConfig({ ...base, OCR_LANGUAGES: 'eng+zzz' })).toThrow(
    'OCR_LANGUAGES: no language data installed for zzz (add it with `npm install @tesseract.js-data/zzz`, or set OCR=off)',
  )
  expect(() => loadConfig({ ...base, OCR_LANGUAGES: 'english' })).toThrow(
    'OCR_LANGUAGES must be Tesseract language codes joined by +',
  )
  // With OCR off, the languages are not looked for.
  expect(loadConfig({ ...base, OCR: 'off', OCR_LANGUAGES: 'eng+zzz' }).ocr).toBeNull()
})

test('PUBLISHED_CONCURRENCY (20) and USAGE_TOKENS_PER_DAY (1,000,000; 0 is no limit) are read and bounded', () => {
  const base = { DATABASE_URL: 'memory:' }
  expect(loadConfig(base)).toMatchObject({ publishedConcurrency: 20, usageTokensPerDay: 1_000_000 })
  expect(loadConfig({ ...base, PUBLISHED_CONCURRENCY: '3', USAGE_TOKENS_PER_DAY: '0' })).toMatchObject({
    publishedConcurrency: 3,
    usageTokensPerDay: 0,
  })
  expect(() => loadConfig({ ...base, PUBLISHED_CONCURRENCY: '0' })).toThrow(
    /PUBLISHED_CONCURRENCY: PUBLISHED_CONCURRENCY must be at least 1/,
  )
  expect(() => loadConfig({ ...base, USAGE_TOKENS_PER_DAY: '-1' })).toThrow(
    /USAGE_TOKENS_PER_DAY: USAGE_TOKENS_PER_DAY must be 0 \(no limit\) or more tokens/,
  )
})

test('API_KEY_REQUESTS_PER_MINUTE (60) and API_KEY_TOKENS_PER_DAY (200,000) are read and bounded', () => {
  const base = { DATABASE_URL: 'memory:' }
  expect(loadConfig(base).apiKeyLimits).toEqual({ requestsPerMinute: 60, tokensPerDay: 200_000 })
  expect(
    loadConfig({ ...base, API_KEY_REQUESTS_PER_MINUTE: '5', API_KEY_TOKENS_PER_DAY: '1000' }).apiKeyLimits,
  ).toEqual({ requestsPerMinute: 5, tokensPerDay: 1000 })
  expect(() => loadConfig({ ...base, API_KEY_REQUESTS_PER_MINUTE: '0' })).toThrow(
    /API_KEY_REQUESTS_PER_MINUTE: API_KEY_REQUESTS_PER_MINUTE must be at least 1/,
  )
})
