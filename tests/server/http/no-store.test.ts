/**
 * Every answer under /api says `Cache-Control: no-store` (they carry personal data, D7): JSON
 * and errors of every kind, uploads, and the streamed answers too, whose event-stream headers
 * once said `no-cache` instead (D85).
 */
import { afterAll, beforeAll, expect, test } from 'vitest'
import { authEndpoints, healthEndpoint } from '#contracts/auth.ts'
import { chatEndpoints } from '#contracts/chat.ts'
import { documentEndpoints } from '#contracts/documents.ts'
import { fillPath } from '#contracts/endpoint.ts'
import type { App } from '#server/app.ts'
import { call, createConversation, sendOk } from '../support/chat-helpers.ts'
import { buildTestApp, signUpAndSignIn } from '../support/helper.ts'
import { multipart, textFile } from '../support/upload-helpers.ts'

let app: App
let cookie: string

beforeAll(async () => {
  app = await buildTestApp()
  cookie = await signUpAndSignIn(app)
})
afterAll(async () => {
  await app?.close()
})

const noStore = (response: { headers: Record<string, unknown> }) =>
  String(response.headers['cache-control']).split(/\s*,\s*/)

test('streamed answers, new and regenerated, say no-store', async () => {
  const conversation = await createConversation(app, cookie, 'Streams')
  const { aiMessage } = await sendOk(app, cookie, conversation._id, 'Anything about travel?')
  const body = { content: 'And about meals?', isUser: true, messageType: 'text' }

  const regenerated = await call(app, chatEndpoints.regenerateMessage, {
    cookie,
    params: { id: conversation._id, messageId: aiMessage._id },
  })
  const streamed = await call(app, chatEndpoints.streamMessage, {
    cookie,
    params: { id: conversation._id },
    body,
  })

  for (const response of [streamed, regenerated]) {
    expect(response.headers['content-type']).toMatch(/^text\/event-stream/)
    expect(noStore(response)).toContain('no-store')
    expect(noStore(response)).not.toContain('no-cache')
  }
})

test('JSON answers, refusals and uploads say no-store', async () => {
  const conversation = await createConversation(app, cookie, 'Uploads')
  const upload = (payload: ReturnType<typeof multipart>) =>
    app.inject({
      method: 'POST',
      url: fillPath(documentEndpoints.uploadFile.path, { id: conversation._id }),
      headers: { cookie, 'content-type': payload.contentType },
      payload: payload.payload,
    })
  const responses = {
    ok: await app.inject({ method: 'GET', url: healthEndpoint.path }),
    signedOut: await app.inject({ method: 'GET', url: authEndpoints.me.path }),
    invalid: await call(app, chatEndpoints.createConversation, { cookie, body: { title: ' ' } }),
    unknownRoute: await app.inject({ method: 'GET', url: '/api/v1/nothing-here', headers: { cookie } }),
    badUrl: await app.inject({ method: 'GET', url: '/api/v1/%' }),
    uploaded: await upload(
      multipart([{ field: 'file', file: textFile('notes.txt', 'The code is NO-STORE-1.') }]),
    ),
    malformedUpload: await app.inject({
      method: 'POST',
      url: fillPath(documentEndpoints.uploadFile.path, { id: conversation._id }),
      headers: { cookie, 'content-type': 'multipart/form-data' },
      payload: 'cut short',
    }),
  }

  const statuses = Object.fromEntries(Object.entries(responses).map(([k, r]) => [k, r.statusCode]))
  expect(statuses).toEqual({
    ok: 200,
    signedOut: 401,
    invalid: 400,
    unknownRoute: 404,
    badUrl: 400,
    uploaded: 201,
    malformedUpload: 400,
  })
  for (const response of Object.values(responses)) expect(noStore(response)).toContain('no-store')
})
