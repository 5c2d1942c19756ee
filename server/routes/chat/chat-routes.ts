/**
 * The chat calls of SPEC §7, paths and schemas from contracts/chat.ts, all behind sign-in. Ids in
 * paths are checked as uuids (400) and against the signed-in user (404 for anyone else's, as for
 * a missing one). `POST /chat/sessions/:id/files/upload` is left out: the spec defines it but the
 * app never calls it.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { chatEndpoints, IdParamsSchema } from '#contracts/chat.ts'
import { requireUser } from '../../plugins/app/authentication.ts'

export const chatRoutes: FastifyPluginAsyncZod = async (app) => {
  const { createSession, listSessions, deleteSession, listMessages, sendMessage, setFeedback } = chatEndpoints

  app.route({
    method: createSession.method,
    url: createSession.path,
    schema: { body: createSession.request, response: { 201: createSession.response } },
    onRequest: app.authenticate,
    async handler(request, reply) {
      const session = await app.chat.createSession(requireUser(request), request.body.title)
      return reply.code(201).send({ success: true, data: session })
    },
  })

  app.route({
    method: listSessions.method,
    url: listSessions.path,
    schema: { response: { 200: listSessions.response } },
    onRequest: app.authenticate,
    handler: async (request) => ({
      success: true as const,
      data: await app.chat.listSessions(requireUser(request)),
    }),
  })

  app.route({
    method: deleteSession.method,
    url: deleteSession.path,
    schema: { params: IdParamsSchema, response: { 200: deleteSession.response } },
    onRequest: app.authenticate,
    async handler(request) {
      await app.chat.deleteSession(requireUser(request), request.params.id)
      return { success: true as const, data: null }
    },
  })

  app.route({
    method: listMessages.method,
    url: listMessages.path,
    schema: { params: IdParamsSchema, response: { 200: listMessages.response } },
    onRequest: app.authenticate,
    handler: async (request) => ({
      success: true as const,
      data: await app.chat.listMessages(requireUser(request), request.params.id),
    }),
  })

  app.route({
    method: sendMessage.method,
    url: sendMessage.path,
    schema: { params: IdParamsSchema, body: sendMessage.request, response: { 200: sendMessage.response } },
    onRequest: app.authenticate,
    handler: async (request) => ({
      success: true as const,
      data: await app.chat.send(requireUser(request), request.params.id, request.body, request.log),
    }),
  })

  app.route({
    method: setFeedback.method,
    url: setFeedback.path,
    schema: { params: IdParamsSchema, body: setFeedback.request, response: { 200: setFeedback.response } },
    onRequest: app.authenticate,
    handler: async (request) => ({
      success: true as const,
      data: await app.chat.setFeedback(requireUser(request), request.params.id, request.body.feedback),
    }),
  })
}
