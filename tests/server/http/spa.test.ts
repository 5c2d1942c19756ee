import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { ErrorEnvelopeSchema } from '#contracts/endpoint.ts'
import type { App } from '#server/app.ts'
import { precompressDir } from '../../../build/precompress.ts'
import { buildTestApp } from '../support/helper.ts'

// Both over 1 KB, so the build step writes compressed siblings for them.
const INDEX = `<!doctype html><html><head><title>DocChat</title><!-- ${'padding '.repeat(150)}--></head><body><div id="root"></div><script type="module" src="/assets/index-Ab12Cd.js"></script></body></html>`
const SCRIPT = 'console.log("app");\n'.repeat(100)
let app: App
let unbuilt: App

beforeAll(async () => {
  const dist = mkdtempSync(join(tmpdir(), 'docchat-dist-'))
  mkdirSync(join(dist, 'assets'))
  writeFileSync(join(dist, 'index.html'), INDEX)
  writeFileSync(join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>')
  writeFileSync(join(dist, 'assets', 'index-Ab12Cd.js'), SCRIPT)
  await precompressDir(dist)
  ;[app, unbuilt] = await Promise.all([buildTestApp({ distDir: dist }), buildTestApp()])
})
afterAll(async () => {
  await Promise.all([app.close(), unbuilt.close()])
})

test('/ serves index.html, revalidated on every visit, with the CSP', async () => {
  const response = await app.inject({ method: 'GET', url: '/' })
  expect(response.statusCode).toBe(200)
  expect(response.body).toBe(INDEX)
  expect(response.headers['content-type']).toMatch(/^text\/html/)
  expect(response.headers['cache-control']).toBe('no-cache')
  expect(response.headers['content-security-policy']).toContain("script-src 'self'")
})

test.each(['/dashboard', '/login', '/register', '/whatever/deep/path', '/dashboard?tab=history'])(
  'the client-side route %s gets index.html',
  async (url) => {
    const response = await app.inject({ method: 'GET', url })
    expect(response.statusCode).toBe(200)
    expect(response.body).toBe(INDEX)
    expect(response.headers['cache-control']).toBe('no-cache')
  },
)

test('hashed assets are served with a one-year immutable cache', async () => {
  const response = await app.inject({ method: 'GET', url: '/assets/index-Ab12Cd.js' })
  expect(response.statusCode).toBe(200)
  expect(response.body).toBe(SCRIPT)
  expect(response.headers['content-type']).toMatch(/javascript/)
  expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable')
})

test('other files at the root are served and revalidated', async () => {
  const response = await app.inject({ method: 'GET', url: '/favicon.svg' })
  expect(response.statusCode).toBe(200)
  expect(response.headers['cache-control']).toBe('no-cache')
})

test('a missing hashed asset answers 404, not index.html', async () => {
  const response = await app.inject({ method: 'GET', url: '/assets/index-old.js' })
  expect(response.statusCode).toBe(404)
  expect(response.body).not.toContain('<html')
})

test('an unknown API path answers the JSON 404 envelope, not index.html', async () => {
  const response = await app.inject({ method: 'GET', url: '/api/v1/nothing-here' })
  expect(response.statusCode).toBe(404)
  expect(ErrorEnvelopeSchema.parse(response.json()).success).toBe(false)
})

test('the API keeps working beside the SPA', async () => {
  const response = await app.inject({ method: 'GET', url: '/api/v1/health' })
  expect(response.json()).toEqual({ status: 'ok' })
})

test('without a build, pages answer a short text saying to run npm run build', async () => {
  const response = await unbuilt.inject({ method: 'GET', url: '/dashboard' })
  expect(response.statusCode).toBe(404)
  expect(response.headers['content-type']).toMatch(/^text\/plain/)
  expect(response.body).toContain('npm run build')
})

test('without a build, the API still answers', async () => {
  const response = await unbuilt.inject({ method: 'GET', url: '/api/v1/health' })
  expect(response.statusCode).toBe(200)
})

test.each([
  ['br', 'br, gzip, deflate', brotliDecompressSync],
  ['gzip', 'gzip, deflate', gunzipSync],
])('a hashed asset comes precompressed as %s, still cached for a year', async (encoding, accept, decode) => {
  const response = await app.inject({
    method: 'GET',
    url: '/assets/index-Ab12Cd.js',
    headers: { 'accept-encoding': accept },
  })
  expect(response.statusCode).toBe(200)
  expect(response.headers['content-encoding']).toBe(encoding)
  expect(response.headers['content-type']).toMatch(/javascript/)
  expect(response.headers.vary).toMatch(/accept-encoding/i)
  expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable')
  expect(response.rawPayload.length).toBeLessThan(SCRIPT.length)
  expect(decode(response.rawPayload).toString()).toBe(SCRIPT)
})

test('a client that accepts no compression gets the plain file, varying on Accept-Encoding', async () => {
  const response = await app.inject({
    method: 'GET',
    url: '/assets/index-Ab12Cd.js',
    headers: { 'accept-encoding': 'identity' },
  })
  expect(response.headers['content-encoding']).toBeUndefined()
  expect(response.headers.vary).toMatch(/accept-encoding/i)
  expect(response.body).toBe(SCRIPT)
})

test.each(['/', '/dashboard'])('%s sends index.html brotli-compressed and revalidated', async (url) => {
  const response = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br' } })
  expect(response.statusCode).toBe(200)
  expect(response.headers['content-encoding']).toBe('br')
  expect(response.headers['content-type']).toMatch(/^text\/html/)
  expect(response.headers['cache-control']).toBe('no-cache')
  expect(brotliDecompressSync(response.rawPayload).toString()).toBe(INDEX)
})

test('the build step leaves small files alone and writes smaller siblings for the rest', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'docchat-precompress-'))
  writeFileSync(join(dir, 'small.js'), 'x()')
  writeFileSync(join(dir, 'big.css'), 'a{color:red}'.repeat(200))
  writeFileSync(join(dir, 'photo.png'), Buffer.alloc(4096))

  const compressed = await precompressDir(dir)

  expect(compressed).toEqual([join(dir, 'big.css')])
  expect(readdirSync(dir).sort()).toEqual(['big.css', 'big.css.br', 'big.css.gz', 'photo.png', 'small.js'])
})
