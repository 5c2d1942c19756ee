/**
 * A file sent as a multipart body (field `file`), for the two calls that take one: the spec's
 * upload into the library (document-routes.ts) and 'Upload to Drive' (server/drive/). Each
 * registers @fastify/multipart in an encapsulated context of its own (`acceptUploads`), so every
 * other call still takes JSON alone.
 */
import multipart from '@fastify/multipart'
import { httpErrors } from '@fastify/sensible'
import type { FastifyRequest } from 'fastify'
import type { AppInstance } from '../http/define-route.ts'
import { UPLOAD_MAX_BYTES, UPLOAD_MESSAGES, uploadKind } from './upload.ts'

/** The route's body limit: the file plus room for the multipart framing. */
export const UPLOAD_BODY_LIMIT = UPLOAD_MAX_BYTES + 256 * 1024

export type UploadedFile = { name: string; mimeType: string; bytes: Buffer }

/** Multipart bodies for the routes declared in this (encapsulated) context only. */
export async function acceptUploads(app: AppInstance): Promise<void> {
  await app.register(multipart, {
    // One byte over the limit is enough to know it is too large; the rest is not read.
    limits: { fileSize: UPLOAD_MAX_BYTES + 1, files: 1, fields: 4, fieldSize: 64 * 1024, parts: 6 },
  })
}

/**
 * The multipart field `file`, checked as the dialog checks it: the type first, before any byte is
 * read, then read up to one byte over the limit. The sizes are checked by the caller.
 */
export async function readUpload(request: FastifyRequest): Promise<UploadedFile> {
  if (!request.isMultipart()) throw httpErrors.badRequest(UPLOAD_MESSAGES.noFile)
  const part = await request.file()
  if (part?.fieldname !== 'file') throw httpErrors.badRequest(UPLOAD_MESSAGES.noFile)
  if (!uploadKind(part.filename, part.mimetype)) throw httpErrors.badRequest(UPLOAD_MESSAGES.type)
  try {
    return { name: part.filename, mimeType: part.mimetype, bytes: await part.toBuffer() }
  } catch (error) {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
      throw httpErrors.badRequest(UPLOAD_MESSAGES.tooLarge)
    }
    throw error
  }
}
