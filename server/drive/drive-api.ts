/**
 * The Drive v3 calls DocChat makes, on @googleapis/drive with one person's OAuth2Client: the
 * whole listing (every page, shared drives included), one file's metadata, a file's bytes and a
 * Google file's export, both with a byte limit enforced while they stream, and the change feed
 * (the start token of "now", and every change since a token). The client's own retries are off
 * (`retry: false`): withBackoff decides, so every retry is bounded and counted in one place.
 */
import { Readable } from 'node:stream'
import type { drive_v3 } from '@googleapis/drive'
import type { OAuth2Client } from 'google-auth-library'
import { safeExternalLink } from '#contracts/safe-link.ts'
import { cleanFileName } from '../documents/library/upload.ts'
import { classifyGoogleError, type RetryPolicy, withBackoff } from './google-errors.ts'
import { googleDrive, isGaxiosError } from './google-libraries.ts'

export const FOLDER_MIME = 'application/vnd.google-apps.folder'
export const SHORTCUT_MIME = 'application/vnd.google-apps.shortcut'
/** Files in shared drives too: every call that names files says it copes with them. */
const ALL_DRIVES = { supportsAllDrives: true } as const
/** A listing (files or changes) that takes in the shared drives the person is a member of. */
const WITH_SHARED_DRIVES = { ...ALL_DRIVES, includeItemsFromAllDrives: true } as const
/** Folders are not files a person opens, and the trash is not their Drive (Drive lists it unless told). */
export const LISTING_QUERY = `trashed = false and mimeType != '${FOLDER_MIME}'`
/** The most files one files.list page may hold (Drive's own ceiling). */
const PAGE_SIZE = 1000
/** A bound on the paging loop: 1,000 pages of 1,000 files. */
const MAX_PAGES = 1000

/** What the contract's DriveFile needs, and no more (Drive bills and slows by the field). */
const FILE_FIELDS = 'id, name, mimeType, modifiedTime, webViewLink, webContentLink'
/**
 * What an ingest compares and checks besides: the revision, the size, where a shortcut points, and
 * the folders it sits in (an assistant's folder knowledge, D115).
 */
const INGEST_FILE_FIELDS = `${FILE_FIELDS}, version, size, trashed, parents, shortcutDetails(targetId)`
/** A sync lists the folders with the files, in the same pages: the folder tree costs no extra call. */
const INGEST_LISTING_QUERY = 'trashed = false'

export type DriveListedFile = {
  id: string
  name: string
  mimeType: string
  modifiedTime: string
  webViewLink: string | null
  webContentLink: string | null
  /** Drive's revision counter, a decimal string; null if Drive sent none. */
  version: string | null
  /** Bytes of a binary file; null for Google Docs and the like. */
  size: number | null
  /** In the trash (the change feed reports trashed files; a listing leaves them out). */
  trashed: boolean
  /** A shortcut's target file id; null for any other file. */
  shortcutTargetId: string | null
  /** The folders it sits in (Drive's `parents`; empty when Drive sent none). */
  parents: string[]
}

/** One entry of the change feed: the file as it is now, or `file: null` when it is gone. */
export type DriveChange = { fileId: string; file: DriveListedFile | null }

/**
 * Drive no longer honours the stored change token (too old, or from another Drive): the caller
 * lists the whole Drive again and starts over from a new token.
 */
export class ChangeTokenInvalidError extends Error {
  constructor() {
    super('Google Drive no longer accepts the stored change token')
    this.name = 'ChangeTokenInvalidError'
  }
}

/** A single file Drive will not give us (gone, not downloadable, over the limit): it fails alone. */
export class DriveFileError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'DriveFileError'
  }
}

export function createDriveApi(
  auth: OAuth2Client,
  rootUrl: string,
  retry: RetryPolicy,
  /** Told each time Google refuses a download to slow us down (before it is retried). */
  hooks: { onRateLimited?: () => void } = {},
): DriveApi {
  return new DriveApi(auth, rootUrl, retry, hooks)
}

/** One person's Drive, through their OAuth client: every call retried with backoff as `retry` says. */
export class DriveApi {
  readonly #api: drive_v3.Drive
  readonly #rootUrl: string
  readonly #retry: RetryPolicy
  readonly #hooks: { onRateLimited?: () => void }

  constructor(
    auth: OAuth2Client,
    rootUrl: string,
    retry: RetryPolicy,
    hooks: { onRateLimited?: () => void },
  ) {
    this.#api = googleDrive().drive({ version: 'v3', auth, rootUrl })
    this.#rootUrl = rootUrl
    this.#retry = retry
    this.#hooks = hooks
  }

  /** Tells the hooks of a refusal to slow down, then fails as the call did. */
  #noticed<T>(call: () => Promise<T>): () => Promise<T> {
    return async () => {
      try {
        return await call()
      } catch (error) {
        if (isRefusedBeforeWork(error)) this.#hooks.onRateLimited?.()
        throw error
      }
    }
  }

  async #listAll(fields: string, q = LISTING_QUERY): Promise<DriveListedFile[]> {
    const files: DriveListedFile[] = []
    let pageToken: string | undefined
    for (let page = 0; page < MAX_PAGES; page++) {
      const { data } = await withBackoff(
        () =>
          this.#api.files.list(
            {
              q,
              fields: `nextPageToken, files(${fields})`,
              pageSize: PAGE_SIZE,
              orderBy: 'modifiedTime desc',
              corpora: 'allDrives',
              ...WITH_SHARED_DRIVES,
              ...(pageToken ? { pageToken } : {}),
            },
            { retry: false },
          ),
        this.#retry,
      )
      for (const file of data.files ?? []) files.push(toListedFile(file))
      pageToken = data.nextPageToken ?? undefined
      if (!pageToken) return files
    }
    return files
  }

  /** Every listable file (no folders, nothing trashed), following nextPageToken to the end. */
  listFiles(): Promise<DriveListedFile[]> {
    return this.#listAll(FILE_FIELDS)
  }

  /** The same listing with what an ingest needs, and the folders (which the caller tells apart). */
  listFilesForIngest(): Promise<DriveListedFile[]> {
    return this.#listAll(INGEST_FILE_FIELDS, INGEST_LISTING_QUERY)
  }

  /** Every shortcut (nothing trashed), with its target: which files are still reached through one. */
  listShortcuts(): Promise<DriveListedFile[]> {
    return this.#listAll(INGEST_FILE_FIELDS, `trashed = false and mimeType = '${SHORTCUT_MIME}'`)
  }

  async getFile(fileId: string): Promise<DriveListedFile> {
    const { data } = await withBackoff(
      () => this.#api.files.get({ fileId, fields: FILE_FIELDS, ...ALL_DRIVES }, { retry: false }),
      this.#retry,
    )
    return toListedFile(data)
  }

  /** One file with what an ingest needs (a shortcut's target); null when Drive has no such file for us. */
  async getFileForIngest(fileId: string): Promise<DriveListedFile | null> {
    try {
      const { data } = await withBackoff(
        () => this.#api.files.get({ fileId, fields: INGEST_FILE_FIELDS, ...ALL_DRIVES }, { retry: false }),
        this.#retry,
      )
      return toListedFile(data)
    } catch (error) {
      if (classifyGoogleError(error).kind === 'not-found') return null
      throw error
    }
  }

  /** The change token of "now": a later `listChanges` from it sees what changes from here on. */
  async startPageToken(): Promise<string> {
    const { data } = await withBackoff(
      () =>
        this.#api.changes.getStartPageToken({ ...ALL_DRIVES, fields: 'startPageToken' }, { retry: false }),
      this.#retry,
    )
    if (!data.startPageToken) throw new Error('Google Drive sent no start page token')
    return data.startPageToken
  }

  /**
   * Every change since `token` (all pages), each file at most once as Drive coalesces them, and
   * the token to start from next time. Throws ChangeTokenInvalidError when Drive refuses the token.
   */
  async listChanges(token: string): Promise<{ changes: DriveChange[]; newStartPageToken: string }> {
    const byFile = new Map<string, DriveChange>()
    let pageToken = token
    for (let page = 0; page < MAX_PAGES; page++) {
      let data: drive_v3.Schema$ChangeList
      try {
        ;({ data } = await withBackoff(
          () =>
            this.#api.changes.list(
              {
                pageToken,
                pageSize: PAGE_SIZE,
                includeRemoved: true,
                ...WITH_SHARED_DRIVES,
                fields: `nextPageToken, newStartPageToken, changes(fileId, removed, file(${INGEST_FILE_FIELDS}))`,
              },
              { retry: false },
            ),
          this.#retry,
        ))
      } catch (error) {
        if (page === 0 && isRefusedToken(error)) throw new ChangeTokenInvalidError()
        throw error
      }
      for (const change of data.changes ?? []) {
        if (!change.fileId) continue
        // A later page's entry for the same file is newer: it replaces the earlier one.
        byFile.delete(change.fileId)
        byFile.set(change.fileId, {
          fileId: change.fileId,
          file: change.removed || !change.file ? null : toListedFile(change.file),
        })
      }
      if (data.newStartPageToken)
        return { changes: [...byFile.values()], newStartPageToken: data.newStartPageToken }
      if (!data.nextPageToken) throw new Error('Google Drive ended a change list without a new start token')
      pageToken = data.nextPageToken
    }
    throw new Error(`Google Drive's change list ran past ${MAX_PAGES} pages`)
  }

  async download(fileId: string, maxBytes: number): Promise<Uint8Array> {
    try {
      const response = await withBackoff(
        this.#noticed(() =>
          this.#api.files.get(
            { fileId, alt: 'media', ...ALL_DRIVES },
            { responseType: 'stream', retry: false },
          ),
        ),
        this.#retry,
      )
      return await collect(response.data, maxBytes, contentLength(response.headers))
    } catch (error) {
      throw fileLevel(error)
    }
  }

  /** A Google Doc as `mimeType` (Drive converts it; Docs → text/markdown or text/plain). */
  async export(fileId: string, mimeType: string, maxBytes: number): Promise<Uint8Array> {
    try {
      const response = await withBackoff(
        this.#noticed(() =>
          this.#api.files.export({ fileId, mimeType }, { responseType: 'stream', retry: false }),
        ),
        this.#retry,
      )
      return await collect(response.data, maxBytes, contentLength(response.headers))
    } catch (error) {
      throw fileLevel(error)
    }
  }

  /**
   * Creates a file with its bytes in the person's My Drive (a multipart upload). Retried only
   * when Google said it did not take the request (429 or a rate-limit reason): after a 5xx or a
   * broken connection the file may exist already, and a second try would add it twice.
   */
  async createFile(file: { name: string; mimeType: string; bytes: Uint8Array }): Promise<DriveListedFile> {
    const { data } = await withBackoff(
      () =>
        this.#api.files.create(
          {
            requestBody: { name: file.name, mimeType: file.mimeType },
            // A new stream per attempt: a consumed one cannot be sent again.
            media: { mimeType: file.mimeType, body: Readable.from([Buffer.from(file.bytes)]) },
            fields: INGEST_FILE_FIELDS,
            ...ALL_DRIVES,
          },
          // The upload URL is built from this call's own rootUrl, not the client's (a googleapis
          // quirk): without it the bytes would go to www.googleapis.com whatever rootUrl says.
          { retry: false, rootUrl: this.#rootUrl },
        ),
      this.#retry,
      isRefusedBeforeWork,
    )
    return toListedFile(data)
  }

  /** The Google account's address, for the record; null when Drive will not say. */
  async accountEmail(): Promise<string | null> {
    try {
      const { data } = await this.#api.about.get({ fields: 'user(emailAddress)' }, { retry: false })
      return data.user?.emailAddress ?? null
    } catch {
      return null
    }
  }
}

/** Reads a body to the end, or stops and fails as soon as it passes maxBytes. */
async function collect(stream: Readable, maxBytes: number, declared: string | null): Promise<Uint8Array> {
  if (declared !== null && Number(declared) > maxBytes) {
    stream.destroy()
    throw tooLarge(maxBytes)
  }
  const chunks: Buffer[] = []
  let total = 0
  for await (const chunk of stream) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer)
    total += buffer.length
    if (total > maxBytes) {
      stream.destroy()
      throw tooLarge(maxBytes)
    }
    chunks.push(buffer)
  }
  return Buffer.concat(chunks)
}

/**
 * Drive's answer to a page token it will not take: 400 "Invalid Value" on `pageToken` (or, for a
 * token of a Drive that is gone, 404/410).
 */
function isRefusedToken(error: unknown): boolean {
  if (!isGaxiosError(error)) return false
  const status = error.response?.status
  if (status === 404 || status === 410) return true
  const data = error.response?.data as { error?: { errors?: { location?: string }[] } } | undefined
  return status === 400 && data?.error?.errors?.[0]?.location === 'pageToken'
}

/** Google refused the request without doing it: 429, or a 403 rate-limit reason. */
function isRefusedBeforeWork(error: unknown): boolean {
  const failure = classifyGoogleError(error)
  return failure.kind === 'busy' && (failure.status === 429 || failure.status === 403)
}

/** The declared length, whichever shape the client hands the headers in. */
function contentLength(headers: unknown): string | null {
  if (headers instanceof Headers) return headers.get('content-length')
  const value = (headers as Record<string, unknown> | undefined)?.['content-length']
  return typeof value === 'string' ? value : null
}

function toListedFile(file: drive_v3.Schema$File): DriveListedFile {
  return {
    id: file.id ?? '',
    // Names are data from upstream too: cleaned as an upload's are (D85), before anything stores
    // or shows them (line breaks, NUL and bidi controls out, the length capped).
    name: cleanFileName(file.name ?? '') || 'Untitled',
    mimeType: file.mimeType ?? 'application/octet-stream',
    modifiedTime: file.modifiedTime ?? new Date(0).toISOString(),
    // Links are data from upstream: only https ones go on (D37).
    webViewLink: safeExternalLink(file.webViewLink),
    webContentLink: safeExternalLink(file.webContentLink),
    version: file.version ?? null,
    size: file.size === undefined || file.size === null ? null : Number(file.size),
    trashed: file.trashed === true,
    shortcutTargetId: file.shortcutDetails?.targetId ?? null,
    parents: file.parents ?? [],
  }
}

function tooLarge(maxBytes: number): DriveFileError {
  return new DriveFileError(`the file is larger than ${Math.round(maxBytes / (1024 * 1024))} MB`)
}

/**
 * A download's failure that belongs to this file alone becomes a DriveFileError; the rest (access
 * revoked, Drive busy or unreachable) stay as they are and end the whole operation.
 */
function fileLevel(error: unknown): unknown {
  if (error instanceof DriveFileError) return error
  // Not Google's answer but the stream breaking off midway (a reset connection).
  if (!isGaxiosError(error)) return new DriveFileError('the download was interrupted')
  const failure = classifyGoogleError(error)
  if (failure.kind === 'not-found') return new DriveFileError('the file is no longer in Google Drive')
  if (failure.kind === 'forbidden') {
    if (failure.reason === 'exportSizeLimitExceeded')
      return new DriveFileError('the file is too large to export')
    return new DriveFileError('Google Drive does not allow downloading this file')
  }
  if (failure.kind === 'other' && failure.status !== undefined && failure.status < 500) {
    return new DriveFileError(`Google Drive refused the download (${failure.reason ?? failure.status})`)
  }
  return error
}
