/**
 * What the OpenAI-compatible endpoint's tests share: an app listening on 127.0.0.1 (port 0) so
 * the real clients call it over HTTP, keys for its people, and the OpenAI SDK pointed at it.
 */
import type { AddressInfo } from 'node:net'
import OpenAI from 'openai'
import type { App } from '#server/app.ts'
import type { ApiCaller, VerifyKey } from '#server/openai-compat/key-access.ts'

export type KeyOptions = {
  scopes?: ('chat' | 'library')[]
  assistantId?: string | null
  requestsPerMinute?: number | null
  tokensPerDay?: number | null
}

/** Keys as a map from the Bearer token to its holder (until the personal keys land). */
export function fakeKeys() {
  const keys = new Map<string, ApiCaller>()
  const verify: VerifyKey = async (request) => {
    const header = request.headers.authorization ?? ''
    const caller = keys.get(header.replace(/^Bearer /, ''))
    return caller ?? { refused: true, status: 401, message: 'This API key is not valid.' }
  }
  return {
    verify,
    create(userId: string, options: KeyOptions = {}): string {
      const key = `dc_${crypto.randomUUID().replaceAll('-', '')}`
      keys.set(key, {
        keyId: crypto.randomUUID(),
        userId,
        scopes: options.scopes ?? ['chat'],
        assistantId: options.assistantId ?? null,
        requestsPerMinute: options.requestsPerMinute ?? null,
        tokensPerDay: options.tokensPerDay ?? null,
      })
      return key
    },
  }
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
