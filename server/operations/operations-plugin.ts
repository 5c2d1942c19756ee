/**
 * What operators and load balancers need (D40, D41):
 * - `GET /api/v1/health` and `GET /api/v1/ready`: alive, and 200 while the database answers; 503
 *   with a sentence when it does not or while the server is shutting down, so a balancer stops
 *   sending before the process goes (operations-routes.ts).
 * - `GET /metrics`: Prometheus text, when METRICS=1 (open) or METRICS_TOKEN (bearer only);
 *   otherwise 404. `app.metrics` is null when off, and features skip their measurements.
 * - `app.shutdown`: an AbortSignal that fires when shutting down begins; long-lived responses
 *   (event streams) end themselves on it rather than being cut at the end of the grace period.
 */
import fp from 'fastify-plugin'
import type { MetricsConfig } from '../config.ts'
import type { Metrics } from './metrics.ts'
import { operationsRoutes } from './operations-routes.ts'

declare module 'fastify' {
  interface FastifyInstance {
    /** Null unless METRICS=1 or METRICS_TOKEN. */
    metrics: Metrics | null
    /** Aborted when shutting down begins (SIGTERM/SIGINT, or `beginShutdown`). */
    shutdown: AbortSignal
    /** Starts shutting down: /ready answers 503 and `app.shutdown` fires; `close()` follows. */
    beginShutdown: () => void
  }
}

export const operationsPlugin = fp<{ metrics: MetricsConfig }>(
  async (app, opts) => {
    // prom-client is loaded only when metrics are on: off (the default), start-up and idle memory
    // do not pay for it (~20 MiB RSS, bench/footprint.ts).
    const metrics = opts.metrics.enabled
      ? (await import('./metrics.ts')).createMetrics({ pool: app.database.pool })
      : null
    const shutdown = new AbortController()
    app.decorate('metrics', metrics)
    app.decorate('shutdown', shutdown.signal)
    app.decorate('beginShutdown', () => shutdown.abort())
    app.addHook('preClose', async () => shutdown.abort())

    if (metrics) {
      app.addHook('onResponse', async (request, reply) => {
        metrics.http({
          method: request.method,
          // The route pattern (/api/v1/chat/sessions/:id): concrete URLs would grow without bound.
          route: request.routeOptions.url ?? 'unmatched',
          status: reply.statusCode,
          seconds: reply.elapsedTime / 1000,
        })
      })
    }

    await app.register(operationsRoutes, { metrics, token: opts.metrics.token, shutdown: shutdown.signal })
  },
  { name: 'operations', dependencies: ['database'] },
)
