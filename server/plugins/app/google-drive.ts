/**
 * Google Drive as `app.drive` (the three Drive calls) and `app.googleConnections` (the connect
 * window; null when GOOGLE_CLIENT_ID/SECRET are unset). The PDF reader's worker thread is shared
 * by every ingest and stopped when the app closes.
 */
import type { GoogleConfig } from '../../config.ts'
import { createDriveService, type DriveService } from '../../google/drive-service.ts'
import { createGoogleConnections, type GoogleConnections } from '../../google/google-connections.ts'
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from '../../google/google-errors.ts'
import { createPdfExtractor } from '../../ingest/pdf-text.ts'
import { createGoogleDriveRepository } from '../../repositories/google-drive-repository.ts'
import { sharedPlugin } from '../shared-plugin.ts'

declare module 'fastify' {
  interface FastifyInstance {
    drive: DriveService
    googleConnections: GoogleConnections | null
  }
}

export type GoogleDrivePluginOptions = {
  google: GoogleConfig | null
  now: () => Date
  /** Backoff for Drive's busy answers; tests shorten the waits. */
  retry?: Partial<RetryPolicy>
}

export const googleDrivePlugin = sharedPlugin<GoogleDrivePluginOptions>('google-drive', async (app, opts) => {
  const repository = createGoogleDriveRepository(app.db)
  const connections = opts.google
    ? createGoogleConnections({ google: opts.google, repository, now: opts.now, log: app.log })
    : null
  const pdf = createPdfExtractor()
  app.addHook('onClose', () => pdf.close())
  app.decorate('googleConnections', connections)
  app.decorate(
    'drive',
    createDriveService({
      google: opts.google,
      connections,
      repository,
      db: app.db,
      pdf,
      retry: { ...DEFAULT_RETRY_POLICY, ...opts.retry },
      log: app.log,
      afterIngest: (userId) => {
        void app.embeddings?.schedule(userId)
      },
    }),
  )
  if (!opts.google)
    app.log.info('Google Drive is not configured (GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET unset)')
  else if (opts.google.emulated)
    app.log.warn(`Google calls go to the emulator at ${opts.google.driveRootUrl}`)
})
