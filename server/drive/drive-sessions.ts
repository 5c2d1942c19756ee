/**
 * A person's Drive, opened with their stored tokens: for a request (`withDrive`, Google's failures
 * turned into drive-errors.ts refusals), outside one (the background sync), and for their file jobs,
 * which share one session per person and download within the person's window (download-limiter.ts).
 */
import type { FastifyBaseLogger } from 'fastify'
import type { GoogleConfig } from '../config.ts'
import { createDownloadLimiter } from './download-limiter.ts'
import { createDriveApi, type DriveApi } from './drive-api.ts'
import { DriveNotConfigured, DriveNotConnected, toDriveError } from './drive-errors.ts'
import type { GoogleConnections } from './google-connections.ts'
import type { RetryPolicy } from './google-errors.ts'

/** What a file job reads a Drive file with. */
export type JobSession = { drive: Pick<DriveApi, 'download' | 'export'>; settle: () => Promise<void> }

type Deps = {
  google: GoogleConfig | null
  connections: GoogleConnections | null
  retry: RetryPolicy
  log: FastifyBaseLogger
  now: () => Date
  /** The most downloads of one person's Drive at once (their jobs running at once). */
  downloadsPerPerson: number
}

export class DriveSessions {
  readonly #deps: Deps
  readonly #downloads: ReturnType<typeof createDownloadLimiter>
  readonly #opening = new Map<string, Promise<JobSession | null>>()

  constructor(deps: Deps) {
    this.#deps = deps
    this.#downloads = createDownloadLimiter({ max: deps.downloadsPerPerson, now: () => deps.now().getTime() })
  }

  /** Runs `work` with this person's Drive, mapping Google's failures and storing refreshed tokens. */
  async withDrive<T>(userId: string, work: (drive: DriveApi) => Promise<T>): Promise<T> {
    const { google, connections, retry, log } = this.#deps
    if (!google || !connections) throw new DriveNotConfigured()
    const session = await connections.authorizedClient(userId)
    if (!session) throw new DriveNotConnected()
    try {
      return await work(createDriveApi(session.auth, google.driveRootUrl, retry))
    } catch (error) {
      throw await toDriveError(error, { userId, log, forget: () => connections.forget(userId) })
    } finally {
      await session.settle()
    }
  }

  /** This person's Drive outside a request (the background sync); null when not connected. */
  async open(userId: string): Promise<{ drive: DriveApi; settle: () => Promise<void> } | null> {
    const { google, connections, retry } = this.#deps
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
  forJobs(userId: string): Promise<JobSession | null> {
    const shared = this.#opening.get(userId)
    if (shared) return shared
    const session = this.#openForJobs(userId).finally(() => this.#opening.delete(userId))
    this.#opening.set(userId, session)
    return session
  }

  async #openForJobs(userId: string): Promise<JobSession | null> {
    const { google, connections, retry } = this.#deps
    if (!google || !connections) return null
    const session = await connections.authorizedClient(userId)
    if (!session) return null
    const downloads = this.#downloads
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
}
