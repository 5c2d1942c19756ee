/**
 * The key calls of Settings → API keys (contracts/api-keys.ts), behind the browser session only:
 * `auth: 'user'` refuses a request carrying a key, so a key never lists, makes or revokes keys.
 * Ids are checked as uuids (400) and against the signed-in person (404 for anyone else's).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { apiKeyEndpoints } from '#contracts/api-keys.ts'
import { defineRoute } from '../http/define-route.ts'

export const apiKeysRoutes: FastifyPluginAsyncZod = async (app) => {
  const { listApiKeys, createApiKey, deleteApiKey } = apiKeyEndpoints

  defineRoute(app, listApiKeys, { auth: 'user', handler: ({ user }) => app.apiKeys.list(user) })

  defineRoute(app, createApiKey, {
    auth: 'user',
    handler: ({ user, body }) => app.apiKeys.create(user, body),
  })

  defineRoute(app, deleteApiKey, {
    auth: 'user',
    async handler({ user, params }) {
      await app.apiKeys.remove(user, params.id)
      return null
    },
  })
}
