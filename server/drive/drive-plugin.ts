/**
 * Google Drive: its calls (drive-routes.ts) and the connect window (connect-routes.ts), `app.drive`
 * (drive-service.ts), `app.googleConnections` (the connect window; null when
 * GOOGLE_CLIENT_ID/SECRET are unset), `app.driveFolders` (the folders assistants follow, D115), the 'drive-file' job handler on `app.jobs`, and the
 * background sync. PDFs and Word files go through the library's shared `app.reader`.
 */
import fp from 'fastify-plugin'
import type { GoogleConfig } from '../config.ts'
import { DRIVE_SOURCE } from '../documents/library/sources.ts'
import { googleConnectRoutes } from './connect-routes.ts'
import type { DriveFolders } from './drive-folders.ts'
import { createDriveFolders, NO_DRIVE_FOLDERS } from './drive-folders-service.ts'
import { driveRoutes } from './drive-routes.ts'
import { DriveService } from './drive-service.ts'
import { createGoogleConnections, type GoogleConnections } from './google-connections.ts'
import { createGoogleDriveRepository } from './google-drive-repository.ts'
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './google-errors.ts'

declare module 'fastify' {
  interface FastifyInstance {
    drive: DriveService
    googleConnections: GoogleConnections | null
    /** A person's Drive folders and the documents in them now (D115): what assistants read. */
    driveFolders: DriveFolders
  }
}

export type DrivePluginOptions = {
  google: GoogleConfig | null
  now: () => Date
  /** Backoff for Drive's busy answers; tests shorten the waits. */
  retry?: Partial<RetryPolicy>
  /** How long the ingest call waits for the files it queued (default DEFAULT_INGEST_WAIT_MS). */
  ingestWaitMs?: number
  /** Background sync of every connected Drive this often (DRIVE_SYNC_INTERVAL); 0: off. */
  syncIntervalMs: number
}

/** Under common proxy time-outs (30–60 s): what is not read by then carries on in the background. */
export const DEFAULT_INGEST_WAIT_MS = 25_000

export const drivePlugin = fp<DrivePluginOptions>(
  async (app, opts) => {
    const repository = createGoogleDriveRepository(app.db)
    const connections = opts.google
      ? createGoogleConnections({ google: opts.google, repository, now: opts.now, log: app.log })
      : null
    const reader = app.reader
    app.decorate('googleConnections', connections)
    app.decorate('driveFolders', opts.google ? createDriveFolders(app.db) : NO_DRIVE_FOLDERS)
    // An account taken back by its owner (D99): a Drive connected by whoever held the password
    // may be theirs, and 'Upload to Drive' would send the owner's files there. The grant ends;
    // the documents stay in the library, as a disconnect that keeps them (the route's 'keep').
    if (connections) {
      app.googleAccounts.onClaimed(async (userId) => {
        await connections.disconnect(userId)
        await app.library.forgetDrive(userId, 'keep', (tx) =>
          createGoogleDriveRepository(tx).forgetSyncState(userId),
        )
      })
    }
    const drive = new DriveService({
      google: opts.google,
      connections,
      repository,
      db: app.db,
      reader,
      writer: app.writer,
      retry: { ...DEFAULT_RETRY_POLICY, ...opts.retry },
      log: app.log,
      jobs: app.jobs,
      now: opts.now,
      ingestWaitMs: opts.ingestWaitMs ?? DEFAULT_INGEST_WAIT_MS,
      downloadsPerPerson: app.jobs.perPerson,
    })
    const { metrics } = app
    if (metrics) {
      // Ingest calls by outcome (D40); the jobs they queue are counted from the jobs table.
      const ingest = drive.ingest.bind(drive)
      drive.ingest = async (...args) => {
        const started = performance.now()
        let outcome: 'done' | 'failed' = 'failed'
        try {
          const report = await ingest(...args)
          outcome = 'done'
          return report
        } finally {
          metrics.ingest(outcome, (performance.now() - started) / 1000)
        }
      }
    }
    app.decorate('drive', drive)
    // The viewer and "Download" read a Drive document's file through the person's own connection.
    app.documentView.registerFileSource(DRIVE_SOURCE, (row) => app.drive.readFile(row.userId, row))
    if (opts.google && opts.syncIntervalMs > 0) {
      let timer: NodeJS.Timeout | undefined
      let round: Promise<void> | undefined
      /** One round at a time: each connected person in turn (the lease keeps instances apart). */
      const syncAll = async () => {
        for (const userId of await app.drive.connectedUserIds()) await app.drive.backgroundSync(userId)
      }
      app.addHook('onReady', async () => {
        timer = setInterval(() => {
          round ??= syncAll()
            .catch((error: unknown) => app.log.warn({ event: 'google.drive.sync-round-failed', err: error }))
            .finally(() => {
              round = undefined
            })
        }, opts.syncIntervalMs)
        timer.unref()
      })
      app.addHook('preClose', async () => {
        clearInterval(timer)
        await round
      })
    }
    if (!opts.google)
      app.log.info('Google Drive is not configured (GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET unset)')
    else if (opts.google.emulated)
      app.log.warn(`Google calls go to the emulator at ${opts.google.driveRootUrl}`)
    await app.register(driveRoutes)
    await app.register(googleConnectRoutes)
  },
  {
    name: 'drive',
    dependencies: ['database', 'request-guards', 'authentication', 'operations', 'jobs', 'documents'],
  },
)
