/** The person's usage (issue 38): `GET /api/v1/usage?days=30`, session only. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { usageEndpoints } from '#contracts/usage.ts'
import { defineRoute } from '../http/define-route.ts'

export const usageRoutes: FastifyPluginAsyncZod = async (app) => {
  defineRoute(app, usageEndpoints.usage, {
    auth: 'user',
    handler: ({ user, query }) => app.usage.report(user.id, query.days),
  })
}
