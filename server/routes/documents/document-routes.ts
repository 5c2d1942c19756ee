/**
 * The document library's calls (contracts/documents.ts), all behind sign-in and owner checks, the
 * spec's upload call and 'Upload to Drive' (contracts/drive.ts). Multipart bodies are accepted
 * here only (the plugin is registered in this encapsulated context): every other call still takes
 * JSON alone.
 */
import multipart from '@fastify/multipart'
import type { FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { DocumentIdParamsSchema, documentEndpoints } from '#contracts/documents.ts'
import { driveEndpoints } from '#contracts/drive.ts'
import { DRIVE_MESSAGES } from '../../google/drive-service.ts'
import { HttpError } from '../../http-errors.ts'
import {
  checkUpload,
  driveUploadMessage,
  UPLOAD_MAX_BYTES,
  UPLOAD_MESSAGES,
  uploadKind,
} from '../../library/upload.ts'
import { requireUser } from '../../plugins/app/authentication.ts'

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

  app.route({
    method: uploadFile.method,
    url: uploadFile.path,
    schema: { params: DocumentIdParamsSchema, response: { 201: uploadFile.response } },
    onRequest: app.authenticate,
    bodyLimit: UPLOAD_MAX_BYTES + 256 * 1024,
    async handler(request, reply) {
      const file = await readUpload(request)
      const document = await app.library.upload(requireUser(request).id, request.params.id, file)
      return reply.code(201).send({ success: true as const, data: document })
    },
  })

  const uploadToDrive = driveEndpoints.uploadFile
  app.route({
    method: uploadToDrive.method,
    url: uploadToDrive.path,
    schema: { response: { 201: uploadToDrive.response } },
    onRequest: app.authenticate,
    bodyLimit: UPLOAD_MAX_BYTES + 256 * 1024,
    async handler(request, reply) {
      if (!app.drive.configured) throw new HttpError(503, DRIVE_MESSAGES.notConfigured)
      const user = requireUser(request)
      const upload = await readUpload(request)
      const mimeType = checkUpload(upload.name, upload.mimeType, upload.bytes.length)
      const { file, synced } = await app.drive.uploadFile(user, { ...upload, mimeType })
      const document = synced ? await app.library.awaitDriveFile(user.id, file.id) : null
      const message = driveUploadMessage(file.name, document)
      return reply.code(201).send({ success: true as const, data: { file, document, message } })
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
