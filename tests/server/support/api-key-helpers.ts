/**
 * What the API-key tests (and the OpenAI-compatible endpoint's) share: making a key through the
 * Settings call a person uses (`createApiKeyOk`: the key's fields and, this once, its text), and
 * calling with it as a program does (`withKey`: the Authorization header, no cookie).
 */
import type { InjectOptions, LightMyRequestResponse } from 'fastify'
import { apiKeyEndpoints, type CreatedApiKey } from '#contracts/api-keys.ts'
import type { Endpoint } from '#contracts/endpoint.ts'
import { fillPath } from '#contracts/endpoint.ts'
import type { App } from '#server/app.ts'
import { call } from './chat-helpers.ts'

export function createApiKey(app: App, cookie: string, body: Record<string, unknown>) {
  return call(app, apiKeyEndpoints.createApiKey, { cookie, body })
}

/** A key made by the signed-in person (`cookie`); every field but the ones given as a person leaves them. */
export async function createApiKeyOk(
  app: App,
  cookie: string,
  body: Record<string, unknown> = {},
): Promise<CreatedApiKey> {
  const response = await createApiKey(app, cookie, {
    name: 'My script',
    scopes: ['chat', 'library'],
    expiresInDays: null,
    ...body,
  })
  if (response.statusCode !== 201) throw new Error(`create failed: ${response.statusCode} ${response.body}`)
  return apiKeyEndpoints.createApiKey.response.parse(response.json()).data
}

export function bearer(key: string): Record<string, string> {
  return { authorization: `Bearer ${key}` }
}

/** `endpoint` called with `key` as a program would: the header, and no cookie unless given. */
export function withKey(
  app: App,
  endpoint: Endpoint,
  key: string,
  options: { params?: Record<string, string>; cookie?: string; headers?: Record<string, string> } & Pick<
    InjectOptions,
    'payload'
  > = {},
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: endpoint.method,
    url: fillPath(endpoint.path, options.params),
    headers: { ...bearer(key), ...(options.cookie ? { cookie: options.cookie } : {}), ...options.headers },
    ...(options.payload === undefined ? {} : { payload: options.payload }),
  })
}

/** A clock the test moves; it starts days away from the machine's, so only the app's clock counts. */
export function testClock(start = Date.now() - 3 * 24 * 3600_000) {
  let at = start
  return {
    now: () => new Date(at),
    advance: (ms: number) => {
      at += ms
    },
  }
}
