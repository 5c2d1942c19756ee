/**
 * What operators and load balancers need (README D40, D41):
 * - `GET /api/v1/ready`: 200 while the database answers; 503 with a sentence when it does not or
 *   while the server is shutting down, so a balancer stops sending before the process goes.
 * - `GET /metrics`: Prometheus text, when METRICS=1 (open) or METRICS_TOKEN (bearer only);
 *   otherwise 404. `app.metrics` is null when off, and features skip their measurements.
 * - `app.shutdown`: an AbortSignal that fires when shutting down begins; long-lived responses
 *   (event streams) end themselves on it rather than being cut at the end of the grace period.
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import { sql } from 'drizzle-orm'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { METRICS_PATH, readyEndpoint } from '#contracts/operations.ts'
import type { MetricsConfig } from '../config.ts'
import { defineRoute } from '../http/define-route.ts'
import { HttpError } from '../http/errors.ts'
import { sharedPlugin } from '../plugins/shared-plugin.ts'
import type { Metrics } from './metrics.ts'

const READY_TIMEOUT_MS = 2_000
export const SHUTTING_DOWN_MESSAGE = 'The server is shutting down.'
export const DATABASE_DOWN_MESSAGE = 'The database is not answering.'
export const METRICS_OFF_MESSAGE = 'Metrics are off: set METRICS=1 or METRICS_TOKEN to turn them on.'

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

export const operationsPlugin = sharedPlugin<{ metrics: MetricsConfig }>('operations', async (app, opts) => {
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
})

type RouteOptions = { metrics: Metrics | null; token: string | null; shutdown: AbortSignal }

const operationsRoutes: FastifyPluginAsyncZod<RouteOptions> = async (app, { metrics, token, shutdown }) => {
  defineRoute(app, readyEndpoint, {
    auth: 'public',
    async handler({ request, reply }) {
      reply.header('cache-control', 'no-store')
      if (shutdown.aborted) throw new HttpError(503, SHUTTING_DOWN_MESSAGE)
      try {
        await withTimeout(app.db.execute(sql`select 1`), READY_TIMEOUT_MS)
      } catch (error) {
        request.log.warn({ err: error }, 'readiness check: the database did not answer')
        throw new HttpError(503, DATABASE_DOWN_MESSAGE)
      }
      return { status: 'ready' as const }
    },
  })

  const expected = token === null ? null : digest(token)
  app.get(METRICS_PATH, async (request, reply) => {
    if (!metrics) throw new HttpError(404, METRICS_OFF_MESSAGE)
    if (expected) {
      const given = /^Bearer\s+(.+)$/i.exec(request.headers.authorization ?? '')?.[1]?.trim()
      if (!given || !timingSafeEqual(digest(given), expected)) {
        reply.header('www-authenticate', 'Bearer')
        throw new HttpError(401, 'Metrics need the bearer token set in METRICS_TOKEN.')
      }
    }
    reply.header('cache-control', 'no-store').type(metrics.registry.contentType)
    return metrics.registry.metrics()
  })
}

/** Equal-length inputs for timingSafeEqual, whatever length the caller sent. */
function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest()
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}
