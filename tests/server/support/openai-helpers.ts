/**
 * What the OpenAI-compatible endpoint's tests share: an app listening on 127.0.0.1 (port 0) so
 * the real clients call it over HTTP, people and their personal keys (made through the Settings
 * call), and the OpenAI SDK pointed at it.
 */
import type { AddressInfo } from 'node:net'
import OpenAI from 'openai'
import type { App } from '#server/app.ts'
import { createApiKeyOk } from './api-key-helpers.ts'
import { register, signIn, uniqueEmail } from './helper.ts'

export type KeyOptions = {
  scopes?: ('chat' | 'library')[]
  assistantId?: string | null
  requestsPerMinute?: number | null
  tokensPerDay?: number | null
}

/** A new person, signed in: their id and the Cookie header that makes their keys in Settings. */
export async function newPerson(app: App): Promise<{ userId: string; cookie: string }> {
  const email = uniqueEmail()
  const userId = (await register(app, email))._id
  return { userId, cookie: (await signIn(app, email)).cookie }
}

/** A key of the person's, made as they would in Settings (scope `chat` unless given); its text. */
export async function newKey(app: App, cookie: string, options: KeyOptions = {}): Promise<string> {
  return (await createApiKeyOk(app, cookie, { scopes: ['chat'], ...options })).key
}

/** Listens on 127.0.0.1, a free port; answers the endpoint's base URL. */
export async function listen(app: App): Promise<string> {
  await app.listen({ host: '127.0.0.1', port: 0 })
  const { port } = app.server.address() as AddressInfo
  return `http://127.0.0.1:${port}/openai/v1`
}

/** The official SDK as a program would make it; no retries, so a 429 is seen at once. */
export function openaiClient(baseURL: string, apiKey: string): OpenAI {
  return new OpenAI({ baseURL, apiKey, maxRetries: 0 })
}
