/**
 * Google Drive: the three Drive calls of product §7 plus the connect window's URL. The `email` the
 * spec's client sends is checked against the signed-in user and never picks a user or a token.
 */
import { z } from 'zod'
import { LibraryDocumentSchema } from './documents.ts'
import { API_PREFIX, endpoint } from './endpoint.ts'
import { userText } from './user-text.ts'

/** Opened by the browser in a new window (product §7); answers a redirect, not JSON. */
export const DRIVE_CONNECT_PATH = `${API_PREFIX}/google-drive/auth/google`
export const DRIVE_CALLBACK_PATH = `${API_PREFIX}/google-drive/auth/google/callback`
/** What the callback page posts to its opener so the app can refresh the list (same origin). */
export const DRIVE_CONNECTED_MESSAGE = 'docchat:google-drive-connected'

export const EmailQuerySchema = z.strictObject({
  email: userText(z.string({ error: 'email is required' }).trim().min(1, 'email is required'), 'email'),
})
export const IngestRequestSchema = EmailQuerySchema

/** Drive ids are URL-safe base64-ish strings; anything else is refused before Google is asked. */
export const FileIdParamsSchema = z.strictObject({
  fileId: z.string().regex(/^[A-Za-z0-9_-]{10,200}$/, 'Not a valid Drive file id'),
})

export const DriveFileSchema = z.object({
  id: z.string(),
  name: z.string(),
  mimeType: z.string(),
  modifiedTime: z.string(),
  webContentLink: z.string().nullable(),
  webViewLink: z.string().nullable(),
})
export type DriveFile = z.infer<typeof DriveFileSchema>

export const IngestFailureSchema = z.object({ name: z.string(), reason: z.string() })

export const IngestReportSchema = z.object({
  /** One sentence a person reads in the Documents banner (product §2, §8). */
  message: z.string(),
  added: z.array(z.string()),
  updated: z.array(z.string()),
  unchanged: z.array(z.string()),
  removed: z.array(z.string()),
  skipped: z.array(IngestFailureSchema),
  failed: z.array(IngestFailureSchema),
})
export type IngestReport = z.infer<typeof IngestReportSchema>

/** Disconnecting Drive: what becomes of the documents that came from it. */
export const DisconnectRequestSchema = z.strictObject({
  documents: z.enum(['keep', 'remove'], { error: "documents must be 'keep' or 'remove'" }),
})
export type DisconnectRequest = z.infer<typeof DisconnectRequestSchema>

/** 'Upload to Drive': the file as Drive now has it, and its place in the library. */
export const DriveUploadSchema = z.object({
  file: DriveFileSchema,
  /** The library's document for it, as the sync left it; null when it comes with a later sync. */
  document: LibraryDocumentSchema.nullable(),
  /** One sentence for the upload dialog. */
  message: z.string(),
})
export type DriveUpload = z.infer<typeof DriveUploadSchema>

export const driveEndpoints = {
  listFiles: endpoint({
    method: 'GET',
    path: '/google-drive/list-files',
    query: EmailQuerySchema,
    data: z.object({ files: z.array(DriveFileSchema) }),
  }),
  getFile: endpoint({
    method: 'GET',
    path: '/google-drive/get-file/:fileId',
    params: FileIdParamsSchema,
    query: EmailQuerySchema,
    data: DriveFileSchema,
  }),
  /** Revokes the grant at Google, deletes the tokens, keeps or removes the Drive documents. */
  disconnect: endpoint({
    method: 'POST',
    path: '/google-drive/disconnect',
    request: DisconnectRequestSchema,
    data: z.object({ removedDocuments: z.number().int().nonnegative() }),
  }),
  /**
   * Not in the spec: the dialog's 'Upload to Drive' (multipart: `file`, the spec's upload rules).
   * Creates the file in the person's Drive, syncs, answers once it is read (or after a while). 201.
   */
  uploadFile: endpoint({
    method: 'POST',
    path: '/google-drive/files/upload',
    kind: 'upload',
    data: DriveUploadSchema,
    status: 201,
  }),
  ingestDocuments: endpoint({
    method: 'POST',
    path: '/google-drive/ingest-documents',
    request: IngestRequestSchema,
    data: IngestReportSchema,
  }),
} as const
