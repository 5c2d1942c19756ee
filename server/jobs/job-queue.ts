/**
 * Durable background jobs in the `jobs` table (D26), the same on embedded PGlite and on a
 * PostgreSQL server shared by several instances:
 * - enqueue: one row per piece of work, named by a unique key (queueing it again is a no-op);
 * - claim: `FOR UPDATE SKIP LOCKED` picks due jobs nobody holds (queued, or running under a lease
 *   that ran out because its process died) and stamps them with this worker and a lease;
 * - while a handler runs its lease is renewed; when it ends the job is deleted (done or failed for
 *   good: the handler records the outcome where people see it) or put back with a later `runAt`
 *   (a transient failure: Google busy or unreachable);
 * - the worker loop claims up to `concurrency` jobs, and is woken at once by a local enqueue.
 * Times come from the injected clock, so a test can let a lease run out.
 */
import { randomUUID } from 'node:crypto'
import { and, eq, inArray, sql } from 'drizzle-orm'
import type { FastifyBaseLogger } from 'fastify'
import type { Db } from '../db/database.ts'
import { queryRows } from '../db/query-rows.ts'
import { jobs } from '../db/schema.ts'

export type Job = {
  id: string
  kind: string
  key: string
  userId: string
  payload: Record<string, unknown>
  /** Claims so far, this one included. */
  attempts: number
}

export type NewJob = Omit<Job, 'id' | 'attempts'>

/** What a handler's run came to. */
export type JobOutcome = { done: true } | { retryInMs: number; error: string }

export type JobHandler = (job: Job) => Promise<JobOutcome>

export type JobQueueOptions = {
  db: Db
  now: () => Date
  log: FastifyBaseLogger
  /** Jobs run at once by this worker. */
  concurrency?: number
  /** How long a claim holds without renewal; a dead worker's job is claimed again after it. */
  leaseMs?: number
  /** How often an idle worker looks for due jobs (other instances' enqueues, retries coming due). */
  pollMs?: number
}

export const DEFAULT_LEASE_MS = 60_000
export const DEFAULT_POLL_MS = 1_000

/** Anything that can run a statement: the database or a transaction. */
type Executor = Pick<Db, 'insert' | 'execute'>

/** Queues `job` unless the same key is already queued or running; true when it was queued. */
export async function enqueueJob(db: Executor, job: NewJob, runAt: Date): Promise<boolean> {
  const rows = await db
    .insert(jobs)
    .values({ ...job, runAt })
    .onConflictDoNothing({ target: jobs.key })
    .returning({ id: jobs.id })
  return rows.length > 0
}

/** Rows per insert statement when many jobs are queued at once (well under the bind limit). */
const ENQUEUE_BATCH = 500

/**
 * Queues many jobs with one statement per ENQUEUE_BATCH (a sync queueing 500 files pays a few
 * statements, not 500); as enqueueJob, a key already queued is left alone.
 */
export async function enqueueJobs(db: Executor, batch: readonly NewJob[], runAt: Date): Promise<void> {
  for (let at = 0; at < batch.length; at += ENQUEUE_BATCH) {
    await db
      .insert(jobs)
      .values(batch.slice(at, at + ENQUEUE_BATCH).map((job) => ({ ...job, runAt })))
      .onConflictDoNothing({ target: jobs.key })
  }
}

export type JobQueue = ReturnType<typeof createJobQueue>

export function createJobQueue(options: JobQueueOptions) {
  const { db, now, log } = options
  const concurrency = options.concurrency ?? 4
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS
  const pollMs = options.pollMs ?? DEFAULT_POLL_MS
  const workerId = `${process.pid}-${randomUUID().slice(0, 8)}`
  const handlers = new Map<string, JobHandler>()
  /** Told of every job whose handler finished it (not of retries, nor of unforeseen failures). */
  const doneListeners: ((job: Job) => void)[] = []
  const running = new Map<string, Promise<void>>()
  let timer: NodeJS.Timeout | undefined
  let started = false
  let stopping = false
  let looking: Promise<void> | undefined
  let lookAgain = false

  const leaseEnd = () => new Date(now().getTime() + leaseMs)

  /** Claims up to `limit` due jobs of the kinds this worker runs. */
  async function claim(limit: number): Promise<Job[]> {
    const kinds = [...handlers.keys()]
    if (kinds.length === 0 || limit <= 0) return []
    const at = now()
    const rows = await queryRows<{
      id: string
      kind: string
      key: string
      user_id: string
      payload: Record<string, unknown>
      attempts: number
    }>(
      db,
      sql`
      update ${jobs} set
        locked_by = ${workerId},
        locked_until = ${leaseEnd().toISOString()}::timestamptz,
        attempts = ${jobs.attempts} + 1
      where ${jobs.id} in (
        select id from ${jobs}
        where kind in (${sql.join(
          kinds.map((k) => sql`${k}`),
          sql`, `,
        )})
          and run_at <= ${at.toISOString()}::timestamptz
          and (locked_until is null or locked_until < ${at.toISOString()}::timestamptz)
        order by run_at
        limit ${limit}
        for update skip locked
      )
      returning id, kind, key, user_id, payload, attempts`,
    )
    return rows.map((r) => ({
      id: r.id,
      kind: r.kind,
      key: r.key,
      userId: r.user_id,
      payload: r.payload,
      attempts: Number(r.attempts),
    }))
  }

  /** Only while this worker still holds it: a job whose lease ran out may belong to another now. */
  const mine = (id: string) => and(eq(jobs.id, id), eq(jobs.lockedBy, workerId))

  async function settle(job: Job, outcome: JobOutcome): Promise<void> {
    if ('done' in outcome) {
      await db.delete(jobs).where(mine(job.id))
      return
    }
    await db
      .update(jobs)
      .set({
        lockedBy: null,
        lockedUntil: null,
        lastError: outcome.error,
        runAt: new Date(now().getTime() + outcome.retryInMs),
      })
      .where(mine(job.id))
  }

  async function run(job: Job): Promise<void> {
    const handler = handlers.get(job.kind)
    const heartbeat = setInterval(
      () => {
        db.update(jobs)
          .set({ lockedUntil: leaseEnd() })
          .where(mine(job.id))
          .catch((error: unknown) => log.warn({ event: 'jobs.heartbeat-failed', jobId: job.id, err: error }))
      },
      Math.max(10, Math.floor(leaseMs / 3)),
    )
    try {
      const outcome = handler
        ? await handler(job)
        : ({ retryInMs: leaseMs, error: `no handler for ${job.kind}` } as const)
      await settle(job, outcome)
      if ('done' in outcome) for (const listener of doneListeners) listener(job)
    } catch (error) {
      // A handler throws only for what it did not foresee (it records foreseen failures itself):
      // logged, and the job dropped rather than run again and again.
      log.error(
        { event: 'jobs.failed', jobId: job.id, kind: job.kind, err: error },
        'A background job failed',
      )
      await settle(job, { done: true }).catch(() => undefined)
    } finally {
      clearInterval(heartbeat)
    }
  }

  /** Claims what there is room for and starts it; looks again when a job ends. */
  async function lookForWork(): Promise<void> {
    if (stopping) return
    const jobsFound = await claim(concurrency - running.size)
    for (const job of jobsFound) {
      const promise = run(job).finally(() => {
        running.delete(job.id)
        wake()
      })
      running.set(job.id, promise)
    }
  }

  function wake(): void {
    if (!started || stopping) return
    if (looking) {
      lookAgain = true
      return
    }
    looking = lookForWork()
      .catch((error: unknown) => log.warn({ event: 'jobs.claim-failed', err: error }, 'Could not claim jobs'))
      .finally(() => {
        looking = undefined
        if (lookAgain) {
          lookAgain = false
          wake()
        }
      })
  }

  return {
    workerId,

    /** Runs `handler` for every job of this kind this worker claims. */
    handle(kind: string, handler: JobHandler): void {
      handlers.set(kind, handler)
    },

    /** Calls `listener` after each job this worker finished (e.g. to embed what it indexed). */
    onDone(listener: (job: Job) => void): void {
      doneListeners.push(listener)
    },

    /** Queues a job (see enqueueJob) and wakes this worker. */
    async enqueue(job: NewJob, runAt = now()): Promise<boolean> {
      const queued = await enqueueJob(db, job, runAt)
      if (queued) wake()
      return queued
    },

    /** Wakes the worker: call after queueing jobs inside a transaction of one's own. */
    wake,

    start(): void {
      if (started) return
      started = true
      timer = setInterval(wake, pollMs)
      timer.unref()
      wake()
    },

    /** Claims nothing more and waits for the jobs under way (their leases end with them). */
    async stop(): Promise<void> {
      stopping = true
      if (timer) clearInterval(timer)
      await looking
      await Promise.allSettled(running.values())
    },

    /** Jobs of these kinds still queued or running for `userId` (any instance's). */
    async pending(userId: string, kinds: readonly string[]): Promise<number> {
      const rows = await db
        .select({ id: jobs.id })
        .from(jobs)
        .where(and(eq(jobs.userId, userId), inArray(jobs.kind, [...kinds])))
      return rows.length
    },

    /** How many jobs this worker runs right now. */
    get active(): number {
      return running.size
    },
  }
}

/** A retry's wait: 5 s doubling per attempt, capped at 5 minutes. */
export function retryDelayMs(attempts: number): number {
  return Math.min(5_000 * 2 ** Math.max(0, attempts - 1), 300_000)
}
