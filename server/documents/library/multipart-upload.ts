/**
 * A file sent as a multipart body (field `file`), for the two calls that take one: the spec's
 * upload into the library (document-routes.ts) and 'Upload to Drive' (server/drive/). Each
 * registers @fastify/multipart in an encapsulated context of its own (`acceptUploads`), so every
 * other call still takes JSON alone.
 */
import multipart from '@fastify/multipart'
import { HttpError, httpErrors } from '@fastify/sensible'
import type { FastifyRequest } from 'fastify'
import type { AppInstance } from '../../http/define-route.ts'
import { cleanFileName, UPLOAD_MAX_BYTES, UPLOAD_MESSAGES, uploadKind } from './upload.ts'

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
 * read, then read up to one byte over the limit. The sizes are checked by the caller. Its name
 * is cleaned (cleanFileName) before anything else sees it. A body the multipart parser cannot
 * read (cut short, no boundary, part headers that never end…) is the sender's fault: 400 with
 * UPLOAD_MESSAGES.malformed, never a 500 (D85).
 */
export async function readUpload(request: FastifyRequest): Promise<UploadedFile> {
  if (!request.isMultipart()) throw httpErrors.badRequest(UPLOAD_MESSAGES.noFile)
  try {
    const part = await request.file()
    if (part?.fieldname !== 'file') throw httpErrors.badRequest(UPLOAD_MESSAGES.noFile)
    const name = cleanFileName(part.filename)
    const kind = uploadKind(name, part.mimetype)
    if (!kind) throw httpErrors.badRequest(UPLOAD_MESSAGES.type)
    const bytes = await part.toBuffer()
    return { name: name || untitled(kind), mimeType: part.mimetype, bytes }
  } catch (error) {
    if (error instanceof HttpError) throw error
    const code = (error as { code?: string }).code
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw httpErrors.badRequest(UPLOAD_MESSAGES.tooLarge)
    // More parts than the dialog ever sends (acceptUploads' limits).
    if (code === 'FST_PARTS_LIMIT' || code === 'FST_FILES_LIMIT' || code === 'FST_FIELDS_LIMIT') {
      throw httpErrors.payloadTooLarge(UPLOAD_MESSAGES.tooManyParts)
    }
    // Everything else here is the parser refusing the body (busboy's errors carry no code).
    throw httpErrors.badRequest(UPLOAD_MESSAGES.malformed)
  }
}

/** The name of a file whose own name was empty, or nothing but characters we remove. */
function untitled(kind: 'application/pdf' | 'text/plain'): string {
  return kind === 'application/pdf' ? 'Untitled.pdf' : 'Untitled.txt'
}
