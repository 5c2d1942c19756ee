/**
 * The three Drive calls of SPEC §7 and disconnecting Drive, paths and schemas from
 * contracts/drive.ts, all behind sign-in.
 * The handlers call `app.drive`, which checks the `email` against the signed-in person and maps
 * Google's failures. Without a Google OAuth client the calls answer 503 with a sentence, and
 * nothing is logged as an error (it is how the server was set up, not a fault).
 */
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { driveEndpoints, EmailQuerySchema, FileIdParamsSchema } from '#contracts/drive.ts'
import { DRIVE_MESSAGES } from '../../google/drive-service.ts'
import { requireUser } from '../../plugins/app/authentication.ts'

export const googleDriveRoutes: FastifyPluginAsyncZod = async (app) => {
  const { listFiles, getFile, ingestDocuments, disconnect } = driveEndpoints

  async function requireConfigured(_request: FastifyRequest, reply: FastifyReply) {
    if (!app.drive.configured) {
      return reply.code(503).send({ success: false, message: DRIVE_MESSAGES.notConfigured })
    }
  }

  app.route({
    method: listFiles.method,
    url: listFiles.path,
    schema: { querystring: EmailQuerySchema, response: { 200: listFiles.response } },
    onRequest: app.authenticate,
    preHandler: requireConfigured,
    handler: async (request) => ({
      success: true as const,
      data: await app.drive.listFiles(requireUser(request), request.query.email),
    }),
  })

  app.route({
    method: getFile.method,
    url: getFile.path,
    schema: {
      params: FileIdParamsSchema,
      querystring: EmailQuerySchema,
      response: { 200: getFile.response },
    },
    onRequest: app.authenticate,
    preHandler: requireConfigured,
    handler: async (request) => ({
      success: true as const,
      data: await app.drive.getFile(requireUser(request), request.query.email, request.params.fileId),
    }),
  })

  app.route({
    method: ingestDocuments.method,
    url: ingestDocuments.path,
    schema: { body: ingestDocuments.request, response: { 200: ingestDocuments.response } },
    onRequest: app.authenticate,
    preHandler: requireConfigured,
    handler: async (request) => ({
      success: true as const,
      data: await app.drive.ingest(requireUser(request), request.body.email),
    }),
  })

  app.route({
    method: disconnect.method,
    url: disconnect.path,
    schema: { body: disconnect.request, response: { 200: disconnect.response } },
    onRequest: app.authenticate,
    preHandler: requireConfigured,
    handler: async (request) => ({
      success: true as const,
      data: await app.drive.disconnect(requireUser(request), request.body.documents, (userId, documents) =>
        app.library.forgetDrive(userId, documents),
      ),
    }),
  })
}
