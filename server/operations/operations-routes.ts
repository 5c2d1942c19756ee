/**
 * The probes and the metrics: `GET /api/v1/health` (the process answers), `GET /api/v1/ready`
 * (the database answers and no shutdown has begun) and `GET /metrics` (Prometheus text, open or
 * behind METRICS_TOKEN; 404 with a sentence while metrics are off).
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { healthEndpoint } from '#contracts/auth.ts'
import { METRICS_PATH, readyEndpoint } from '#contracts/operations.ts'
import { defineRoute } from '../http/define-route.ts'
import { NotFound, Unauthorized, Unavailable } from '../http/domain-errors.ts'
import type { Metrics } from './metrics.ts'
import { pingDatabase } from './readiness-repository.ts'

const READY_TIMEOUT_MS = 2_000
export const SHUTTING_DOWN_MESSAGE = 'The server is shutting down.'
export const DATABASE_DOWN_MESSAGE = 'The database is not answering.'
export const METRICS_OFF_MESSAGE = 'Metrics are off: set METRICS=1 or METRICS_TOKEN to turn them on.'

type RouteOptions = { metrics: Metrics | null; token: string | null; shutdown: AbortSignal }

export const operationsRoutes: FastifyPluginAsyncZod<RouteOptions> = async (
  app,
  { metrics, token, shutdown },
) => {
  defineRoute(app, healthEndpoint, { auth: 'public', handler: () => ({ status: 'ok' as const }) })

  defineRoute(app, readyEndpoint, {
    auth: 'public',
    async handler({ request, reply }) {
      reply.header('cache-control', 'no-store')
      if (shutdown.aborted) throw new Unavailable(SHUTTING_DOWN_MESSAGE)
      try {
        await withTimeout(pingDatabase(app.db), READY_TIMEOUT_MS)
      } catch (error) {
        request.log.warn({ err: error }, 'readiness check: the database did not answer')
        throw new Unavailable(DATABASE_DOWN_MESSAGE)
      }
      return { status: 'ready' as const }
    },
  })

  const expected = token === null ? null : digest(token)
  app.get(METRICS_PATH, async (request, reply) => {
    if (!metrics) throw new NotFound(METRICS_OFF_MESSAGE)
    if (expected) {
      const given = /^Bearer\s+(.+)$/i.exec(request.headers.authorization ?? '')?.[1]?.trim()
      if (!given || !timingSafeEqual(digest(given), expected)) {
        reply.header('www-authenticate', 'Bearer')
        throw new Unauthorized('Metrics need the bearer token set in METRICS_TOKEN.')
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
