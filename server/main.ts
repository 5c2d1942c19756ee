/**
 * `node server/main.ts`: read the config, build the app, listen. SIGINT/SIGTERM close the app
 * (which closes the database and releases the data-directory lock), then the process ends.
 */
import './runtime/hold-tick-shape.ts'
import { buildApp } from './app.ts'
import { ConfigError, loadConfig } from './config.ts'
import { DataDirLockedError } from './db/data-dir-lock.ts'

const SHUTDOWN_GRACE_MS = 10_000

async function start() {
  const config = loadConfig()
  const app = await buildApp(config)

  let closing = false
  const shutdown = (signal: NodeJS.Signals) => {
    if (closing) return
    closing = true
    app.log.info({ signal }, 'shutting down')
    // A stuck connection must not keep the process alive for ever.
    setTimeout(() => process.exit(1), SHUTDOWN_GRACE_MS).unref()
    app.close().then(
      () => {
        app.log.info('closed cleanly')
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
