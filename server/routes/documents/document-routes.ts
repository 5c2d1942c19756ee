/** The document library's calls (contracts/documents.ts), all behind sign-in and owner checks. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { DocumentIdParamsSchema, documentEndpoints } from '#contracts/documents.ts'
import { requireUser } from '../../plugins/app/authentication.ts'

export const documentRoutes: FastifyPluginAsyncZod = async (app) => {
  const { listDocuments, deleteDocument, retryDocument } = documentEndpoints

  app.route({
    method: listDocuments.method,
    url: listDocuments.path,
    schema: { response: { 200: listDocuments.response } },
    onRequest: app.authenticate,
    handler: async (request) => ({
      success: true as const,
      data: await app.library.list(requireUser(request).id),
    }),
  })

  app.route({
    method: deleteDocument.method,
    url: deleteDocument.path,
    schema: { params: DocumentIdParamsSchema, response: { 200: deleteDocument.response } },
    onRequest: app.authenticate,
    async handler(request) {
      await app.library.remove(requireUser(request).id, request.params.id)
      return { success: true as const, data: null }
    },
  })

  app.route({
    method: retryDocument.method,
    url: retryDocument.path,
    schema: { params: DocumentIdParamsSchema, response: { 200: retryDocument.response } },
    onRequest: app.authenticate,
    handler: async (request) => ({
      success: true as const,
      data: await app.library.retry(requireUser(request).id, request.params.id),
    }),
  })
}
