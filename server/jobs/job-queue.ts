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
import type { FastifyBaseLogger } from 'fastify'
import { coalesced } from '../db/coalesced.ts'
import type { Db } from '../db/database.ts'
import {
  createJobsRepository,
  enqueueJob,
  type Job,
  type JobsRepository,
  type NewJob,
} from './jobs-repository.ts'
import { LocalRuns } from './local-runs.ts'

// The queue's own types and statements, for whoever queues jobs without the worker (a sync's transaction).
export { enqueueJob, enqueueJobs, type Job, makeJobDue, type NewJob } from './jobs-repository.ts'

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

export function createJobQueue(options: JobQueueOptions): JobQueue {
  return new JobQueue(options)
}

export class JobQueue {
  readonly workerId = `${process.pid}-${randomUUID().slice(0, 8)}`
  /** One person's jobs running at once, on every instance together. */
  readonly perPerson: number
  readonly #db: Db
  readonly #now: () => Date
  readonly #log: FastifyBaseLogger
  readonly #concurrency: number
  readonly #leaseMs: number
  readonly #pollMs: number
  readonly #jobs: JobsRepository
  readonly #handlers = new Map<string, JobHandler>()
  /** Told of every job whose handler finished it (not of retries, nor of unforeseen failures). */
  readonly #doneListeners: ((job: Job) => void)[] = []
  readonly #runs = new LocalRuns()
  #timer: NodeJS.Timeout | undefined
  #soon: NodeJS.Timeout | undefined
  #started = false
  #stopping = false
  #looking: Promise<void> | undefined
  #lookAgain = false

  constructor(options: JobQueueOptions) {
    this.#db = options.db
    this.#now = options.now
    this.#log = options.log
    this.#concurrency = options.concurrency ?? DEFAULT_CONCURRENCY
    this.perPerson = options.perPerson ?? DEFAULT_PER_PERSON
    this.#leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS
    this.#pollMs = options.pollMs ?? DEFAULT_POLL_MS
    this.#jobs = createJobsRepository(options.db, this.workerId)
  }

  #leaseEnd(): Date {
    return new Date(this.#now().getTime() + this.#leaseMs)
  }

  /**
   * Claims up to `limit` due jobs of the kinds this worker runs, in turns across people: first who
   * has due jobs and how many of theirs run under a live lease anywhere (one small aggregate),
   * then each person's oldest due jobs, as many as their turns and `perPerson` give them, in one
   * update. Two plain statements: the one-statement version (window functions over a lateral
   * join) cost more to plan than to run, at every claim.
   */
  async #claim(limit: number): Promise<Job[]> {
    const kinds = [...this.#handlers.keys()]
    if (kinds.length === 0 || limit <= 0) return []
    const at = this.#now().toISOString()
    const people = await this.#jobs.duePeople(kinds, at)
    const shares = turns(
      people.map((p) => ({
        userId: p.userId,
        wants: Math.min(p.due, this.perPerson - p.running),
        running: p.running,
      })),
      limit,
    )
    if (shares.length === 0) return []
    return this.#jobs.claim(shares, kinds, at, this.#leaseEnd())
  }

  /**
   * Jobs done in the same turn (a writer's transaction finishes many at once) are deleted by one
   * statement.
   */
  readonly #deleteDone = coalesced(async (ids: string[]) => {
    await this.#jobs.deleteHeld(ids)
    return ids.map(() => undefined)
  })

  async #settle(job: Job, outcome: JobOutcome): Promise<void> {
    if ('done' in outcome) {
      await this.#deleteDone(job.id)
      return
    }
    await this.#jobs.putBack(job.id, outcome.error, new Date(this.#now().getTime() + outcome.retryInMs))
  }

  async #run(job: Job): Promise<void> {
    const handler = this.#handlers.get(job.kind)
    const heartbeat = setInterval(
      () => {
        this.#jobs
          .renewLease(job.id, this.#leaseEnd())
          .catch((error: unknown) =>
            this.#log.warn({ event: 'jobs.heartbeat-failed', jobId: job.id, err: error }),
          )
      },
      Math.max(10, Math.floor(this.#leaseMs / 3)),
    )
    try {
      const outcome = handler
        ? await handler(job)
        : ({ retryInMs: this.#leaseMs, error: `no handler for ${job.kind}` } as const)
      await this.#settle(job, outcome)
      if ('done' in outcome) for (const listener of this.#doneListeners) listener(job)
    } catch (error) {
      // A handler throws only for what it did not foresee (it records foreseen failures itself):
      // logged, and the job dropped rather than run again and again.
      this.#log.error(
        { event: 'jobs.failed', jobId: job.id, kind: job.kind, err: error },
        'A background job failed',
      )
      await this.#settle(job, { done: true }).catch(() => undefined)
    } finally {
      clearInterval(heartbeat)
    }
  }

  /** Claims what there is room for and starts it; looks again when a job ends. */
  async #lookForWork(): Promise<void> {
    if (this.#stopping) return
    for (const job of await this.#claim(this.#concurrency - this.#runs.size)) {
      this.#runs.add(job, this.#run(job), () => this.#wakeSoon())
    }
  }

  /**
   * After a job ends: a claim a moment later takes the room of every job that ended meanwhile
   * (jobs end in groups, as the writer commits them together), rather than one claim per job;
   * the claim is the queue's costliest statement. New work (an enqueue) wakes the worker at once.
   */
  #wakeSoon(): void {
    if (this.#soon || this.#stopping) return
    this.#soon = setTimeout(() => {
      this.#soon = undefined
      this.wake()
    }, CLAIM_DELAY_MS)
    this.#soon.unref()
  }

  /** Wakes the worker: call after queueing jobs inside a transaction of one's own. */
  readonly wake = (): void => {
    if (!this.#started || this.#stopping) return
    if (this.#looking) {
      this.#lookAgain = true
      return
    }
    this.#looking = this.#lookForWork()
      .catch((error: unknown) =>
        this.#log.warn({ event: 'jobs.claim-failed', err: error }, 'Could not claim jobs'),
      )
      .finally(() => {
        this.#looking = undefined
        if (this.#lookAgain) {
          this.#lookAgain = false
          this.wake()
        }
      })
  }

  /** Runs `handler` for every job of this kind this worker claims. */
  handle(kind: string, handler: JobHandler): void {
    this.#handlers.set(kind, handler)
  }

  /** Calls `listener` after each job this worker finished (e.g. to embed what it indexed). */
  onDone(listener: (job: Job) => void): void {
    this.#doneListeners.push(listener)
  }

  /** Queues a job (see enqueueJob) and wakes this worker. */
  async enqueue(job: NewJob, runAt = this.#now()): Promise<boolean> {
    const queued = await enqueueJob(this.#db, job, runAt)
    if (queued) this.wake()
    return queued
  }

  start(): void {
    if (this.#started) return
    this.#started = true
    this.#timer = setInterval(this.wake, this.#pollMs)
    this.#timer.unref()
    this.wake()
  }

  /** Claims nothing more and waits for the jobs under way (their leases end with them). */
  async stop(): Promise<void> {
    this.#stopping = true
    if (this.#timer) clearInterval(this.#timer)
    if (this.#soon) clearTimeout(this.#soon)
    await this.#looking
    await Promise.allSettled(this.#runs.all())
  }

  /** Jobs of these kinds still queued or running for `userId` (any instance's). */
  pending(userId: string, kinds: readonly string[]): Promise<number> {
    return this.#jobs.pending(userId, kinds)
  }

  /** How many of the person's jobs have ended on this worker so far: a mark for waitForJobs. */
  endedFor(userId: string): number {
    return this.#runs.endedFor(userId)
  }

  /**
   * Waits `ms` at most, less when this worker's last running job of the person ends (or has ended
   * since `mark`, from endedFor, with none of theirs left running here): a caller waiting for a
   * person's jobs looks again as soon as there may be none left, without asking the database
   * after each job. Jobs on other instances are seen only when the wait runs out.
   */
  waitForJobs(userId: string, mark: number, ms: number): Promise<void> {
    return this.#runs.waitForJobs(userId, mark, ms)
  }

  /** How many jobs this worker runs right now. */
  get active(): number {
    return this.#runs.size
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
