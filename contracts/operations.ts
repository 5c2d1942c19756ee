/**
 * Calls for the machines around the app, not for the browser client: a load balancer's readiness
 * probe. (Liveness is `healthEndpoint`; Prometheus scrapes /metrics, plain text outside /api/v1.)
 * A server that is not ready answers 503 with the usual `{ success: false, message }` envelope.
 */
import { z } from 'zod'
import { endpoint } from './endpoint.ts'

export const readyEndpoint = endpoint({
  method: 'GET',
  path: '/ready',
  response: z.object({ status: z.literal('ready') }),
})

/** Not under /api/v1: where Prometheus expects it. */
export const METRICS_PATH = '/metrics'
