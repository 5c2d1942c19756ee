import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { healthEndpoint } from '#contracts/auth.ts'

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.route({
    method: healthEndpoint.method,
    url: healthEndpoint.path,
    schema: { response: { 200: healthEndpoint.response } },
    handler: async () => ({ status: 'ok' as const }),
  })
}
