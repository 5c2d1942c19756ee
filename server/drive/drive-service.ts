/**
 * The three Drive calls of product §7 for the signed-in person (`app.drive`): list their files, one
 * file's links, ingest their documents; and 'Upload to Drive'. The tokens are always the signed-in
 * person's; the `email` the client sends only has to be theirs (refused otherwise). Google's
 * failures become drive-errors.ts refusals with a sentence, never a 500, and a revoked grant is
 * forgotten so the app shows "Connect".
 */
import type { FastifyBaseLogger } from 'fastify'
import type { DriveFile, IngestReport } from '#contracts/drive.ts'
import type { CurrentUser } from '../auth/auth-service.ts'
import type { GoogleConfig } from '../config.ts'
import type { Db } from '../db/database.ts'
import type { DocumentWriter } from '../documents/index/document-writer.ts'
import { refreshChunkStatistics } from '../documents/index/documents-repository.ts'
import { startReadings } from '../documents/library/library-repository.ts'
import { DRIVE_FILE_JOB } from '../documents/library/sources.ts'
import type { DocumentReader } from '../documents/reading/document-reader.ts'
import type { JobQueue } from '../jobs/job-queue.ts'
import type { DriveApi, DriveListedFile } from './drive-api.ts'
import {
  DRIVE_MESSAGES,
  DriveAccessRevoked,
  DriveCannotWrite,
  DriveNotConfigured,
  NotYourEmail,
} from './drive-errors.ts'
import { type DriveDocument, readDriveFile } from './drive-file.ts'
import { type DriveFileJobDeps, ingestDriveFile } from './drive-ingest.ts'
import { DriveSessions } from './drive-sessions.ts'
import { planDriveSync } from './drive-sync-plan.ts'
import { syncReport } from './drive-sync-report.ts'
import { beginListing, endListing, isListing } from './drive-syncs-repository.ts'
import { type GoogleConnections, WRITE_SCOPES } from './google-connections.ts'
import type { GoogleDriveRepository } from './google-drive-repository.ts'
import { classifyGoogleError, type RetryPolicy } from './google-errors.ts'

/** How long an upload to Drive waits for a sync under way (another tab, instance) to end before it runs its own. */
const UPLOAD_SYNC_WAIT_MS = 10_000
const UPLOAD_SYNC_POLL_MS = 100

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

/** The caller's own email, or refused: the spec's client sends it, and it never picks anybody. */
function checkEmail(user: Person, email: string): void {
  if (email.trim().toLowerCase() !== user.email.trim().toLowerCase()) throw new NotYourEmail()
}

export class DriveService {
  readonly configured: boolean
  /** The job handler's view of a person's Drive, for the queue to run 'drive-file' jobs. */
  readonly fileJobDeps: DriveFileJobDeps
  readonly #deps: Deps
  readonly #sessions: DriveSessions

  constructor(deps: Deps) {
    const { google, connections, db, reader, jobs } = deps
    this.#deps = deps
    this.configured = google !== null
    this.#sessions = new DriveSessions(deps)
    this.fileJobDeps = {
      db,
      reader,
      writer: deps.writer,
      startReading: startReadings(db),
      openDrive: (userId) => this.#sessions.forJobs(userId),
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
    if (google && connections) jobs.handle(DRIVE_FILE_JOB, (job) => ingestDriveFile(job, this.fileJobDeps))
  }

  /**
   * 'Upload to Drive': creates the file in the person's My Drive (the drive.file scope), then syncs
   * their Drive so it is queued for the library like any Drive file. `synced` is false when the
   * sync could not run now (the file then comes with the next one).
   */
  async uploadFile(
    user: Person,
    file: { name: string; mimeType: string; bytes: Uint8Array },
  ): Promise<{ file: DriveFile; synced: boolean }> {
    return this.#sessions.withDrive(user.id, async (drive) => {
      const granted = (await this.#deps.repository.findConnection(user.id))?.scope.split(/\s+/) ?? []
      if (!granted.some((scope) => WRITE_SCOPES.has(scope))) throw new DriveCannotWrite()
      let created: DriveListedFile
      try {
        created = await drive.createFile(file)
      } catch (error) {
        if (classifyGoogleError(error).kind === 'insufficient-scope') throw new DriveCannotWrite()
        throw error
      }
      this.#deps.log.info({ event: 'google.drive.uploaded', userId: user.id }, 'file uploaded to Drive')
      return { file: toDriveFile(created), synced: await this.#syncNow(user.id, drive) }
    })
  }

  /**
   * Runs a sync of this person's Drive now (the change feed: a few calls), waiting for one already
   * under way on any instance to end first, so a file just created is in it. False when none could
   * run: the file then comes with the next sync.
   */
  async #syncNow(userId: string, drive: DriveApi): Promise<boolean> {
    const { db, now, jobs, log } = this.#deps
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

  /**
   * A library document's file from the owner's own Drive (the viewer, "Download"): refused when
   * Drive is not configured or not connected, Google's failures as for every call.
   */
  readFile(userId: string, file: DriveDocument) {
    return this.#sessions.withDrive(userId, (drive) => readDriveFile(drive, file))
  }

  async listFiles(user: Person, email: string): Promise<{ files: DriveFile[] }> {
    checkEmail(user, email)
    const files = await this.#sessions.withDrive(user.id, (drive) => drive.listFiles())
    return { files: files.map(toDriveFile) }
  }

  async getFile(user: Person, email: string, fileId: string): Promise<DriveFile> {
    checkEmail(user, email)
    return toDriveFile(await this.#sessions.withDrive(user.id, (drive) => drive.getFile(fileId)))
  }

  /**
   * Starts a sync (or joins the one under way, on any instance): lists the Drive and queues what
   * is new or changed, then waits up to `ingestWaitMs` for the queued files to be read and
   * reports on them. Files not read by then carry on in the background.
   */
  async ingest(user: Person, email: string): Promise<IngestReport> {
    checkEmail(user, email)
    const { db, now, jobs, reader, log } = this.#deps
    const started = performance.now()
    await this.#sessions.withDrive(user.id, async (drive) => {
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
    const pending = await this.#waitForFiles(user.id)
    // Access lost while the files were read: the same answer as losing it while listing.
    if (!(await this.#deps.repository.findConnection(user.id))) throw new DriveAccessRevoked()
    if (pending === 0) await refreshChunkStatistics(db)
    const report = await syncReport(db, user.id, now())
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
  }

  /** Waits up to `ingestWaitMs` for the person's listing and file jobs to end: how many are left. */
  async #waitForFiles(userId: string): Promise<number> {
    const { db, now, jobs } = this.#deps
    const deadline = performance.now() + this.#deps.ingestWaitMs
    let pending = 0
    let pollMs = WAIT_POLL_MS
    while (performance.now() < deadline) {
      const mark = jobs.endedFor(userId)
      pending = (await isListing(db, userId, now())) ? 1 : await jobs.pending(userId, [DRIVE_FILE_JOB])
      if (pending === 0) break
      // The last file read here answers at once; the poll is for jobs on other instances.
      await jobs.waitForJobs(userId, mark, Math.min(pollMs, deadline - performance.now()))
      pollMs = Math.min(pollMs * 1.5, MAX_WAIT_POLL_MS)
    }
    return pending
  }

  /**
   * Disconnects the person's Drive (revoked at Google, tokens deleted) and keeps or removes the
   * documents that came from it. Safe to repeat: with no connection it only applies the choice.
   */
  async disconnect(
    user: Person,
    choice: 'keep' | 'remove',
    forgetDrive: (userId: string, documents: 'keep' | 'remove') => Promise<number>,
  ) {
    const { google, connections } = this.#deps
    if (!google || !connections) throw new DriveNotConfigured()
    await connections.disconnect(user.id)
    return { removedDocuments: await forgetDrive(user.id, choice) }
  }

  /**
   * A sync nobody asked for (DRIVE_SYNC_INTERVAL): lists the person's Drive and queues what
   * changed, unless a sync of theirs is under way (on any instance). Access revoked at Google
   * forgets the tokens, as in a request; other failures wait for the next round.
   */
  async backgroundSync(userId: string): Promise<'synced' | 'busy' | 'not-connected' | 'failed'> {
    const { db, now, jobs, log, connections } = this.#deps
    if ((await jobs.pending(userId, [DRIVE_FILE_JOB])) > 0) return 'busy'
    const session = await this.#sessions.open(userId)
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
  }

  /** Everyone with a Drive connection, for the background sync's round. */
  connectedUserIds(): Promise<string[]> {
    return this.#deps.repository.connectedUserIds()
  }
}
