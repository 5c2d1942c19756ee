/**
 * The document library's calls (contracts/documents.ts), all behind sign-in and owner checks, and
 * the spec's upload call, whose multipart body is accepted in this encapsulated context only.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { documentEndpoints } from '#contracts/documents.ts'
import { defineRoute } from '../http/define-route.ts'
import { acceptUploads, readUpload, UPLOAD_BODY_LIMIT } from './multipart-upload.ts'

export const documentRoutes: FastifyPluginAsyncZod = async (app) => {
  const { listDocuments, deleteDocument, retryDocument, restoreDocument, uploadFile } = documentEndpoints

  await acceptUploads(app)

  defineRoute(app, uploadFile, {
    auth: 'user',
    bodyLimit: UPLOAD_BODY_LIMIT,
    async handler({ user, params, request }) {
      const file = await readUpload(request)
      return app.library.upload(user.id, params.id, file)
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
