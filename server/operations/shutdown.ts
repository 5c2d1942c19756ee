/**
 * Graceful shutdown (D41): stop taking requests, let the ones in flight finish, and give
 * long-lived responses (event streams) up to `graceMs` to end, then cut what is left and close the
 * database. Order: `beginShutdown` (/ready answers 503, `app.shutdown` fires so a stream can send
 * its last event and end), then `app.close()` (the listener closes, idle keep-alive connections
 * are dropped, also as they turn idle, requests in flight complete, new requests on open connections
 * get 503), and only
 * once the grace period is over `closeAllConnections()` for whatever is still open.
 */
import type { FastifyInstance } from 'fastify'

const IDLE_SWEEP_MS = 100

export type ShutdownReport = { cut: boolean; ms: number }

export async function closeGracefully(
  app: FastifyInstance,
  { graceMs }: { graceMs: number },
): Promise<ShutdownReport> {
  const started = performance.now()
  app.beginShutdown()
  let cut = false
  const timer = setTimeout(() => {
    cut = true
    app.log.warn(
      { graceMs },
      'shutdown: responses still open after the grace period; closing their connections',
    )
    app.server.closeAllConnections()
  }, graceMs)
  // A keep-alive connection whose request finishes during the wait turns idle: drop it then,
  // rather than after its keep-alive timeout.
  const idle = setInterval(() => app.server.closeIdleConnections(), IDLE_SWEEP_MS)
  try {
    await app.close()
  } finally {
    clearTimeout(timer)
    clearInterval(idle)
  }
  return { cut, ms: Math.round(performance.now() - started) }
}
