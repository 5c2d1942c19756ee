/**
 * The document library's calls (contracts/documents.ts), all behind sign-in and owner checks, and
 * the uploads (the spec's into a conversation, ours into the library alone). Listing, uploading to
 * the library, reading and deleting a document also take a personal API key with the `library`
 * scope instead of the session (issue 38, D124); the cross-site guard stays in front of all.
 * Multipart bodies are accepted in this encapsulated context only.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { documentEndpoints } from '#contracts/documents.ts'
import { defineRoute } from '../../http/define-route.ts'
import { acceptUploads, readUpload, UPLOAD_BODY_LIMIT } from './multipart-upload.ts'

/** Opening or downloading a document's file, per person and minute. */
export const FILE_READS_PER_MINUTE = 60

export const documentRoutes: FastifyPluginAsyncZod = async (app) => {
  const {
    listDocuments,
    deleteDocument,
    retryDocument,
    restoreDocument,
    uploadFile,
    uploadToLibrary,
    listConversationFiles,
    firstRun,
    getDocument,
    documentFile,
  } = documentEndpoints

  await acceptUploads(app)

  defineRoute(app, uploadFile, {
    auth: 'user',
    bodyLimit: UPLOAD_BODY_LIMIT,
    async handler({ user, params, request }) {
      const file = await readUpload(request)
      return app.library.upload(user.id, params.id, file)
    },
  })

  defineRoute(app, uploadToLibrary, {
    auth: 'user',
    apiKey: 'library',
    bodyLimit: UPLOAD_BODY_LIMIT,
    async handler({ user, request }) {
      const file = await readUpload(request)
      return app.library.upload(user.id, null, file)
    },
  })

  defineRoute(app, listConversationFiles, {
    auth: 'user',
    handler: ({ user, params }) => app.library.attachedTo(user.id, params.id),
  })

  defineRoute(app, firstRun, { auth: 'user', handler: ({ user }) => app.library.firstRun(user.id) })

  defineRoute(app, getDocument, {
    auth: 'user',
    apiKey: 'library',
    handler: ({ user, params }) => app.documentView.view(user.id, params.id),
  })

  defineRoute(app, documentFile, {
    auth: 'user',
    // A Drive file costs a call to Google and up to 10 MB each time: bounded per person.
    onRequest: [
      app.rateLimit({
        max: FILE_READS_PER_MINUTE,
        timeWindow: 60_000,
        keyGenerator: (request) => `document-file:user:${request.user?.id ?? request.ip}`,
      }),
    ],
    handler: ({ user, params }) => app.documentView.file(user.id, params.id),
  })

  defineRoute(app, listDocuments, {
    auth: 'user',
    apiKey: 'library',
    handler: ({ user }) => app.library.list(user.id),
  })

  defineRoute(app, deleteDocument, {
    auth: 'user',
    apiKey: 'library',
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
