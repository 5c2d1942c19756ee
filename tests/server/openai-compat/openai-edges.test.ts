/**
 * The OpenAI-compatible endpoint's edges (D130): CORS off unless the operator lists origins (and
 * then only for those, preflight included); the bounds on a request (messages, characters, the
 * question's length, text parts only), each a 400 naming the field; errors in OpenAI's shape even
 * for an unknown path or a body that is not JSON; the key checked before the body.
 */
import { afterAll, beforeAll, expect, test } from 'vitest'
import {
  MAX_MESSAGES,
  MAX_QUESTION_CHARACTERS,
  MAX_TOTAL_CHARACTERS,
  OPENAI_PATHS,
  OpenAiErrorSchema,
} from '#contracts/openai.ts'
import type { App } from '#server/app.ts'
import { buildTestApp, testConfig } from '../support/helper.ts'
import { newKey, newPerson } from '../support/openai-helpers.ts'

const ALLOWED = 'https://tools.example.com'
let app: App
let open: App
let key: string

beforeAll(async () => {
  app = await buildTestApp({
    env: { API_CORS_ORIGINS: `${ALLOWED}, http://localhost:5173` },
  })
  open = await buildTestApp()
  key = await newKey(app, (await newPerson(app)).cookie)
}, 120_000)
afterAll(async () => {
  await app?.close()
  await open?.close()
})

const preflight = (target: App, origin: string) =>
  target.inject({
    method: 'OPTIONS',
    url: OPENAI_PATHS.chatCompletions,
    headers: {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization, content-type, x-stainless-os',
    },
  })

function complete(target: App, body: unknown, headers: Record<string, string> = {}) {
  return target.inject({
    method: 'POST',
    url: OPENAI_PATHS.chatCompletions,
    headers: { authorization: `Bearer ${key}`, ...headers },
    payload: body as object,
  })
}

const user = (content: string) => ({ role: 'user', content })

test('without API_CORS_ORIGINS no page may call: no CORS header, preflight refused', async () => {
  const response = await preflight(open, ALLOWED)
  expect(response.statusCode).toBe(403)
  expect(response.headers['access-control-allow-origin']).toBeUndefined()
  expect(OpenAiErrorSchema.parse(response.json()).error.code).toBe('insufficient_permissions')
})

test('a listed origin gets its preflight and the answer’s CORS headers, even as a cross-site request', async () => {
  const response = await preflight(app, ALLOWED)
  expect(response.statusCode).toBe(204)
  expect(response.headers['access-control-allow-origin']).toBe(ALLOWED)
  expect(response.headers['access-control-allow-methods']).toBe('GET, POST')
  expect(response.headers['access-control-allow-headers']).toBe('authorization, content-type, x-stainless-os')
  expect(response.headers['access-control-allow-credentials']).toBeUndefined()

  const call = await app.inject({
    method: 'GET',
    url: OPENAI_PATHS.models,
    headers: { authorization: `Bearer ${key}`, origin: ALLOWED, 'sec-fetch-site': 'cross-site' },
  })
  expect(call.statusCode).toBe(200)
  expect(call.headers['access-control-allow-origin']).toBe(ALLOWED)
  const posted = await complete(
    app,
    { model: 'library', messages: [user('Hello')] },
    { origin: ALLOWED, 'sec-fetch-site': 'cross-site' },
  )
  expect(posted.statusCode).toBe(200)
})

test('an origin not listed gets no CORS header and its preflight refused', async () => {
  expect((await preflight(app, 'https://evil.example.com')).statusCode).toBe(403)
  const call = await app.inject({
    method: 'GET',
    url: OPENAI_PATHS.models,
    headers: { authorization: `Bearer ${key}`, origin: 'https://evil.example.com' },
  })
  expect(call.headers['access-control-allow-origin']).toBeUndefined()
})

test.each([
  ['too many messages', { messages: Array.from({ length: MAX_MESSAGES + 1 }, () => user('Hi')) }, 'messages'],
  [
    'too many characters in all',
    { messages: [...Array.from({ length: 5 }, () => user('x'.repeat(7000))), user('Hi')] },
    'messages',
  ],
  [
    'a question too long',
    { messages: [user('x'.repeat(MAX_QUESTION_CHARACTERS + 1))] },
    'messages[0].content',
  ],
  ['no user message', { messages: [{ role: 'system', content: 'Be brief.' }] }, 'messages'],
  [
    'an assistant message after the question',
    { messages: [user('Hi'), { role: 'assistant', content: 'Hello' }] },
    'messages[1].role',
  ],
  [
    'an image part',
    { messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://x' } }] }] },
    'messages[0].content[0].type',
  ],
  ['a temperature out of range', { messages: [user('Hi')], temperature: 3 }, 'temperature'],
  ['no model', { model: undefined, messages: [user('Hi')] }, 'model'],
])('%s is a 400 naming the field', async (_name, body, param) => {
  const response = await complete(app, { model: 'library', ...body })
  expect(response.statusCode).toBe(400)
  const { error } = OpenAiErrorSchema.parse(response.json())
  expect(error).toMatchObject({ type: 'invalid_request_error', param })
  expect(error.message.length).toBeGreaterThan(10)
  expect(MAX_TOTAL_CHARACTERS).toBeLessThan(5 * 7000)
})

test('errors keep OpenAI’s shape: a body that is not JSON, an unknown path; the key is checked first', async () => {
  const broken = await app.inject({
    method: 'POST',
    url: OPENAI_PATHS.chatCompletions,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    payload: '{not json',
  })
  expect(broken.statusCode).toBe(400)
  expect(OpenAiErrorSchema.parse(broken.json()).error.type).toBe('invalid_request_error')

  const unknown = await app.inject({
    method: 'GET',
    url: '/openai/v1/embeddings',
    headers: { authorization: `Bearer ${key}` },
  })
  expect(unknown.statusCode).toBe(404)
  expect(OpenAiErrorSchema.parse(unknown.json()).error.code).toBe('not_found')

  const noKey = await app.inject({
    method: 'POST',
    url: OPENAI_PATHS.chatCompletions,
    payload: { nonsense: true },
  })
  expect(noKey.statusCode).toBe(401)
  expect(OpenAiErrorSchema.parse(noKey.json()).error.code).toBe('invalid_api_key')
  expect(noKey.headers['content-security-policy']).toContain("default-src 'none'")
})

test('API_CORS_ORIGINS takes exact origins only', () => {
  expect(() => testConfig({ API_CORS_ORIGINS: 'https://tools.example.com/app' })).toThrow(/API_CORS_ORIGINS/)
  expect(() => testConfig({ API_CORS_ORIGINS: '*' })).toThrow(/API_CORS_ORIGINS/)
  expect(
    testConfig({ API_CORS_ORIGINS: ' https://a.example.com ,http://localhost:5173' }).apiCorsOrigins,
  ).toEqual(['https://a.example.com', 'http://localhost:5173'])
})
