/**
 * Readiness and metrics (D40): /api/v1/ready follows the database and the shutdown; /metrics
 * is off by default, open with METRICS=1, bearer-only with METRICS_TOKEN, and reports what the
 * app did (HTTP by route pattern, retrieval, the model's latency and tokens).
 */
import { eq } from 'drizzle-orm'
import { afterEach, expect, test } from 'vitest'
import { authEndpoints, healthEndpoint } from '#contracts/auth.ts'
import { METRICS_PATH, readyEndpoint } from '#contracts/operations.ts'
import type { App } from '#server/app.ts'
import { loadConfig } from '#server/config.ts'
import { jobs, libraryDocuments } from '#server/db/schema.ts'
import { indexDocument } from '#server/documents/index/index-document.ts'
import { INGEST_JOB_STATES } from '#server/jobs/job-stats-repository.ts'
import {
  DATABASE_DOWN_MESSAGE,
  METRICS_OFF_MESSAGE,
  SHUTTING_DOWN_MESSAGE,
} from '#server/operations/operations-routes.ts'
import { startFakeLlm } from '#tests/fakes/openai-compatible.ts'
import { createConversation, sendOk } from '../support/chat-helpers.ts'
import { buildTestApp, register, signIn, signUpAndSignIn, uniqueEmail } from '../support/helper.ts'

const TOKEN = 'metrics-token-0123456789'
const cleanups: Array<() => Promise<unknown>> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function appWith(env: Record<string, string> = {}): Promise<App> {
  const app = await buildTestApp({ env })
  cleanups.push(() => app.close())
  return app
}

const ready = (app: App) => app.inject({ method: readyEndpoint.method, url: readyEndpoint.path })
const scrape = (app: App, authorization?: string) =>
  app.inject({ method: 'GET', url: METRICS_PATH, headers: authorization ? { authorization } : {} })

test('ready answers 200 while the database answers; health stays as it is', async () => {
  const app = await appWith()
  const response = await ready(app)
  expect(response.statusCode).toBe(200)
  expect(readyEndpoint.response.parse(response.json())).toEqual({ status: 'ready' })
  expect(response.headers['cache-control']).toBe('no-store')
  const health = await app.inject({ method: 'GET', url: healthEndpoint.path })
  expect(health.json()).toEqual({ status: 'ok' })
})

test('ready answers 503 with a sentence when the database is gone', async () => {
  const app = await appWith()
  await app.database.close()
  const response = await ready(app)
  expect(response.statusCode).toBe(503)
  expect(response.json()).toEqual({ success: false, message: DATABASE_DOWN_MESSAGE })
  // Liveness does not depend on the database: the process is up, it just cannot serve.
  expect((await app.inject({ method: 'GET', url: healthEndpoint.path })).statusCode).toBe(200)
})

test('ready answers 503 once shutting down has begun, and the shutdown signal fires', async () => {
  const app = await appWith()
  expect(app.shutdown.aborted).toBe(false)
  app.beginShutdown()
  expect(app.shutdown.aborted).toBe(true)
  const response = await ready(app)
  expect(response.statusCode).toBe(503)
  expect(response.json()).toEqual({ success: false, message: SHUTTING_DOWN_MESSAGE })
})

test('metrics are off by default: 404 with a sentence, and no metrics object', async () => {
  const app = await appWith()
  expect(app.metrics).toBeNull()
  const response = await scrape(app)
  expect(response.statusCode).toBe(404)
  expect(response.json()).toEqual({ success: false, message: METRICS_OFF_MESSAGE })
})

test('METRICS=1: Prometheus text with HTTP latency by route pattern and process metrics', async () => {
  const app = await appWith({ METRICS: '1' })
  const cookie = await signUpAndSignIn(app)
  await app.inject({ method: 'GET', url: authEndpoints.me.path, headers: { cookie } })
  const response = await scrape(app)
  expect(response.statusCode).toBe(200)
  expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/)
  const text = response.body
  expect(text).toMatch(
    /docchat_http_request_duration_seconds_count\{method="GET",route="\/api\/v1\/auth\/me",status_code="200"\} 1\b/,
  )
  expect(text).toMatch(
    /docchat_http_request_duration_seconds_count\{method="POST",route="\/api\/v1\/auth\/login",status_code="200"\} 1\b/,
  )
  expect(text).toMatch(/^docchat_process_resident_memory_bytes \d+/m)
  expect(text).toMatch(/^docchat_ingest_jobs\{state="running"\} 0$/m)
})

test('METRICS=1: ingest jobs by state, read from the jobs table (every instance on the database sees the same)', async () => {
  // The app's one clock: leases and retries are judged against it, whatever the date.
  const at = new Date()
  const app = await buildTestApp({ env: { METRICS: '1' }, now: () => at })
  cleanups.push(() => app.close())
  const userId = (await register(app, uniqueEmail('jobs')))._id
  const later = new Date(at.getTime() + 60_000)
  const earlier = new Date(at.getTime() - 60_000)
  // A kind no worker handles, so the rows stay as written while the test scrapes.
  const job = (key: string, extra: Partial<typeof jobs.$inferInsert> = {}) => ({
    kind: 'metrics-test',
    key,
    userId,
    runAt: earlier,
    ...extra,
  })
  await app.db
    .insert(jobs)
    .values([
      job('queued-1'),
      job('queued-2'),
      job('running', { attempts: 1, lockedBy: 'worker-a', lockedUntil: later }),
      job('retrying', { attempts: 2, runAt: later, lastError: 'Google is busy' }),
      job('stalled', { attempts: 1, lockedBy: 'worker-dead', lockedUntil: earlier }),
    ])
  await app.db.insert(libraryDocuments).values([
    {
      userId,
      source: 'upload',
      externalId: 'a',
      name: 'a.pdf',
      mimeType: 'application/pdf',
      status: 'failed',
    },
    {
      userId,
      source: 'upload',
      externalId: 'b',
      name: 'b.pdf',
      mimeType: 'application/pdf',
      status: 'ready',
    },
  ])

  const text = (await scrape(app)).body
  const count = (state: string) =>
    Number(text.match(new RegExp(`^docchat_ingest_jobs\\{state="${state}"\\} (\\d+)$`, 'm'))?.[1])
  expect(INGEST_JOB_STATES.map((state) => [state, count(state)])).toEqual([
    ['queued', 2],
    ['running', 1],
    ['retrying', 1],
    ['stalled', 1],
    ['failed', 1],
  ])

  // Work done leaves the table, and the figures follow at the next scrape.
  await app.db.delete(jobs).where(eq(jobs.kind, 'metrics-test'))
  const after = (await scrape(app)).body
  expect(after).toMatch(/^docchat_ingest_jobs\{state="queued"\} 0$/m)
  expect(after).toMatch(/^docchat_ingest_jobs\{state="running"\} 0$/m)
})

test('METRICS_TOKEN: only the bearer token gets the metrics', async () => {
  const app = await appWith({ METRICS_TOKEN: TOKEN })
  const missing = await scrape(app)
  expect(missing.statusCode).toBe(401)
  expect(missing.headers['www-authenticate']).toBe('Bearer')
  expect(missing.json().message).toMatch(/METRICS_TOKEN/)
  expect((await scrape(app, `Bearer ${TOKEN}x`)).statusCode).toBe(401)
  expect((await scrape(app, TOKEN)).statusCode).toBe(401)
  const allowed = await scrape(app, `Bearer ${TOKEN}`)
  expect(allowed.statusCode).toBe(200)
  expect(allowed.body).toContain('docchat_http_request_duration_seconds')
})

test('a short METRICS_TOKEN or a METRICS that is not 0/1 stops the start with a message', () => {
  expect(() => loadConfig({ DATABASE_URL: 'memory:', METRICS_TOKEN: 'short' })).toThrow(
    /METRICS_TOKEN: METRICS_TOKEN must be at least 16 characters/,
  )
  expect(() => loadConfig({ DATABASE_URL: 'memory:', METRICS: 'yes' })).toThrow(/METRICS: METRICS must be 1/)
})

test('an answer records retrieval time and the model latency and tokens', async () => {
  const llm = await startFakeLlm()
  cleanups.push(() => llm.close())
  const app = await appWith({
    METRICS: '1',
    LLM_BASE_URL: llm.baseUrl,
    LLM_API_KEY: 'sk-test',
    LLM_MODEL: 'test-model',
  })
  const email = uniqueEmail()
  const userId = (await register(app, email))._id
  const { cookie } = await signIn(app, email)
  await indexDocument(app.db, {
    userId,
    source: 'test',
    externalId: 'travel',
    name: 'Travel policy.pdf',
    mimeType: 'application/pdf',
    sections: [{ page: 2, text: 'The daily meal allowance abroad is 45 euros.' }],
  })
  llm.reply({ kind: 'text', text: 'It is 45 euros [1].' })
  const conversation = await createConversation(app, cookie, 'Travel')
  await sendOk(app, cookie, conversation._id, 'What is the daily meal allowance abroad?')
  const text = (await scrape(app)).body
  expect(text).toMatch(/^docchat_retrieval_duration_seconds_count 1$/m)
  expect(text).toMatch(/^docchat_model_request_duration_seconds_count\{outcome="ok"\} 1$/m)
  expect(text).toMatch(/^docchat_model_tokens_total\{kind="prompt"\} [1-9]/m)
  expect(text).toMatch(/^docchat_model_tokens_total\{kind="completion"\} [1-9]/m)
})
