/**
 * The three Drive calls of product §7, disconnecting Drive, 'Upload to Drive' and the folders an
 * assistant may follow (issue 36), paths and schemas from contracts/, all behind sign-in.
 * The handlers call `app.drive`, which checks the `email` against the signed-in person and maps
 * Google's failures. Without a Google OAuth client the calls answer 503 with a sentence, and
 * nothing is logged as an error (it is how the server was set up, not a fault).
 */
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { assistantEndpoints } from '#contracts/assistants.ts'
import { driveEndpoints } from '#contracts/drive.ts'
import { acceptUploads, readUpload, UPLOAD_BODY_LIMIT } from '../documents/library/multipart-upload.ts'
import { checkUpload, driveUploadMessage } from '../documents/library/upload.ts'
import { defineRoute } from '../http/define-route.ts'
import { DRIVE_MESSAGES, DriveNotConfigured } from './drive-errors.ts'
import { createGoogleDriveRepository } from './google-drive-repository.ts'

export const driveRoutes: FastifyPluginAsyncZod = async (app) => {
  const { listFiles, getFile, ingestDocuments, disconnect } = driveEndpoints

  async function requireConfigured(_request: FastifyRequest, reply: FastifyReply) {
    if (!app.drive.configured) {
      return reply.code(503).send({ success: false, message: DRIVE_MESSAGES.notConfigured })
    }
  }

  defineRoute(app, listFiles, {
    auth: 'user',
    preHandler: [requireConfigured],
    handler: ({ user, query }) => app.drive.listFiles(user, query.email),
  })

  defineRoute(app, getFile, {
    auth: 'user',
    preHandler: [requireConfigured],
    handler: ({ user, params, query }) => app.drive.getFile(user, query.email, params.fileId),
  })

  defineRoute(app, ingestDocuments, {
    auth: 'user',
    preHandler: [requireConfigured],
    handler: ({ user, body }) => app.drive.ingest(user, body.email),
  })

  // The knowledge picker's tree: nothing to pick is an empty tree, not an error, whether Drive is
  // not connected or not configured (D115); the page offers to connect it.
  defineRoute(app, assistantEndpoints.listDriveFolders, {
    auth: 'user',
    handler: ({ user }) => app.driveFolders.list(user.id),
  })

  defineRoute(app, disconnect, {
    auth: 'user',
    preHandler: [requireConfigured],
    handler: ({ user, body }) =>
      app.drive.disconnect(user, body.documents, (userId, documents) =>
        app.library.forgetDrive(userId, documents, (tx) =>
          createGoogleDriveRepository(tx).forgetSyncState(userId),
        ),
      ),
  })

  await app.register(driveUploadRoute)
}

/** 'Upload to Drive' takes a multipart body: in a context of its own, so the calls above take JSON alone. */
const driveUploadRoute: FastifyPluginAsyncZod = async (app) => {
  await acceptUploads(app)

  defineRoute(app, driveEndpoints.uploadFile, {
    auth: 'user',
    bodyLimit: UPLOAD_BODY_LIMIT,
    async handler({ user, request }) {
      if (!app.drive.configured) throw new DriveNotConfigured()
      const upload = await readUpload(request)
      const mimeType = checkUpload(upload.name, upload.mimeType, upload.bytes.length)
      const { file, synced } = await app.drive.uploadFile(user, { ...upload, mimeType })
      const document = synced ? await app.library.awaitDriveFile(user.id, file.id) : null
      return { file, document, message: driveUploadMessage(file.name, document) }
    },
  })
}
