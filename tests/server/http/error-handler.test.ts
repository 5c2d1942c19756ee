/**
 * What a failure says (server/http/error-handler.ts): an error thrown on purpose keeps its
 * sentence and status, a 5xx thrown on purpose with `serverError` too; a service's domain error
 * (D108) answers its kind's status, its sentence and, for too many, Retry-After; any other 5xx, a
 * library's own HTTP error included (http-errors marks those not for the caller), says only that
 * it is our fault.
 */
import { httpErrors } from '@fastify/sensible'
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { App } from '#server/app.ts'
import {
  Conflict,
  Forbidden,
  Invalid,
  NotFound,
  TooLarge,
  TooMany,
  Unauthorized,
  Unavailable,
  UpstreamFailed,
} from '#server/http/domain-errors.ts'
import { SERVER_FAULT_MESSAGE } from '#server/http/error-handler.ts'
import { serverError } from '#server/http/errors.ts'
import { buildTestApp } from '../support/helper.ts'

let app: App

beforeAll(async () => {
  app = await buildTestApp()
  app.get('/api/v1/test/conflict', async () => {
    throw httpErrors.conflict('That name is taken.')
  })
  app.get('/api/v1/test/busy', async () => {
    throw serverError(503, 'Google Drive is busy. Try again in a minute.')
  })
  app.get('/api/v1/test/library-failure', async () => {
    // As @fastify/static's file sender reports a file system error.
    throw httpErrors.createError(500, "EACCES: permission denied, open '/srv/docchat/secret'")
  })
  const refusals = {
    invalid: new Invalid('That is not a version of this answer.'),
    unauthorized: new Unauthorized('Who are you?'),
    forbidden: new Forbidden('Not yours.'),
    'not-found': new NotFound('Nothing here.'),
    conflict: new Conflict('Not now.'),
    'too-large': new TooLarge('Too long to share.'),
    'too-many': new TooMany('Wait a little.', 7),
    'upstream-failed': new UpstreamFailed('The model failed.'),
    unavailable: new Unavailable('Shutting down.'),
  }
  for (const [kind, error] of Object.entries(refusals)) {
    app.get(`/api/v1/test/domain/${kind}`, async () => {
      throw error
    })
  }
  app.get('/api/v1/test/library-unavailable', async () => {
    throw httpErrors.serviceUnavailable('upstream 10.0.0.7:5432 refused the connection')
  })
})

afterAll(async () => {
  await app.close()
})

test('an error thrown on purpose answers its status and its sentence', async () => {
  const response = await app.inject({ method: 'GET', url: '/api/v1/test/conflict' })
  expect(response.statusCode).toBe(409)
  expect(response.json()).toEqual({ success: false, message: 'That name is taken.' })
})

test('a 5xx thrown on purpose with serverError answers its status and its sentence', async () => {
  const response = await app.inject({ method: 'GET', url: '/api/v1/test/busy' })
  expect(response.statusCode).toBe(503)
  expect(response.json()).toEqual({ success: false, message: 'Google Drive is busy. Try again in a minute.' })
})

test("a library's 5xx HTTP error answers 500 without its details", async () => {
  for (const url of ['/api/v1/test/library-failure', '/api/v1/test/library-unavailable']) {
    const response = await app.inject({ method: 'GET', url })
    expect(response.statusCode).toBe(500)
    expect(response.json()).toEqual({ success: false, message: SERVER_FAULT_MESSAGE })
  }
})

test("a domain error answers its kind's status and its sentence; too many says when to come back", async () => {
  const expected = {
    invalid: 400,
    unauthorized: 401,
    forbidden: 403,
    'not-found': 404,
    conflict: 409,
    'too-large': 413,
    'too-many': 429,
    'upstream-failed': 502,
    unavailable: 503,
  }
  const answered: Record<string, number> = {}
  for (const kind of Object.keys(expected)) {
    const response = await app.inject({ method: 'GET', url: `/api/v1/test/domain/${kind}` })
    answered[kind] = response.statusCode
    expect(response.json().success).toBe(false)
  }
  const tooMany = await app.inject({ method: 'GET', url: '/api/v1/test/domain/too-many' })

  expect(answered).toEqual(expected)
  expect(tooMany.json()).toEqual({ success: false, message: 'Wait a little.' })
  expect(tooMany.headers['retry-after']).toBe('7')
  const unavailable = await app.inject({ method: 'GET', url: '/api/v1/test/domain/unavailable' })
  expect(unavailable.json()).toEqual({ success: false, message: 'Shutting down.' })
})
