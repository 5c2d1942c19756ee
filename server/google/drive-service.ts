/**
 * The three Drive calls of SPEC §7 for the signed-in person (`app.drive`): list their files, one
 * file's links, ingest their documents. The tokens are always the signed-in person's; the `email`
 * the client sends only has to be theirs (403 otherwise). Google's failures become sentences with
 * a 4xx/503 status, never a 500, and a revoked grant is forgotten so the app shows "Connect".
 */
import type { FastifyBaseLogger } from 'fastify'
import type { DriveFile, IngestReport } from '#contracts/drive.ts'
import type { CurrentUser } from '../auth/auth-service.ts'
import type { GoogleConfig } from '../config.ts'
import type { Db } from '../db/database.ts'
import { HttpError } from '../http-errors.ts'
import { ingestDrive } from '../ingest/drive-ingest.ts'
import type { PdfExtractor } from '../ingest/pdf-text.ts'
import type { GoogleDriveRepository } from '../repositories/google-drive-repository.ts'
import { createDriveApi, type DriveApi, type DriveListedFile } from './drive-api.ts'
import type { GoogleConnections } from './google-connections.ts'
import { classifyGoogleError, type RetryPolicy } from './google-errors.ts'

export const DRIVE_MESSAGES = {
  notConfigured: 'Google Drive is not configured on this server.',
  notConnected: 'Google Drive is not connected. Connect it under Integrations.',
  revoked: 'Google Drive access has expired or was revoked. Reconnect Google Drive under Integrations.',
  insufficientScope:
    'DocChat may not read your Drive files. Reconnect Google Drive under Integrations and allow access to your files.',
  busy: 'Google Drive is busy right now. Try again in a minute.',
  unreachable: 'Google Drive could not be reached. Try again in a minute.',
  refused: 'Google Drive refused the request.',
  fileNotFound: 'File not found in your Google Drive.',
  ingestRunning: 'An ingest is already running',
  wrongEmail: 'The email does not match the signed-in account.',
} as const

export type DriveService = ReturnType<typeof createDriveService>

type Deps = {
  google: GoogleConfig | null
  connections: GoogleConnections | null
  repository: GoogleDriveRepository
  db: Db
  pdf: PdfExtractor
  retry: RetryPolicy
  log: FastifyBaseLogger
  /** Called after a user's ingest (hybrid retrieval embeds the new passages in the background). */
  afterIngest?: (userId: string) => void
}

type Person = Pick<CurrentUser, 'id' | 'email'>

const errorMessage = (error: unknown) => (error instanceof Error ? error.message : String(error))

function toDriveFile(file: DriveListedFile): DriveFile {
  return {
    id: file.id,
    name: file.name,
    mimeType: file.mimeType,
    modifiedTime: file.modifiedTime,
    webContentLink: file.webContentLink,
    webViewLink: file.webViewLink,
  }
}

export function createDriveService({
  google,
  connections,
  repository,
  db,
  pdf,
  retry,
  log,
  afterIngest,
}: Deps) {
  const ingesting = new Set<string>()

  /** The caller's own email, or 403: the spec's client sends it, and it never picks anybody. */
  function checkEmail(user: Person, email: string): void {
    if (email.trim().toLowerCase() !== user.email.trim().toLowerCase()) {
      throw new HttpError(403, DRIVE_MESSAGES.wrongEmail)
    }
  }

  async function toHttpError(user: Person, error: unknown): Promise<unknown> {
    if (error instanceof HttpError) return error
    const failure = classifyGoogleError(error)
    const context = { event: 'google.drive.failed', userId: user.id, ...failure }
    switch (failure.kind) {
      case 'revoked':
        await connections?.forget(user.id)
        return new HttpError(409, DRIVE_MESSAGES.revoked)
      case 'insufficient-scope':
        return new HttpError(409, DRIVE_MESSAGES.insufficientScope)
      case 'not-found':
        return new HttpError(404, DRIVE_MESSAGES.fileNotFound)
      case 'busy':
        log.warn(context, 'Google Drive stayed busy after retries')
        return new HttpError(503, DRIVE_MESSAGES.busy)
      case 'unreachable':
        log.warn(context, 'Google Drive unreachable')
        return new HttpError(503, DRIVE_MESSAGES.unreachable)
      case 'forbidden':
        return new HttpError(403, DRIVE_MESSAGES.refused)
      case 'other':
        // Not Google's answer at all: our own fault, a 500 the error handler logs.
        if (failure.status === undefined) return error
        // Not the error itself: its request config carries headers and tokens.
        log.error({ ...context, message: errorMessage(error) }, 'Google Drive refused a request')
        return new HttpError(502, DRIVE_MESSAGES.refused)
    }
  }

  /** Runs `work` with this person's Drive, mapping Google's failures and storing refreshed tokens. */
  async function withDrive<T>(user: Person, work: (drive: DriveApi) => Promise<T>): Promise<T> {
    if (!google || !connections) throw new HttpError(503, DRIVE_MESSAGES.notConfigured)
    const session = await connections.authorizedClient(user.id)
    if (!session) throw new HttpError(409, DRIVE_MESSAGES.notConnected)
    try {
      return await work(createDriveApi(session.auth, google.driveRootUrl, retry))
    } catch (error) {
      throw await toHttpError(user, error)
    } finally {
      await session.settle()
    }
  }

  return {
    configured: google !== null,

    async listFiles(user: Person, email: string): Promise<{ files: DriveFile[] }> {
      checkEmail(user, email)
      const files = await withDrive(user, (drive) => drive.listFiles())
      return { files: files.map(toDriveFile) }
    },

    async getFile(user: Person, email: string, fileId: string): Promise<DriveFile> {
      checkEmail(user, email)
      return toDriveFile(await withDrive(user, (drive) => drive.getFile(fileId)))
    },

    /** One at a time per person (409 for a second); answers once the work is done. */
    async ingest(user: Person, email: string): Promise<IngestReport> {
      checkEmail(user, email)
      if (ingesting.has(user.id)) throw new HttpError(409, DRIVE_MESSAGES.ingestRunning)
      ingesting.add(user.id)
      const started = performance.now()
      try {
        const report = await withDrive(user, (drive) => ingestDrive(user.id, { db, repository, drive, pdf }))
        afterIngest?.(user.id)
        log.info(
          {
            event: 'google.drive.ingested',
            userId: user.id,
            added: report.added.length,
            updated: report.updated.length,
            unchanged: report.unchanged.length,
            removed: report.removed.length,
            skipped: report.skipped.length,
            failed: report.failed.length,
            ms: Math.round(performance.now() - started),
          },
          'Drive ingested',
        )
        return report
      } finally {
        ingesting.delete(user.id)
      }
    },
  }
}
