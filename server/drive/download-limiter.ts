/**
 * How many downloads from one person's Drive run at once (D92). Drive's quota is per user and
 * per project, and Google says how close it is only by refusing (429, or 403 with a rate-limit
 * reason), so the window works like TCP's congestion window: it starts small, doubles while Google
 * answers (one more per download that succeeds), and halves when Google says to slow down, after
 * which it grows by one per window's worth of successes. It never passes `max` (the person's jobs
 * running at once could not use more).
 *
 * Like TCP's, a window is kept while it is idle, and starts afresh only after a while without any
 * download (RESTART_AFTER_IDLE_MS): within one sync a person's downloads drain for moments while
 * their files are read and written, and starting from 4 at each of those moments held a first
 * sync at Google's latency to a window of 16 or less, each download waiting ~100 ms for its turn
 * (D98).
 */

export const DOWNLOADS_AT_FIRST = 4
/** A window idle this long is forgotten: the person's next download starts from DOWNLOADS_AT_FIRST. */
export const RESTART_AFTER_IDLE_MS = 30_000

type Window = {
  limit: number
  active: number
  waiting: (() => void)[]
  slowStart: boolean
  /** When its last download ended, while none runs or waits; null while any does. */
  idleSince: number | null
}

export type DownloadLimiter = ReturnType<typeof createDownloadLimiter>

export function createDownloadLimiter({
  max,
  start = DOWNLOADS_AT_FIRST,
  now,
}: {
  max: number
  start?: number
  /** The app's clock, in milliseconds. */
  now: () => number
}) {
  const windows = new Map<string, Window>()

  const stale = (window: Window, at: number) =>
    window.idleSince !== null && at - window.idleSince >= RESTART_AFTER_IDLE_MS

  function windowOf(userId: string): Window {
    let window = windows.get(userId)
    if (!window || stale(window, now())) {
      window = { limit: Math.min(start, max), active: 0, waiting: [], slowStart: true, idleSince: null }
      windows.set(userId, window)
    }
    window.idleSince = null
    return window
  }

  function release(window: Window): void {
    window.active--
    while (window.waiting.length > 0 && window.active < Math.floor(window.limit)) {
      window.active++
      window.waiting.shift()?.()
    }
    if (window.active > 0 || window.waiting.length > 0) return
    const at = now()
    window.idleSince = at
    // The windows of people whose downloads are long over go (one entry each, at most, meanwhile).
    for (const [userId, other] of windows) if (stale(other, at)) windows.delete(userId)
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
        release(window)
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
    limit(userId: string): number {
      const window = windows.get(userId)
      return Math.floor(window && !stale(window, now()) ? window.limit : Math.min(start, max))
    },
  }
}
