/**
 * The jobs running on this worker, by person: how many run now, how many have ended so far, and
 * callers waiting for a person's jobs here to end (the ingest call, JobQueue.waitForJobs).
 */
import type { Job } from './jobs-repository.ts'

export class LocalRuns {
  readonly #running = new Map<string, Promise<void>>()
  /** How many jobs of each person run here now, and how many have ended here so far. */
  readonly #runningBy = new Map<string, number>()
  readonly #ended = new Map<string, number>()
  readonly #endWaiters = new Set<{ userId: string; wake: () => void }>()

  get size(): number {
    return this.#running.size
  }

  all(): Iterable<Promise<void>> {
    return this.#running.values()
  }

  /** Tracks `promise` as `job`'s run; `ended` is called once it settles. */
  add(job: Job, promise: Promise<void>, ended: () => void): void {
    this.#running.set(
      job.id,
      promise.finally(() => {
        this.#end(job)
        ended()
      }),
    )
    this.#runningBy.set(job.userId, (this.#runningBy.get(job.userId) ?? 0) + 1)
  }

  #end(job: Job): void {
    this.#running.delete(job.id)
    const left = (this.#runningBy.get(job.userId) ?? 1) - 1
    if (left > 0) this.#runningBy.set(job.userId, left)
    else this.#runningBy.delete(job.userId)
    this.#ended.set(job.userId, (this.#ended.get(job.userId) ?? 0) + 1)
    if (left === 0) for (const waiter of this.#endWaiters) if (waiter.userId === job.userId) waiter.wake()
  }

  /** How many of the person's jobs have ended on this worker so far: a mark for waitForJobs. */
  endedFor(userId: string): number {
    return this.#ended.get(userId) ?? 0
  }

  /**
   * Waits `ms` at most, less when this worker's last running job of the person ends (or has ended
   * since `mark`, from endedFor, with none of theirs left running here).
   */
  waitForJobs(userId: string, mark: number, ms: number): Promise<void> {
    if ((this.#ended.get(userId) ?? 0) > mark && !this.#runningBy.has(userId)) return Promise.resolve()
    return new Promise((resolve) => {
      const waiter = {
        userId,
        wake: () => {
          clearTimeout(timeout)
          this.#endWaiters.delete(waiter)
          resolve()
        },
      }
      const timeout = setTimeout(waiter.wake, ms)
      this.#endWaiters.add(waiter)
    })
  }
}
