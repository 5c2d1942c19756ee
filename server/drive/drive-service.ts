/**
 * The three Drive calls of product §7 for the signed-in person (`app.drive`): list their files, one
 * file's links, ingest their documents. The tokens are always the signed-in person's; the `email`
 * the client sends only has to be theirs (403 otherwise). Google's failures become sentences with
 * a 4xx/503 status, never a 500, and a revoked grant is forgotten so the app shows "Connect".
 */
import { HttpError, httpErrors } from '@fastify/sensible'
import type { FastifyBaseLogger } from 'fastify'
import type { DriveFile, IngestReport } from '#contracts/drive.ts'
import type { CurrentUser } from '../auth/auth-service.ts'
import type { GoogleConfig } from '../config.ts'
import type { Db } from '../db/database.ts'
import type { DocumentWriter } from '../documents/index/document-writer.ts'
import { refreshChunkStatistics } from '../documents/index/documents-repository.ts'
import { createLibraryRepository, startReadings } from '../documents/library/library-repository.ts'
import { DRIVE_FILE_JOB, DRIVE_SOURCE } from '../documents/library/sources.ts'
import type { DocumentReader } from '../documents/reading/document-reader.ts'
import { serverError } from '../http/errors.ts'
import type { JobQueue } from '../jobs/job-queue.ts'
import { createDownloadLimiter } from './download-limiter.ts'
import { createDriveApi, type DriveApi, type DriveListedFile } from './drive-api.ts'
import { type DriveDocument, readDriveFile } from './drive-file.ts'
import {
  beginListing,
  type DriveFileJobDeps,
  endListing,
  ingestDriveFile,
  isListing,
  syncState,
} from './drive-ingest.ts'
import { planDriveSync } from './drive-sync-plan.ts'
import { type GoogleConnections, WRITE_SCOPES } from './google-connections.ts'
import type { GoogleDriveRepository } from './google-drive-repository.ts'
import { classifyGoogleError, type RetryPolicy } from './google-errors.ts'
import { ingestReport } from './ingest-report.ts'

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
  cannotWrite:
    'DocChat may not add files to your Drive. Reconnect Google Drive under Integrations and allow it to add files.',
} as const

/** How long an upload to Drive waits for a sync under way (another tab, instance) to end before it runs its own. */
const UPLOAD_SYNC_WAIT_MS = 10_000
const UPLOAD_SYNC_POLL_MS = 100

export type DriveService = ReturnType<typeof createDriveService>

type Deps = {
  google: GoogleConfig | null
  connections: GoogleConnections | null
  repository: GoogleDriveRepository
  db: Db
  reader: DocumentReader
  writer: DocumentWriter
  retry: RetryPolicy
  log: FastifyBaseLogger
  jobs: JobQueue
  now: () => Date
  /**
   * How long the ingest call waits for the queued files to be read before it answers with what is
   * done so far (the rest carries on in the background).
   */
  ingestWaitMs: number
  /** The most downloads of one person's Drive at once (their jobs running at once). */
  downloadsPerPerson: number
}

/**
 * How often a waiting ingest call looks at the jobs: soon at first (a small Drive answers at
 * once), then less and less often, up to twice a second, so a long sync's reads are not slowed by
 * the waiter's own queries on the database's one connection; and at once when this instance's
 * last running job of the person ends (JobQueue.waitForJobs).
 */
const WAIT_POLL_MS = 50
const MAX_WAIT_POLL_MS = 500

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

export function createDriveService(deps: Deps) {
  const { google, connections, db, reader, retry, log, jobs, now } = deps
  const downloads = createDownloadLimiter({ max: deps.downloadsPerPerson, now: () => now().getTime() })

  /** The caller's own email, or 403: the spec's client sends it, and it never picks anybody. */
  function checkEmail(user: Person, email: string): void {
    if (email.trim().toLowerCase() !== user.email.trim().toLowerCase()) {
      throw httpErrors.forbidden(DRIVE_MESSAGES.wrongEmail)
    }
  }

  async function toHttpError(user: Person, error: unknown): Promise<unknown> {
    if (error instanceof HttpError) return error
    const failure = classifyGoogleError(error)
    const context = { event: 'google.drive.failed', userId: user.id, ...failure }
    switch (failure.kind) {
      case 'revoked':
        await connections?.forget(user.id)
        return httpErrors.conflict(DRIVE_MESSAGES.revoked)
      case 'insufficient-scope':
        return httpErrors.conflict(DRIVE_MESSAGES.insufficientScope)
      case 'not-found':
        return httpErrors.notFound(DRIVE_MESSAGES.fileNotFound)
      case 'busy':
        log.warn(context, 'Google Drive stayed busy after retries')
        return serverError(503, DRIVE_MESSAGES.busy)
      case 'unreachable':
        log.warn(context, 'Google Drive unreachable')
        return serverError(503, DRIVE_MESSAGES.unreachable)
      case 'forbidden':
        return httpErrors.forbidden(DRIVE_MESSAGES.refused)
      case 'other':
        // Not Google's answer at all: our own fault, a 500 the error handler logs.
        if (failure.status === undefined) return error
        // Not the error itself: its request config carries headers and tokens.
        log.error({ ...context, message: errorMessage(error) }, 'Google Drive refused a request')
        return serverError(502, DRIVE_MESSAGES.refused)
    }
  }

  /** Runs `work` with this person's Drive, mapping Google's failures and storing refreshed tokens. */
  async function withDrive<T>(user: Person, work: (drive: DriveApi) => Promise<T>): Promise<T> {
    if (!google || !connections) throw serverError(503, DRIVE_MESSAGES.notConfigured)
    const session = await connections.authorizedClient(user.id)
    if (!session) throw httpErrors.conflict(DRIVE_MESSAGES.notConnected)
    try {
      return await work(createDriveApi(session.auth, google.driveRootUrl, retry))
    } catch (error) {
      throw await toHttpError(user, error)
    } finally {
      await session.settle()
    }
  }

  /** This person's Drive outside a request (jobs, the background sync); null when not connected. */
  async function openDrive(userId: string): Promise<{ drive: DriveApi; settle: () => Promise<void> } | null> {
    if (!google || !connections) return null
    const session = await connections.authorizedClient(userId)
    if (!session) return null
    return { drive: createDriveApi(session.auth, google.driveRootUrl, retry), settle: session.settle }
  }

  /**
   * A person's Drive for their file jobs: jobs that start together share one session (the tokens
   * are read and decrypted once for them, not once per file; a later job reads them again, so a
   * reconnect is seen at once), and their downloads run within the person's download window,
   * which Google's refusals narrow.
   */
  type JobSession = { drive: Pick<DriveApi, 'download' | 'export'>; settle: () => Promise<void> }
  const opening = new Map<string, Promise<JobSession | null>>()
  async function openJobSession(userId: string): Promise<JobSession | null> {
    if (!google || !connections) return null
    const session = await connections.authorizedClient(userId)
    if (!session) return null
    const drive = createDriveApi(session.auth, google.driveRootUrl, retry, {
      onRateLimited: () => downloads.slowDown(userId),
    })
    return {
      drive: {
        download: (fileId, maxBytes) => downloads.run(userId, () => drive.download(fileId, maxBytes)),
        export: (fileId, mimeType, maxBytes) =>
          downloads.run(userId, () => drive.export(fileId, mimeType, maxBytes)),
      },
      settle: session.settle,
    }
  }
  function jobSession(userId: string): Promise<JobSession | null> {
    const shared = opening.get(userId)
    if (shared) return shared
    const session = openJobSession(userId).finally(() => opening.delete(userId))
    opening.set(userId, session)
    return session
  }

  const fileJobDeps: DriveFileJobDeps = {
    db,
    reader,
    writer: deps.writer,
    startReading: startReadings(db),
    openDrive: jobSession,
    forgetConnection: async (userId) => {
      await connections?.forget(userId)
    },
    messages: {
      notConnected: DRIVE_MESSAGES.notConnected,
      revoked: DRIVE_MESSAGES.revoked,
      busy: DRIVE_MESSAGES.busy,
      refused: DRIVE_MESSAGES.refused,
    },
  }
  // An instance without Google settings leaves Drive files to the instances that can read them
  // (its worker claims only the kinds it handles), rather than failing them as "not connected".
  if (google && connections) jobs.handle(DRIVE_FILE_JOB, (job) => ingestDriveFile(job, fileJobDeps))

  /** The last sync's report: its plan, with the queued files as they came out. */
  async function syncReport(userId: string): Promise<IngestReport> {
    const plan = (await syncState(db, userId, now())).plan
    const rows = await createLibraryRepository(db).bySource(userId, DRIVE_SOURCE)
    const byId = new Map(rows.map((r) => [r.id, r]))
    const readyNames = (ids: readonly string[] = []) =>
      ids.flatMap((id) => {
        const row = byId.get(id)
        return row?.status === 'ready' && !row.excluded ? [row.name] : []
      })
    const pendingRows = rows.filter(
      (r) => !r.excluded && (r.status === 'queued' || r.status === 'processing'),
    )
    // Queued, then found not to be read (an image with OCR off): skipped like the listing's.
    const skippedWhenRead = [...(plan?.added ?? []), ...(plan?.updated ?? [])].flatMap((id) => {
      const row = byId.get(id)
      return row?.status === 'skipped' && !row.excluded
        ? [{ name: row.name, reason: row.reason ?? 'the file was not read' }]
        : []
    })
    return ingestReport(
      {
        added: readyNames(plan?.added),
        updated: readyNames(plan?.updated),
        unchanged: plan?.unchanged ?? [],
        removed: plan?.removed ?? [],
        skipped: [...(plan?.skipped ?? []), ...skippedWhenRead],
        failed: rows
          .filter((r) => !r.excluded && r.status === 'failed')
          .map((r) => ({ name: r.name, reason: r.reason ?? 'the file could not be read' })),
      },
      pendingRows.length,
    )
  }

  /**
   * Runs a sync of this person's Drive now (the change feed: a few calls), waiting for one already
   * under way on any instance to end first, so a file just created is in it. False when none could
   * run: the file then comes with the next sync.
   */
  async function syncNow(userId: string, drive: DriveApi): Promise<boolean> {
    const deadline = performance.now() + UPLOAD_SYNC_WAIT_MS
    while (!(await beginListing(db, userId, now()))) {
      if (performance.now() >= deadline) return false
      await new Promise((resolve) => setTimeout(resolve, UPLOAD_SYNC_POLL_MS))
    }
    try {
      await planDriveSync(userId, { db, drive, now })
      jobs.wake()
      return true
    } catch (error) {
      // The file is in Drive already: a failed sync must not turn into "upload failed" (a retry
      // would add it twice). The next sync brings it.
      log.warn(
        { event: 'google.drive.upload-sync-failed', userId, ...classifyGoogleError(error) },
        'sync after an upload failed',
      )
      return false
    } finally {
      await endListing(db, userId)
    }
  }

  return {
    configured: google !== null,

    /**
     * 'Upload to Drive': creates the file in the person's My Drive (the drive.file scope), then syncs
     * their Drive so it is queued for the library like any Drive file. `synced` is false when the
     * sync could not run now (the file then comes with the next one).
     */
    async uploadFile(
      user: Person,
      file: { name: string; mimeType: string; bytes: Uint8Array },
    ): Promise<{ file: DriveFile; synced: boolean }> {
      return withDrive(user, async (drive) => {
        const granted = (await deps.repository.findConnection(user.id))?.scope.split(/\s+/) ?? []
        if (!granted.some((scope) => WRITE_SCOPES.has(scope)))
          throw httpErrors.conflict(DRIVE_MESSAGES.cannotWrite)
        let created: DriveListedFile
        try {
          created = await drive.createFile(file)
        } catch (error) {
          if (classifyGoogleError(error).kind === 'insufficient-scope') {
            throw httpErrors.conflict(DRIVE_MESSAGES.cannotWrite)
          }
          throw error
        }
        log.info({ event: 'google.drive.uploaded', userId: user.id }, 'file uploaded to Drive')
        return { file: toDriveFile(created), synced: await syncNow(user.id, drive) }
      })
    },

    /**
     * A library document's file from the owner's own Drive (the viewer, "Download"): 503 when
     * Drive is not configured, 409 when not connected, Google's failures as for every call.
     */
    readFile(userId: string, file: DriveDocument) {
      return withDrive({ id: userId, email: '' }, (drive) => readDriveFile(drive, file))
    },

    async listFiles(user: Person, email: string): Promise<{ files: DriveFile[] }> {
      checkEmail(user, email)
      const files = await withDrive(user, (drive) => drive.listFiles())
      return { files: files.map(toDriveFile) }
    },

    async getFile(user: Person, email: string, fileId: string): Promise<DriveFile> {
      checkEmail(user, email)
      return toDriveFile(await withDrive(user, (drive) => drive.getFile(fileId)))
    },

    /**
     * Starts a sync (or joins the one under way, on any instance): lists the Drive and queues what
     * is new or changed, then waits up to `ingestWaitMs` for the queued files to be read and
     * reports on them. Files not read by then carry on in the background.
     */
    async ingest(user: Person, email: string): Promise<IngestReport> {
      checkEmail(user, email)
      const started = performance.now()
      await withDrive(user, async (drive) => {
        if ((await jobs.pending(user.id, [DRIVE_FILE_JOB])) > 0) return
        if (!(await beginListing(db, user.id, now()))) return
        // The reader starts while Drive is listed, not when the first file arrives.
        reader.warm()
        try {
          await planDriveSync(user.id, { db, drive, now })
        } finally {
          await endListing(db, user.id)
        }
        jobs.wake()
      })
      const deadline = performance.now() + deps.ingestWaitMs
      let pending = 0
      let pollMs = WAIT_POLL_MS
      while (performance.now() < deadline) {
        const mark = jobs.endedFor(user.id)
        pending = (await isListing(db, user.id, now())) ? 1 : await jobs.pending(user.id, [DRIVE_FILE_JOB])
        if (pending === 0) break
        // The last file read here answers at once; the poll is for jobs on other instances.
        await jobs.waitForJobs(user.id, mark, Math.min(pollMs, deadline - performance.now()))
        pollMs = Math.min(pollMs * 1.5, MAX_WAIT_POLL_MS)
      }
      // Access lost while the files were read: the same answer as losing it while listing.
      if (!(await deps.repository.findConnection(user.id))) {
        throw httpErrors.conflict(DRIVE_MESSAGES.revoked)
      }
      if (pending === 0) await refreshChunkStatistics(db)
      const report = await syncReport(user.id)
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
          pending,
          ms: Math.round(performance.now() - started),
        },
        'Drive ingested',
      )
      return report
    },

    /**
     * Disconnects the person's Drive (revoked at Google, tokens deleted) and keeps or removes the
     * documents that came from it. Safe to repeat: with no connection it only applies the choice.
     */
    async disconnect(
      user: Person,
      choice: 'keep' | 'remove',
      forgetDrive: (userId: string, documents: 'keep' | 'remove') => Promise<number>,
    ) {
      if (!google || !connections) throw serverError(503, DRIVE_MESSAGES.notConfigured)
      await connections.disconnect(user.id)
      return { removedDocuments: await forgetDrive(user.id, choice) }
    },

    /**
     * A sync nobody asked for (DRIVE_SYNC_INTERVAL): lists the person's Drive and queues what
     * changed, unless a sync of theirs is under way (on any instance). Access revoked at Google
     * forgets the tokens, as in a request; other failures wait for the next round.
     */
    async backgroundSync(userId: string): Promise<'synced' | 'busy' | 'not-connected' | 'failed'> {
      if ((await jobs.pending(userId, [DRIVE_FILE_JOB])) > 0) return 'busy'
      const session = await openDrive(userId)
      if (!session) return 'not-connected'
      try {
        if (!(await beginListing(db, userId, now()))) return 'busy'
        try {
          await planDriveSync(userId, { db, drive: session.drive, now })
        } finally {
          await endListing(db, userId)
        }
        jobs.wake()
        return 'synced'
      } catch (error) {
        const failure = classifyGoogleError(error)
        if (failure.kind === 'revoked') await connections?.forget(userId)
        log.warn(
          { event: 'google.drive.background-sync-failed', userId, ...failure },
          'Background Drive sync failed',
        )
        return 'failed'
      } finally {
        await session.settle()
      }
    },

    /** Everyone with a Drive connection, for the background sync's round. */
    connectedUserIds: () => deps.repository.connectedUserIds(),

    /** The job handler's view of a person's Drive, for the queue to run 'drive-file' jobs. */
    fileJobDeps,
  }
}
