/**
 * A person's window of Drive downloads at once (server/drive/download-limiter.ts, D92, D98): it
 * starts at 4, grows by one per download Google answers up to the person's jobs, halves when
 * Google asks to slow down, is kept through a moment without downloads and starts afresh only
 * after a while idle. Downloads here are promises the test settles; the clock is the test's.
 */
import { expect, test } from 'vitest'
import {
  createDownloadLimiter,
  DOWNLOADS_AT_FIRST,
  RESTART_AFTER_IDLE_MS,
} from '#server/drive/download-limiter.ts'

/** A download that ends when the test says so. */
function pending() {
  let finish = () => {}
  const done = new Promise<void>((resolve) => {
    finish = resolve
  })
  return { run: () => done, finish }
}

/** How many of `count` downloads started at once run before any of them ends. */
async function runningAtOnce(
  limiter: ReturnType<typeof createDownloadLimiter>,
  userId: string,
  count: number,
) {
  let started = 0
  const downloads = Array.from({ length: count }, () => pending())
  const runs = downloads.map((d) =>
    limiter.run(userId, () => {
      started++
      return d.run()
    }),
  )
  await Promise.resolve()
  const atOnce = started
  for (const d of downloads) d.finish()
  await Promise.all(runs)
  return atOnce
}

const ada = 'ada'

test('a window starts at 4 and grows by one per download answered, never past the person’s jobs', async () => {
  let clock = 0
  const limiter = createDownloadLimiter({ max: 6, now: () => clock })
  expect(limiter.limit(ada)).toBe(DOWNLOADS_AT_FIRST)
  expect(await runningAtOnce(limiter, ada, 10)).toBe(4)
  // Ten answered: 4 + 10, held at the person's 6 jobs.
  expect(limiter.limit(ada)).toBe(6)
  clock += 1000
  expect(await runningAtOnce(limiter, ada, 10)).toBe(6)
})

test('Google asking to slow down halves the window, after which it grows by one per window of answers', async () => {
  const limiter = createDownloadLimiter({ max: 32, now: () => 0 })
  await runningAtOnce(limiter, ada, 12) // 4 → 16
  const held = pending()
  const running = limiter.run(ada, held.run)
  limiter.slowDown(ada)
  expect(limiter.limit(ada)).toBe(8)
  held.finish()
  await running
  // One answer adds 1/8 now, not 1.
  expect(limiter.limit(ada)).toBe(8)
  expect(await runningAtOnce(limiter, ada, 8)).toBe(8)
  expect(limiter.limit(ada)).toBe(9)
})

test('a window is kept through a moment without downloads, and starts afresh only after a while idle', async () => {
  let clock = 0
  const limiter = createDownloadLimiter({ max: 32, now: () => clock })
  await runningAtOnce(limiter, ada, 20) // grown to 24; none runs now
  expect(limiter.limit(ada)).toBe(24)
  // A moment later (the person's files being read and written), the next downloads use it whole.
  clock += 500
  expect(await runningAtOnce(limiter, ada, 30)).toBe(24)
  // Idle for RESTART_AFTER_IDLE_MS: the next sync starts from 4 again.
  clock += RESTART_AFTER_IDLE_MS
  expect(limiter.limit(ada)).toBe(DOWNLOADS_AT_FIRST)
  expect(await runningAtOnce(limiter, ada, 10)).toBe(DOWNLOADS_AT_FIRST)
})

test('one person’s window is theirs: another person starts from 4 beside a grown one', async () => {
  const limiter = createDownloadLimiter({ max: 32, now: () => 0 })
  await runningAtOnce(limiter, ada, 20)
  expect(limiter.limit(ada)).toBe(24)
  expect(limiter.limit('grace')).toBe(DOWNLOADS_AT_FIRST)
  expect(await runningAtOnce(limiter, 'grace', 10)).toBe(DOWNLOADS_AT_FIRST)
})

test('a window that is busy does not go stale, however long its downloads take', async () => {
  let clock = 0
  const limiter = createDownloadLimiter({ max: 32, now: () => clock })
  await runningAtOnce(limiter, ada, 8) // 4 → 12
  const long = pending()
  const running = limiter.run(ada, long.run)
  clock += RESTART_AFTER_IDLE_MS * 3
  expect(limiter.limit(ada)).toBe(12)
  long.finish()
  await running
  expect(limiter.limit(ada)).toBe(13)
})
