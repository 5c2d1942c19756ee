/**
 * Prometheus metrics through prom-client (D40), one registry per app (tests build many).
 * Off unless METRICS=1 or METRICS_TOKEN is set: then nothing here is even created and the hot
 * path pays nothing. What is measured: HTTP latency by route, model latency and tokens, retrieval
 * time, ingest runs, the PostgreSQL pool, and prom-client's process metrics (memory, CPU, event
 * loop lag). Features report through the small `Metrics` interface, never through prom-client.
 */
import type pg from 'pg'
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client'

export type ModelUsage = { seconds: number; ok: boolean; promptTokens?: number; completionTokens?: number }

export type Metrics = {
  registry: Registry
  http: (input: { method: string; route: string; status: number; seconds: number }) => void
  model: (usage: ModelUsage) => void
  retrieval: (seconds: number) => void
  /** An ingest (Drive today; the jobs of the library work later) ended with this outcome. */
  ingest: (outcome: 'done' | 'failed', seconds: number) => void
  /**
   * Reports how many ingests are in each state when scraped (e.g. { queued: 3, running: 1 }),
   * read from the database so every instance reports the same; a failed read leaves them out.
   */
  ingestJobs: (read: () => Promise<Record<string, number>>) => void
}

const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
const SLOW_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 30, 60]

export function createMetrics(input: { pool: pg.Pool | null }): Metrics {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry, prefix: 'docchat_' })

  const http = new Histogram({
    name: 'docchat_http_request_duration_seconds',
    help: 'Time from request to response, by route pattern (not the concrete URL)',
    labelNames: ['method', 'route', 'status_code'],
    buckets: HTTP_BUCKETS,
    registers: [registry],
  })
  const model = new Histogram({
    name: 'docchat_model_request_duration_seconds',
    help: 'Time the language model took per answer',
    labelNames: ['outcome'],
    buckets: SLOW_BUCKETS,
    registers: [registry],
  })
  const tokens = new Counter({
    name: 'docchat_model_tokens_total',
    help: 'Tokens the language model reported, by kind (prompt, completion)',
    labelNames: ['kind'],
    registers: [registry],
  })
  const retrieval = new Histogram({
    name: 'docchat_retrieval_duration_seconds',
    help: 'Time spent finding passages for one question',
    buckets: HTTP_BUCKETS,
    registers: [registry],
  })
  const ingest = new Histogram({
    name: 'docchat_ingest_duration_seconds',
    help: 'Time one ingest took, by outcome',
    labelNames: ['outcome'],
    buckets: SLOW_BUCKETS,
    registers: [registry],
  })
  const jobReaders: Array<() => Promise<Record<string, number>>> = []
  new Gauge({
    name: 'docchat_ingest_jobs',
    help: 'Background ingest jobs by state at scrape time (queued, running, retrying, stalled; failed: documents)',
    labelNames: ['state'],
    registers: [registry],
    async collect() {
      this.reset()
      for (const read of jobReaders) {
        const counts = await read().catch(() => ({}))
        for (const [state, count] of Object.entries(counts)) this.inc({ state }, count)
      }
    },
  })
  const { pool } = input
  if (pool) {
    new Gauge({
      name: 'docchat_db_pool_connections',
      help: 'PostgreSQL pool connections by state (total, idle, waiting requests)',
      labelNames: ['state'],
      registers: [registry],
      collect() {
        this.set({ state: 'total' }, pool.totalCount)
        this.set({ state: 'idle' }, pool.idleCount)
        this.set({ state: 'waiting' }, pool.waitingCount)
      },
    })
  }

  return {
    registry,
    http: ({ method, route, status, seconds }) =>
      http.observe({ method, route, status_code: String(status) }, seconds),
    model: ({ seconds, ok, promptTokens, completionTokens }) => {
      model.observe({ outcome: ok ? 'ok' : 'failed' }, seconds)
      if (promptTokens) tokens.inc({ kind: 'prompt' }, promptTokens)
      if (completionTokens) tokens.inc({ kind: 'completion' }, completionTokens)
    },
    retrieval: (seconds) => retrieval.observe(seconds),
    ingest: (outcome, seconds) => ingest.observe({ outcome }, seconds),
    ingestJobs: (read) => {
      jobReaders.push(read)
    },
  }
}
