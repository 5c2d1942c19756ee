/**
 * The document library: every file of the user's that DocChat knows of (from Google Drive or
 * uploaded), with where its reading stands, plus the sync's overall progress; deleting one,
 * retrying one that failed, and adding back a Drive file the person removed.
 */
import { z } from 'zod'
import { endpoint } from './endpoint.ts'
import { FileBodySchema } from './file-body.ts'

export const DocumentIdParamsSchema = z.strictObject({ id: z.uuid('Not a valid id') })

export const DOCUMENT_STATUSES = ['queued', 'processing', 'ready', 'failed', 'skipped'] as const
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number]

export const LibraryDocumentSchema = z.object({
  id: z.string(),
  name: z.string(),
  source: z.enum(['drive', 'upload']),
  mimeType: z.string(),
  status: z.enum(DOCUMENT_STATUSES),
  /**
   * Why it failed or was skipped (a phrase read after the name); for a ready one, what was left
   * unread when a limit was reached ("only the first 200 of its 350 scanned pages were read by
   * OCR"); null otherwise.
   */
  reason: z.string().nullable(),
  /** PDF pages read; null for other kinds and before it is read. */
  pages: z.number().int().nonnegative().nullable(),
  /** Passages it became; null before it is read. */
  chunks: z.number().int().nonnegative().nullable(),
  /** The pages OCR read the text of (an image: [1]); null when none was read by OCR. */
  ocrPages: z.array(z.number().int().positive()).nullable(),
  /** ISO 8601: when its status last changed. */
  updatedAt: z.string(),
  webViewLink: z.string().nullable(),
  /** The Drive file it was read from (what the Drive listing calls it); null for an upload. */
  driveFileId: z.string().nullable().optional(),
  /** ISO 8601: when the file itself last changed (in Drive, or when it was uploaded); null when unknown. */
  modifiedTime: z.string().nullable().optional(),
})
export type LibraryDocument = z.infer<typeof LibraryDocumentSchema>

/** How many starter questions the empty chat offers at most. */
export const STARTER_QUESTIONS = 3

/** The empty chat's first run: how many documents are ready, and questions from their headings. */
export const FirstRunSchema = z.object({
  /** Documents in the library ready to be asked about. */
  ready: z.number().int().nonnegative(),
  /** Up to STARTER_QUESTIONS questions, each about a heading of a different ready document, newest first. */
  questions: z.array(z.string()).max(STARTER_QUESTIONS),
})
export type FirstRun = z.infer<typeof FirstRunSchema>

export const LibraryProgressSchema = z.object({
  /** True while files are queued or being read (on any server instance). */
  running: z.boolean(),
  /** Files done (ready, failed or skipped) out of all in the library. */
  done: z.number().int().nonnegative(),
  total: z.number().int().nonnegative(),
})
export type LibraryProgress = z.infer<typeof LibraryProgressSchema>

export const LibrarySchema = z.object({
  documents: z.array(LibraryDocumentSchema),
  progress: LibraryProgressSchema,
  /**
   * Drive files the person removed from the library: syncs leave them out until they are added
   * back (status `skipped`, reason "removed from the library").
   */
  removed: z.array(LibraryDocumentSchema),
})
export type Library = z.infer<typeof LibrarySchema>

/** A passage of a document as it was read, in reading order: what the viewer shows and cites. */
export const PassageSchema = z.object({
  /** The id a citation names (`Source.chunkId`), so the viewer can find and highlight it. */
  id: z.string(),
  /** 1-based page for PDFs, null otherwise. */
  page: z.number().int().positive().nullable(),
  /** The nearest heading above it, when the document has headings. */
  heading: z.string().nullable(),
  text: z.string(),
})
export type Passage = z.infer<typeof PassageSchema>

/** One document for the viewer: the library's entry and its passages, in reading order. */
export const DocumentViewSchema = z.object({
  document: LibraryDocumentSchema,
  passages: z.array(PassageSchema),
})
export type DocumentView = z.infer<typeof DocumentViewSchema>

export const documentEndpoints = {
  listDocuments: endpoint({ method: 'GET', path: '/documents', data: LibrarySchema }),
  deleteDocument: endpoint({
    method: 'DELETE',
    path: '/documents/:id',
    params: DocumentIdParamsSchema,
    data: z.null(),
  }),
  /**
   * The spec's upload call (multipart: `file`, optional `message`), answering the stored document
   * once it is read (or still queued after a while). 201.
   */
  uploadFile: endpoint({
    method: 'POST',
    path: '/chat/sessions/:id/files/upload',
    params: DocumentIdParamsSchema,
    kind: 'upload',
    data: LibraryDocumentSchema,
    status: 201,
  }),
  /** The files uploaded into a conversation (the spec's call, or attached before its first message). */
  listConversationFiles: endpoint({
    method: 'GET',
    path: '/chat/sessions/:id/files',
    params: DocumentIdParamsSchema,
    data: z.array(LibraryDocumentSchema),
  }),
  /** An upload into the library alone, from the Documents section (multipart `file`, as the spec's). 201. */
  uploadToLibrary: endpoint({
    method: 'POST',
    path: '/documents/upload',
    kind: 'upload',
    data: LibraryDocumentSchema,
    status: 201,
  }),
  /** What the empty chat offers (D86): the ready count and starter questions; no model involved. */
  firstRun: endpoint({
    method: 'GET',
    path: '/documents/first-run',
    data: FirstRunSchema,
  }),
  retryDocument: endpoint({
    method: 'POST',
    path: '/documents/:id/retry',
    params: DocumentIdParamsSchema,
    data: LibraryDocumentSchema,
  }),
  /** Brings a removed Drive file back into the library and syncs (answers it queued). */
  restoreDocument: endpoint({
    method: 'POST',
    path: '/documents/:id/restore',
    params: DocumentIdParamsSchema,
    data: LibraryDocumentSchema,
  }),
  /**
   * One document with its passages in reading order (the viewer). The id is the library's, or
   * the one a citation carries (`Source.documentId`): both name the same document.
   */
  getDocument: endpoint({
    method: 'GET',
    path: '/documents/:id',
    params: DocumentIdParamsSchema,
    data: DocumentViewSchema,
  }),
  /**
   * The document's own file for its owner (not JSON): an upload's bytes, a Drive file through the
   * person's Drive connection, a Google Docs, Sheets or Slides file as its PDF export.
   */
  documentFile: endpoint({
    method: 'GET',
    path: '/documents/:id/file',
    params: DocumentIdParamsSchema,
    kind: 'file',
    response: FileBodySchema,
  }),
} as const
