import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { healthEndpoint } from '#contracts/auth.ts'
import { defineRoute } from '../http/define-route.ts'

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  defineRoute(app, healthEndpoint, { auth: 'public', handler: () => ({ status: 'ok' as const }) })
}
