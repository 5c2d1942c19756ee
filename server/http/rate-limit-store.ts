/**
 * A store for @fastify/rate-limit backed by the database (D34), so the library keeps its
 * logic (limits, Retry-After, the 429) while the counts live where every app instance sees them
 * and no flood of other keys can evict one. Times come from the app's injected clock.
 */
import type { RateLimitRepository } from './rate-limit-repository.ts'

type Result = { current: number; ttl: number }
type Callback = (error: Error | null, result?: Result) => void

/** How often (by the app's clock) counters whose window has ended are deleted. */
export const SWEEP_EVERY_MS = 60_000

/** The class @fastify/rate-limit's `store` option wants: `new Store(options)`, then `child()`. */
export function databaseRateLimitStore(counters: RateLimitRepository, now: () => Date) {
  let lastSweep = 0

  async function sweepNow(at: Date): Promise<void> {
    if (at.getTime() - lastSweep < SWEEP_EVERY_MS) return
    lastSweep = at.getTime()
    await counters.deleteEnded(at)
  }

  return class DatabaseRateLimitStore {
    incr(key: string, callback: Callback, timeWindow: number): void {
      const at = now()
      counters
        .increment(key, timeWindow, at)
        .then(async (counter) => {
          await sweepNow(at)
          return counter
        })
        .then(
          (counter) =>
            callback(null, { current: counter.count, ttl: counter.windowEndsAt.getTime() - at.getTime() }),
          (error: Error) => callback(error),
        )
    }

    read(key: string, callback: Callback): void {
      const at = now()
      counters.read(key, at).then(
        (counter) =>
          callback(
            null,
            counter
              ? { current: counter.count, ttl: counter.windowEndsAt.getTime() - at.getTime() }
              : { current: 0, ttl: 0 },
          ),
        (error: Error) => callback(error),
      )
    }

    /** Keys carry their limit's name (rate-limits.ts), so every route can share one store. */
    child(): DatabaseRateLimitStore {
      return this
    }
  }
}
