/**
 * `node server/main.ts`: read the config, build the app, listen. SIGINT/SIGTERM shut down
 * gracefully (server/operations/shutdown.ts: /ready says 503, open responses get SHUTDOWN_GRACE_MS to end),
 * then the app closes the database and releases the data-directory lock, and the process ends.
 */
import { buildApp } from './app.ts'
import { ConfigError, loadConfig } from './config.ts'
import { DataDirLockedError } from './db/data-dir-lock.ts'
import { closeGracefully } from './operations/shutdown.ts'

/** Past the grace period for open responses, the database gets this long to close. */
const CLOSE_BACKSTOP_MS = 5_000

async function start() {
  const config = loadConfig()
  const app = await buildApp(config)

  let closing = false
  const shutdown = (signal: NodeJS.Signals) => {
    if (closing) return
    closing = true
    app.log.info({ signal, graceMs: config.shutdownGraceMs }, 'shutting down: draining open responses')
    // Whatever hangs past the grace period and the backstop must not keep the process alive.
    setTimeout(() => process.exit(1), config.shutdownGraceMs + CLOSE_BACKSTOP_MS).unref()
    closeGracefully(app, { graceMs: config.shutdownGraceMs }).then(
      ({ cut, ms }) => {
        app.log.info({ ms, cut }, 'closed')
        process.exitCode = 0
      },
      (error: unknown) => {
        app.log.error({ err: error }, 'close failed')
        process.exitCode = 1
      },
    )
  }
  process.once('SIGINT', shutdown)
  process.once('SIGTERM', shutdown)

  await app.listen({ host: config.host, port: config.port })
  app.log.info(`DocChat is ready at ${config.publicUrl}`)
}

try {
  await start()
} catch (error) {
  if (error instanceof ConfigError || error instanceof DataDirLockedError) {
    console.error(error.message)
    process.exit(1)
  }
  throw error
}
