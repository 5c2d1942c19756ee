/**
 * The document library's calls (contracts/documents.ts), all behind sign-in and owner checks, the
 * spec's upload call and 'Upload to Drive' (contracts/drive.ts). Multipart bodies are accepted
 * here only (the plugin is registered in this encapsulated context): every other call still takes
 * JSON alone.
 */
import multipart from '@fastify/multipart'
import type { FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { documentEndpoints } from '#contracts/documents.ts'
import { driveEndpoints } from '#contracts/drive.ts'
import { DRIVE_MESSAGES } from '../drive/drive-service.ts'
import { defineRoute } from '../http/define-route.ts'
import { HttpError } from '../http/errors.ts'
import { checkUpload, driveUploadMessage, UPLOAD_MAX_BYTES, UPLOAD_MESSAGES, uploadKind } from './upload.ts'

type UploadedFile = { name: string; mimeType: string; bytes: Buffer }

/**
 * The multipart field `file`, checked as the dialog checks it: the type first, before any byte is
 * read, then read up to one byte over the limit. The sizes are checked by the caller.
 */
async function readUpload(request: FastifyRequest): Promise<UploadedFile> {
  if (!request.isMultipart()) throw new HttpError(400, UPLOAD_MESSAGES.noFile)
  const part = await request.file()
  if (part?.fieldname !== 'file') throw new HttpError(400, UPLOAD_MESSAGES.noFile)
  if (!uploadKind(part.filename, part.mimetype)) throw new HttpError(400, UPLOAD_MESSAGES.type)
  try {
    return { name: part.filename, mimeType: part.mimetype, bytes: await part.toBuffer() }
  } catch (error) {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
      throw new HttpError(400, UPLOAD_MESSAGES.tooLarge)
    }
    throw error
  }
}

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
      const file = await readUpload(request)
      return app.library.upload(user.id, params.id, file)
    },
  })

  defineRoute(app, driveEndpoints.uploadFile, {
    auth: 'user',
    bodyLimit: UPLOAD_MAX_BYTES + 256 * 1024,
    async handler({ user, request }) {
      if (!app.drive.configured) throw new HttpError(503, DRIVE_MESSAGES.notConfigured)
      const upload = await readUpload(request)
      const mimeType = checkUpload(upload.name, upload.mimeType, upload.bytes.length)
      const { file, synced } = await app.drive.uploadFile(user, { ...upload, mimeType })
      const document = synced ? await app.library.awaitDriveFile(user.id, file.id) : null
      return { file, document, message: driveUploadMessage(file.name, document) }
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
