/** One client function per API-key endpoint (issue 38); the deps injected into machines/api-keys. */
import {
  type ApiKey,
  apiKeyEndpoints,
  type CreateApiKeyRequest,
  type CreatedApiKey,
} from '#contracts/api-keys.ts'
import type { Http } from './client.ts'

export function createApiKeysApi(http: Http) {
  return {
    async list(): Promise<ApiKey[]> {
      return (await http(apiKeyEndpoints.listApiKeys)).data
    },
    /** The new key's fields and, this once, the key itself. */
    async create(request: CreateApiKeyRequest): Promise<CreatedApiKey> {
      return (await http(apiKeyEndpoints.createApiKey, { body: request })).data
    },
    async revoke(id: string): Promise<void> {
      await http(apiKeyEndpoints.deleteApiKey, { params: { id } })
    },
  }
}

export type ApiKeysApi = ReturnType<typeof createApiKeysApi>
