/**
 * The document library's calls (contracts/documents.ts), all behind sign-in and owner checks, and
 * the spec's upload call. Multipart bodies are accepted here only (the plugin is registered in this
 * encapsulated context): every other call still takes JSON alone.
 */
import multipart from '@fastify/multipart'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { DocumentIdParamsSchema, documentEndpoints } from '#contracts/documents.ts'
import { HttpError } from '../../http-errors.ts'
import { UPLOAD_MAX_BYTES, UPLOAD_MESSAGES, uploadKind } from '../../library/upload.ts'
import { requireUser } from '../../plugins/app/authentication.ts'

export const documentRoutes: FastifyPluginAsyncZod = async (app) => {
  const { listDocuments, deleteDocument, retryDocument, restoreDocument, uploadFile } = documentEndpoints

  await app.register(multipart, {
    // One byte over the limit is enough to know it is too large; the rest is not read.
    limits: { fileSize: UPLOAD_MAX_BYTES + 1, files: 1, fields: 4, fieldSize: 64 * 1024, parts: 6 },
  })

  app.route({
    method: uploadFile.method,
    url: uploadFile.path,
    schema: { params: DocumentIdParamsSchema, response: { 201: uploadFile.response } },
    onRequest: app.authenticate,
    bodyLimit: UPLOAD_MAX_BYTES + 256 * 1024,
    async handler(request, reply) {
      if (!request.isMultipart()) throw new HttpError(400, UPLOAD_MESSAGES.noFile)
      const part = await request.file()
      if (part?.fieldname !== 'file') throw new HttpError(400, UPLOAD_MESSAGES.noFile)
      // The type first, as the dialog checks it, before any byte is read.
      if (!uploadKind(part.filename, part.mimetype)) throw new HttpError(400, UPLOAD_MESSAGES.type)
      let bytes: Buffer
      try {
        bytes = await part.toBuffer()
      } catch (error) {
        if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
          throw new HttpError(400, UPLOAD_MESSAGES.tooLarge)
        }
        throw error
      }
      const document = await app.library.upload(requireUser(request).id, request.params.id, {
        name: part.filename,
        mimeType: part.mimetype,
        bytes,
      })
      return reply.code(201).send({ success: true as const, data: document })
    },
  })

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

  app.route({
    method: restoreDocument.method,
    url: restoreDocument.path,
    schema: { params: DocumentIdParamsSchema, response: { 200: restoreDocument.response } },
    onRequest: app.authenticate,
    handler: async (request) => ({
      success: true as const,
      data: await app.library.restore(requireUser(request).id, request.params.id),
    }),
  })
}
