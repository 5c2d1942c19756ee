/**
 * How many downloads from one person's Drive run at once (D92). Drive's quota is per user and
 * per project, and Google says how close it is only by refusing (429, or 403 with a rate-limit
 * reason), so the window works like TCP's congestion window: it starts small, doubles while Google
 * answers (one more per download that succeeds), and halves when Google says to slow down, after
 * which it grows by one per window's worth of successes. It never passes `max` (the person's jobs
 * running at once could not use more).
 */

export const DOWNLOADS_AT_FIRST = 4

type Window = { limit: number; active: number; waiting: (() => void)[]; slowStart: boolean }

export type DownloadLimiter = ReturnType<typeof createDownloadLimiter>

export function createDownloadLimiter({ max, start = DOWNLOADS_AT_FIRST }: { max: number; start?: number }) {
  const windows = new Map<string, Window>()

  function windowOf(userId: string): Window {
    let window = windows.get(userId)
    if (!window) {
      window = { limit: Math.min(start, max), active: 0, waiting: [], slowStart: true }
      windows.set(userId, window)
    }
    return window
  }

  function release(userId: string, window: Window): void {
    window.active--
    while (window.waiting.length > 0 && window.active < Math.floor(window.limit)) {
      window.active++
      window.waiting.shift()?.()
    }
    // A person whose downloads are over starts afresh next time (a sync an hour later).
    if (window.active === 0 && window.waiting.length === 0) windows.delete(userId)
  }

  return {
    /** Runs one download of this person's within their window. */
    async run<T>(userId: string, download: () => Promise<T>): Promise<T> {
      const window = windowOf(userId)
      if (window.active < Math.floor(window.limit)) window.active++
      else await new Promise<void>((resolve) => window.waiting.push(resolve))
      try {
        const result = await download()
        window.limit = Math.min(max, window.limit + (window.slowStart ? 1 : 1 / window.limit))
        return result
      } finally {
        release(userId, window)
      }
    },

    /** Google asked to slow down (the download itself is retried with backoff by the Drive API). */
    slowDown(userId: string): void {
      const window = windows.get(userId)
      if (!window) return
      window.slowStart = false
      window.limit = Math.max(1, window.limit / 2)
    },

    /** This person's window now (how many downloads may run at once). */
    limit: (userId: string): number => Math.floor(windows.get(userId)?.limit ?? Math.min(start, max)),
  }
}
