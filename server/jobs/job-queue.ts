/**
 * Durable background jobs in the `jobs` table (D26), the same on embedded PGlite and on a
 * PostgreSQL server shared by several instances:
 * - enqueue: one row per piece of work, named by a unique key (queueing it again is a no-op);
 * - claim: `FOR UPDATE SKIP LOCKED` picks due jobs nobody holds (queued, or running under a lease
 *   that ran out because its process died) and stamps them with this worker and a lease;
 * - while a handler runs its lease is renewed; when it ends the job is deleted (done or failed for
 *   good: the handler records the outcome where people see it) or put back with a later `runAt`
 *   (a transient failure: Google busy or unreachable);
 * - the worker loop claims up to `concurrency` jobs, and is woken at once by a local enqueue;
 * - claims take people in turns (D92): each person's oldest jobs, the people with the fewest jobs
 *   running first, and never more than `perPerson` of one person's jobs running at once on all
 *   instances together, so one person's thousand files never make another's one file wait.
 * Times come from the injected clock, so a test can let a lease run out.
 */
import { randomUUID } from 'node:crypto'
import { and, count, eq, inArray, sql } from 'drizzle-orm'
import type { FastifyBaseLogger } from 'fastify'
import { coalesced } from '../db/coalesced.ts'
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
  /** One person's jobs running at once, on every instance together. */
  perPerson?: number
  /** How long a claim holds without renewal; a dead worker's job is claimed again after it. */
  leaseMs?: number
  /** How often an idle worker looks for due jobs (other instances' enqueues, retries coming due). */
  pollMs?: number
}

export const DEFAULT_LEASE_MS = 60_000
export const DEFAULT_POLL_MS = 1_000
/**
 * Jobs run at once by one instance: a Drive file's job mostly waits (for Google, the reader, the
 * writer's next transaction), and the writer batches what arrives together, so many in flight is
 * what makes a first sync fast: a person's 16 left the server's thread idle a third of the time,
 * their jobs waiting in the writer's and the reader's queues (D97; bench/drive-sync.ts).
 */
export const DEFAULT_CONCURRENCY = 64
/** A person's jobs running at once: half the slots, so a second person always finds room at once. */
export const DEFAULT_PER_PERSON = 32
/**
 * How long after a job ends the next claim waits for others to end too. Each millisecond is a
 * slot left empty: at 50 ms a first sync at Google's latency had ~21 of a person's 32 jobs
 * running when one of them started (the median), at 20 ms ~27, and it ended ~13 % sooner; without
 * Google's latency the claims' own cost did not show (D98).
 */
const CLAIM_DELAY_MS = 20

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

/** Makes a queued job (by its key) due at `runAt`: one queued for later, now that it may run. */
export async function makeJobDue(db: Pick<Db, 'update'>, key: string, runAt: Date): Promise<void> {
  await db.update(jobs).set({ runAt }).where(eq(jobs.key, key))
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
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY
  const perPerson = options.perPerson ?? DEFAULT_PER_PERSON
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS
  const pollMs = options.pollMs ?? DEFAULT_POLL_MS
  const workerId = `${process.pid}-${randomUUID().slice(0, 8)}`
  const handlers = new Map<string, JobHandler>()
  /** Told of every job whose handler finished it (not of retries, nor of unforeseen failures). */
  const doneListeners: ((job: Job) => void)[] = []
  const running = new Map<string, Promise<void>>()
  /** How many jobs of each person run here now, and how many have ended here so far. */
  const runningBy = new Map<string, number>()
  const ended = new Map<string, number>()
  /** Callers waiting for a person's jobs here to end (waitForJobs). */
  const endWaiters = new Set<{ userId: string; wake: () => void }>()
  let timer: NodeJS.Timeout | undefined
  let started = false
  let stopping = false
  let looking: Promise<void> | undefined
  let lookAgain = false

  const leaseEnd = () => new Date(now().getTime() + leaseMs)

  /**
   * Claims up to `limit` due jobs of the kinds this worker runs, in turns across people: first who
   * has due jobs and how many of theirs run under a live lease anywhere (one small aggregate),
   * then each person's oldest due jobs, as many as their turns and `perPerson` give them, in one
   * update. Two plain statements: the one-statement version (window functions over a lateral
   * join) cost more to plan than to run, at every claim.
   */
  async function claim(limit: number): Promise<Job[]> {
    const kinds = [...handlers.keys()]
    if (kinds.length === 0 || limit <= 0) return []
    const at = now().toISOString()
    const kindList = sql.join(
      kinds.map((k) => sql`${k}`),
      sql`, `,
    )
    const due = sql`run_at <= ${at}::timestamptz and (locked_until is null or locked_until < ${at}::timestamptz)`
    const people = await queryRows<{ user_id: string; due: number; running: number }>(
      db,
      sql`
      select user_id, (count(*) filter (where ${due}))::int as due,
        (count(*) filter (where locked_until >= ${at}::timestamptz))::int as running
      from ${jobs} where kind in (${kindList})
      group by user_id having count(*) filter (where ${due}) > 0`,
    )
    const shares = turns(
      people.map((p) => ({
        userId: p.user_id,
        wants: Math.min(Number(p.due), perPerson - Number(p.running)),
        running: Number(p.running),
      })),
      limit,
    )
    if (shares.length === 0) return []
    // One `in (…)` per person, not a UNION of them: PostgreSQL allows no FOR UPDATE under a UNION.
    const picks = sql.join(
      shares.map(
        ({ userId, take }) => sql`${jobs.id} in (
          select id from ${jobs} where user_id = ${userId} and kind in (${kindList}) and ${due}
          order by run_at, id limit ${take} for update skip locked)`,
      ),
      sql` or `,
    )
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
      where ${picks}
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

  /**
   * Jobs done in the same turn (a writer's transaction finishes many at once) are deleted by one
   * statement.
   */
  const deleteDone = coalesced(async (ids: string[]) => {
    await db.delete(jobs).where(and(inArray(jobs.id, ids), eq(jobs.lockedBy, workerId)))
    return ids.map(() => undefined)
  })

  async function settle(job: Job, outcome: JobOutcome): Promise<void> {
    if ('done' in outcome) {
      await deleteDone(job.id)
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
        const left = (runningBy.get(job.userId) ?? 1) - 1
        if (left > 0) runningBy.set(job.userId, left)
        else runningBy.delete(job.userId)
        ended.set(job.userId, (ended.get(job.userId) ?? 0) + 1)
        if (left === 0) for (const waiter of endWaiters) if (waiter.userId === job.userId) waiter.wake()
        wakeSoon()
      })
      running.set(job.id, promise)
      runningBy.set(job.userId, (runningBy.get(job.userId) ?? 0) + 1)
    }
  }

  /**
   * After a job ends: a claim a moment later takes the room of every job that ended meanwhile
   * (jobs end in groups, as the writer commits them together), rather than one claim per job;
   * the claim is the queue's costliest statement. New work (an enqueue) wakes the worker at once.
   */
  let soon: NodeJS.Timeout | undefined
  function wakeSoon(): void {
    if (soon || stopping) return
    soon = setTimeout(() => {
      soon = undefined
      wake()
    }, CLAIM_DELAY_MS)
    soon.unref()
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
      if (soon) clearTimeout(soon)
      await looking
      await Promise.allSettled(running.values())
    },

    /** Jobs of these kinds still queued or running for `userId` (any instance's). */
    async pending(userId: string, kinds: readonly string[]): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(jobs)
        .where(and(eq(jobs.userId, userId), inArray(jobs.kind, [...kinds])))
      return row?.n ?? 0
    },

    /** How many of the person's jobs have ended on this worker so far: a mark for waitForJobs. */
    endedFor(userId: string): number {
      return ended.get(userId) ?? 0
    },

    /**
     * Waits `ms` at most, less when this worker's last running job of the person ends (or has ended
     * since `mark`, from endedFor, with none of theirs left running here): a caller waiting for a
     * person's jobs looks again as soon as there may be none left, without asking the database
     * after each job. Jobs on other instances are seen only when the wait runs out.
     */
    waitForJobs(userId: string, mark: number, ms: number): Promise<void> {
      if ((ended.get(userId) ?? 0) > mark && !runningBy.has(userId)) return Promise.resolve()
      return new Promise((resolve) => {
        const waiter = {
          userId,
          wake: () => {
            clearTimeout(timeout)
            endWaiters.delete(waiter)
            resolve()
          },
        }
        const timeout = setTimeout(waiter.wake, ms)
        endWaiters.add(waiter)
      })
    },

    /** How many jobs this worker runs right now. */
    get active(): number {
      return running.size
    },

    /** One person's jobs running at once, on every instance together. */
    perPerson,
  }
}

/**
 * Shares `limit` slots out in turns: one at a time, to whoever then has the fewest jobs running
 * (counting the slots given this time) among those who want more; ties go to the earlier.
 */
export function turns(
  people: readonly { userId: string; wants: number; running: number }[],
  limit: number,
): { userId: string; take: number }[] {
  const shares = people.filter((p) => p.wants > 0).map((p) => ({ ...p, take: 0 }))
  for (let slots = limit; slots > 0; slots--) {
    let next: (typeof shares)[number] | undefined
    for (const person of shares) {
      if (person.take >= person.wants) continue
      if (!next || person.running + person.take < next.running + next.take) next = person
    }
    if (!next) break
    next.take++
  }
  return shares.filter((p) => p.take > 0).map(({ userId, take }) => ({ userId, take }))
}

/** A retry's wait: 5 s doubling per attempt, capped at 5 minutes. */
export function retryDelayMs(attempts: number): number {
  return Math.min(5_000 * 2 ** Math.max(0, attempts - 1), 300_000)
}
