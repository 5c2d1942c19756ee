/**
 * The OpenAPI document and its reference page (issue 38, D127). The contracts are read here on
 * their own (every file of contracts/, imported by name), so a contract that is missing from the
 * document, or described otherwise than it validates, fails this test.
 */
import { readdirSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { z } from 'zod'
import { API_DOCS_PATH, openApiEndpoint } from '#contracts/reference.ts'
import type { App } from '#server/app.ts'
import { type CataloguedEndpoint, endpointsOf } from '#server/reference/endpoint-catalogue.ts'
import { buildOpenApiDocument } from '#server/reference/openapi-document.ts'
import { SCALAR_SCRIPT_PATH } from '#server/reference/reference-plugin.ts'
import { buildTestApp } from '../support/helper.ts'

type Operation = {
  parameters?: { name: string; in: string; required: boolean; schema: unknown }[]
  requestBody?: { content: Record<string, { schema: unknown }> }
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>
}
type Document = { openapi: string; paths: Record<string, Record<string, Operation>> }

const CONTRACTS = path.resolve(import.meta.dirname, '../../../contracts')

let app: App
let document: Document
let contracts: CataloguedEndpoint[]

/** Every endpoint object of every contracts module, found by reading the folder. */
async function everyContract(): Promise<CataloguedEndpoint[]> {
  const files = readdirSync(CONTRACTS).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
  const modules = await Promise.all(
    files.map(async (f) => [f, await import(path.join(CONTRACTS, f))] as const),
  )
  return modules.flatMap(([file, module]) => endpointsOf(file.replace(/\.ts$/, ''), module))
}

/** The schema as the contract validates it, in JSON Schema (without the dialect line). */
function schemaOf(schema: z.core.$ZodType, io: 'input' | 'output') {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
  })
  return rest
}

const inDocument = (e: CataloguedEndpoint['endpoint']) =>
  document.paths[e.path.replace(/:([A-Za-z]+)/g, '{$1}')]?.[e.method.toLowerCase()]

beforeAll(async () => {
  app = await buildTestApp()
  const served = await app.inject({ method: 'GET', url: openApiEndpoint.path })
  document = served.json()
  contracts = await everyContract()
}, 60_000)
afterAll(async () => {
  await app?.close()
})

test('every endpoint object in contracts/ is in the document once, with its method and path', () => {
  expect(contracts.length).toBeGreaterThan(60)
  const calls = contracts.map(({ endpoint: e }) => `${e.method} ${e.path}`)
  expect(new Set(calls).size).toBe(calls.length)
  const operations = Object.entries(document.paths).flatMap(([p, methods]) =>
    Object.keys(methods).map((m) => `${m.toUpperCase()} ${p}`),
  )
  const expected = contracts.map(
    ({ endpoint: e }) => `${e.method} ${e.path.replace(/:([A-Za-z]+)/g, '{$1}')}`,
  )
  expect(operations.sort()).toEqual(expected.sort())
})

test("each call's parameters, body and success answer in the document are its contract's schemas", () => {
  for (const { endpoint: e } of contracts) {
    const operation = inDocument(e)
    if (!operation) throw new Error(`${e.method} ${e.path} is not in the document`)
    const where = `${e.method} ${e.path}`
    const parameters = operation.parameters ?? []
    for (const [place, schema] of [
      ['path', e.params],
      ['query', e.query],
    ] as const) {
      const properties = (schema ? schemaOf(schema, 'input').properties : {}) as Record<string, unknown>
      const documented = parameters.filter((p) => p.in === place)
      expect(Object.fromEntries(documented.map((p) => [p.name, p.schema])), where).toEqual(properties ?? {})
    }
    const body = operation.requestBody?.content['application/json']?.schema
    expect(body, where).toEqual(e.request ? schemaOf(e.request, 'input') : undefined)
    const success = operation.responses[String(e.status)]?.content
    if (e.kind === 'json')
      expect(success?.['application/json']?.schema, where).toEqual(schemaOf(e.response, 'output'))
    if (e.kind === 'stream')
      expect(success?.['text/event-stream']?.schema, where).toEqual(schemaOf(e.response, 'output'))
    if (e.kind === 'upload')
      expect(operation.requestBody?.content['multipart/form-data'], where).toBeDefined()
  }
})

test("the specification's fifteen calls are all described", () => {
  const spec = [
    'POST /auth/register',
    'POST /auth/login',
    'POST /auth/logout',
    'GET /auth/me',
    'POST /auth/refresh-token',
    'POST /chat/sessions/create',
    'GET /chat/sessions/all',
    'DELETE /chat/sessions/{id}/delete',
    'GET /chat/sessions/{id}/messages',
    'POST /chat/sessions/{id}/messages/send',
    'POST /chat/sessions/{id}/files/upload',
    'PATCH /chat/messages/{id}/feedback',
    'GET /google-drive/list-files',
    'GET /google-drive/get-file/{fileId}',
    'POST /google-drive/ingest-documents',
  ]
  for (const call of spec) {
    const [method = '', path = ''] = call.split(' ')
    expect(document.paths[`/api/v1${path}`]?.[method.toLowerCase()], call).toBeDefined()
  }
})

test('the document is OpenAPI 3.1, public and cacheable, and the one the generator builds', async () => {
  const served = await app.inject({ method: 'GET', url: openApiEndpoint.path })
  expect(served.statusCode).toBe(200)
  expect(served.headers['cache-control']).toBe('public, max-age=3600')
  expect(document.openapi).toBe('3.1.0')
  expect(served.json()).toEqual(
    JSON.parse(
      JSON.stringify(buildOpenApiDocument((served.json() as { info: { version: string } }).info.version)),
    ),
  )
})

test("the reference page loads Scalar's bundle from our own route, and its CSP allows exactly that script", async () => {
  const page = await app.inject({ method: 'GET', url: API_DOCS_PATH })
  expect(page.statusCode).toBe(200)
  expect(page.headers['content-type']).toBe('text/html; charset=utf-8')
  const csp = String(page.headers['content-security-policy'])
  expect(csp).toContain("script-src 'self'")
  expect(csp).not.toMatch(/unsafe-eval|script-src[^;]*(unsafe-inline|https?:)/)
  expect(csp).toContain("connect-src 'self'")
  const scripts = [...page.body.matchAll(/<script([^>]*)>([^<]*)<\/script>/g)]
  expect(scripts.map((m) => m[2]?.trim())).toEqual(['', ''])
  expect(page.body).toContain(`<script src="${SCALAR_SCRIPT_PATH}"></script>`)
  expect(page.body).toContain(`data-url="${openApiEndpoint.path}"`)

  const bundle = await app.inject({
    method: 'GET',
    url: SCALAR_SCRIPT_PATH,
    headers: { 'accept-encoding': 'gzip' },
  })
  expect(bundle.statusCode).toBe(200)
  expect(bundle.headers['content-type']).toBe('text/javascript; charset=utf-8')
  expect(bundle.headers['content-encoding']).toBe('gzip')
  expect(bundle.rawPayload.length).toBeGreaterThan(100_000)
})
