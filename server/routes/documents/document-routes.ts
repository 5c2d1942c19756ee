/**
 * The document library's calls (contracts/documents.ts), all behind sign-in and owner checks, and
 * the spec's upload call. Multipart bodies are accepted here only (the plugin is registered in this
 * encapsulated context): every other call still takes JSON alone.
 */
import multipart from '@fastify/multipart'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { documentEndpoints } from '#contracts/documents.ts'
import { UPLOAD_MAX_BYTES, UPLOAD_MESSAGES, uploadKind } from '../../documents/upload.ts'
import { defineRoute } from '../../http/define-route.ts'
import { HttpError } from '../../http-errors.ts'

export const documentRoutes: FastifyPluginAsyncZod = async (app) => {
  const { listDocuments, deleteDocument, retryDocument, restoreDocument, uploadFile } = documentEndpoints

  await app.register(multipart, {
    // One byte over the limit is enough to know it is too large; the rest is not read.
    limits: { fileSize: UPLOAD_MAX_BYTES + 1, files: 1, fields: 4, fieldSize: 64 * 1024, parts: 6 },
  })

  defineRoute(app, uploadFile, {
    auth: 'user',
    bodyLimit: UPLOAD_MAX_BYTES + 256 * 1024,
    async handler({ user, params, request }) {
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
      return app.library.upload(user.id, params.id, { name: part.filename, mimeType: part.mimetype, bytes })
    },
  })

  defineRoute(app, listDocuments, { auth: 'user', handler: ({ user }) => app.library.list(user.id) })

  defineRoute(app, deleteDocument, {
    auth: 'user',
    async handler({ user, params }) {
      await app.library.remove(user.id, params.id)
      return null
    },
  })

  defineRoute(app, retryDocument, {
    auth: 'user',
    handler: ({ user, params }) => app.library.retry(user.id, params.id),
  })

  defineRoute(app, restoreDocument, {
    auth: 'user',
    handler: ({ user, params }) => app.library.restore(user.id, params.id),
  })
}
