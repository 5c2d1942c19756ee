/**
 * The owner's publishing call of this domain (issue 37): making or rotating an assistant's
 * identity secret, shown in this answer only. The settings travel with PATCH /assistants/:id
 * (the assistants' call, which reads and writes them through the PublishingPort).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { publishingEndpoints } from '#contracts/publishing.ts'
import { defineRoute } from '../http/define-route.ts'

export const publishingRoutes: FastifyPluginAsyncZod = async (app) => {
  defineRoute(app, publishingEndpoints.rotateIdentitySecret, {
    auth: 'user',
    handler: ({ user, params }) => app.publishing.rotateIdentitySecret(user, params.id),
  })
}
