/**
 * The durable job queue (server/jobs/job-queue.ts): several workers on one database run each job
 * exactly once; a job whose worker died is claimed again once its lease runs out (and not
 * before); a running job's lease is renewed so nobody takes it over; transient failures come back
 * after their backoff; the same key is queued once. On embedded PGlite always, and on a
 * PostgreSQL server (two connection pools, as two app instances) when TEST_DATABASE_URL is set.
 */
import { randomUUID } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import { count, eq } from 'drizzle-orm'
import { pino } from 'pino'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { type Database, openDatabase } from '#server/db/database.ts'
import { jobs, users } from '#server/db/schema.ts'
import { createJobQueue, type Job, type JobQueue, retryDelayMs, turns } from '#server/jobs/job-queue.ts'
import { testConfig } from '../support/helper.ts'

const log = pino({ level: 'silent' })
const postgresUrl = process.env.TEST_DATABASE_URL

type Target = { name: string; open: () => Promise<Database> }
const targets: Target[] = [{ name: 'PGlite', open: () => openDatabase(testConfig()) }]
if (postgresUrl)
  targets.push({ name: 'PostgreSQL', open: () => openDatabase(testConfig({ DATABASE_URL: postgresUrl })) })

const cleanup: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const close of cleanup.splice(0).reverse()) await close()
})

async function open(target: Target): Promise<Database> {
  const database = await target.open()
  cleanup.push(() => database.close())
  return database
}

async function newUser(database: Database): Promise<string> {
  const [user] = await database.db
    .insert(users)
    .values({ email: `jobs-${randomUUID()}@example.com`, passwordHash: 'x' })
    .returning({ id: users.id })
  if (!user) throw new Error('no user')
  return user.id
}

function queueOn(database: Database, options: Partial<Parameters<typeof createJobQueue>[0]> = {}): JobQueue {
  const queue = createJobQueue({ db: database.db, now: () => new Date(), log, pollMs: 20, ...options })
  cleanup.push(() => queue.stop())
  return queue
}

async function jobCount(database: Database, key?: string): Promise<number> {
  const query = database.db.select({ n: count() }).from(jobs)
  const [row] = await (key ? query.where(eq(jobs.key, key)) : query)
  return row?.n ?? 0
}

const until = (check: () => Promise<boolean> | boolean) =>
  vi.waitUntil(check, { timeout: 20_000, interval: 10 })

describe.each(targets)('on $name', (target) => {
  test('two workers (on PostgreSQL: two connection pools) run each of 40 jobs exactly once', async () => {
    const first = await open(target)
    // On PGlite one process holds the database: both workers share it. On PostgreSQL, two pools.
    const second = target.name === 'PGlite' ? first : await open(target)
    const userId = await newUser(first)
    const runs: string[] = []
    const handler = (worker: string) => async (job: Job) => {
      runs.push(`${worker}:${job.key}`)
      await sleep(5)
      return { done: true } as const
    }
    const a = queueOn(first, { concurrency: 3 })
    const b = queueOn(second, { concurrency: 3 })
    a.handle('test', handler('a'))
    b.handle('test', handler('b'))
    for (let i = 0; i < 40; i++) await a.enqueue({ kind: 'test', key: `job-${i}`, userId, payload: {} })
    a.start()
    b.start()

    await until(async () => (await jobCount(first)) === 0)

    const keys = runs.map((r) => r.split(':')[1])
    expect(keys).toHaveLength(40)
    expect(new Set(keys).size).toBe(40)
    expect(runs.some((r) => r.startsWith('a:'))).toBe(true)
    expect(runs.some((r) => r.startsWith('b:'))).toBe(true)
  })

  test("a dead worker's job is claimed again once its lease has run out, not before", async () => {
    const database = await open(target)
    const userId = await newUser(database)
    let clock = Date.now()
    const now = () => new Date(clock)
    const queue = queueOn(database, { now, leaseMs: 60_000 })
    const ran: Job[] = []
    queue.handle('test', async (job) => {
      ran.push(job)
      return { done: true }
    })
    // As a worker that claimed it and then died (kill -9) leaves it: held until a lease's end.
    await database.db.insert(jobs).values({
      kind: 'test',
      key: 'orphan',
      userId,
      payload: { n: 1 },
      runAt: now(),
      attempts: 1,
      lockedBy: 'dead-worker',
      lockedUntil: new Date(clock + 30_000),
    })
    queue.start()
    await sleep(150)
    expect(ran).toEqual([])

    clock += 31_000
    await until(() => ran.length === 1)

    expect(ran[0]).toMatchObject({ key: 'orphan', payload: { n: 1 }, attempts: 2 })
    await until(async () => (await jobCount(database)) === 0)
  })

  test("a running job's lease is renewed: a second worker never takes it over", async () => {
    const first = await open(target)
    const second = target.name === 'PGlite' ? first : await open(target)
    const userId = await newUser(first)
    const starts: string[] = []
    const slow = (worker: string) => async () => {
      starts.push(worker)
      await sleep(2500)
      return { done: true } as const
    }
    // Renewed every third of a second; without renewal the 1 s lease would run out 1.5 s before
    // the job ends, and b (polling every 20 ms) would take it.
    const a = queueOn(first, { leaseMs: 1000 })
    const b = queueOn(second, { leaseMs: 1000 })
    a.handle('test', slow('a'))
    a.start()
    await a.enqueue({ kind: 'test', key: 'long', userId, payload: {} })
    await until(() => starts.length === 1)
    b.handle('test', slow('b'))
    b.start()

    await until(async () => (await jobCount(first)) === 0)

    expect(starts).toEqual(['a'])
  })

  test('a transient failure comes back after its backoff, with the attempt counted', async () => {
    const database = await open(target)
    const userId = await newUser(database)
    let clock = Date.now()
    const queue = queueOn(database, { now: () => new Date(clock) })
    const attempts: number[] = []
    queue.handle('test', async (job) => {
      attempts.push(job.attempts)
      return job.attempts < 3 ? { retryInMs: retryDelayMs(job.attempts), error: 'busy' } : { done: true }
    })
    queue.start()
    await queue.enqueue({ kind: 'test', key: 'flaky', userId, payload: {} })
    await until(() => attempts.length === 1)
    await sleep(100)
    expect(attempts).toEqual([1])

    clock += retryDelayMs(1)
    await until(() => attempts.length === 2)
    clock += retryDelayMs(2)
    await until(() => attempts.length === 3)

    expect(attempts).toEqual([1, 2, 3])
    expect(retryDelayMs(1)).toBe(5_000)
    expect(retryDelayMs(2)).toBe(10_000)
    expect(retryDelayMs(20)).toBe(300_000)
    await until(async () => (await jobCount(database)) === 0)
  })

  test('the same key is queued once while it is pending', async () => {
    const database = await open(target)
    const userId = await newUser(database)
    const queue = queueOn(database)

    expect(await queue.enqueue({ kind: 'test', key: 'once', userId, payload: {} })).toBe(true)
    expect(await queue.enqueue({ kind: 'test', key: 'once', userId, payload: {} })).toBe(false)
    expect(await jobCount(database, 'once')).toBe(1)
    expect(await queue.pending(userId, ['test'])).toBe(1)
    // On PostgreSQL the tests share one database: leave no pending job for the next test's workers.
    await database.db.delete(jobs).where(eq(jobs.userId, userId))
  })

  test("people's jobs are claimed in turns, each person's capped: one person's backlog never makes another's job wait", async () => {
    const database = await open(target)
    const [ada, bob] = [await newUser(database), await newUser(database)]
    const started: string[] = []
    const running = new Map<string, number>()
    let most = 0
    const queue = queueOn(database, { concurrency: 3, perPerson: 2 })
    queue.handle('test', async (job) => {
      if (job.userId !== ada && job.userId !== bob) return { done: true }
      started.push(job.key)
      running.set(job.userId, (running.get(job.userId) ?? 0) + 1)
      most = Math.max(most, running.get(job.userId) ?? 0)
      await sleep(30)
      running.set(job.userId, (running.get(job.userId) ?? 0) - 1)
      return { done: true }
    })
    // Ada's eight files were queued first; Bob's one after them.
    for (let i = 0; i < 8; i++)
      await queue.enqueue({ kind: 'test', key: `ada-${i}`, userId: ada, payload: {} })
    await queue.enqueue({ kind: 'test', key: 'bob-0', userId: bob, payload: {} })
    queue.start()

    await until(async () => (await jobCount(database)) === 0)

    expect(started.indexOf('bob-0')).toBeLessThan(3)
    expect(most).toBeLessThanOrEqual(2)
    expect(new Set(started).size).toBe(9)
  })

  test("a wait for a person's jobs ends when their last job here ends, not at its time-out; another person's do not end it", async () => {
    const database = await open(target)
    const [ada, bob] = [await newUser(database), await newUser(database)]
    const release = new Map<string, () => void>()
    const queue = queueOn(database, { concurrency: 4 })
    queue.handle(
      'test',
      (job) => new Promise((resolve) => release.set(job.key, () => resolve({ done: true }))),
    )
    for (const key of ['ada-0', 'ada-1']) await queue.enqueue({ kind: 'test', key, userId: ada, payload: {} })
    await queue.enqueue({ kind: 'test', key: 'bob-0', userId: bob, payload: {} })
    queue.start()
    await until(() => release.size === 3)

    let ended = false
    const mark = queue.endedFor(ada)
    const waiting = queue.waitForJobs(ada, mark, 60_000).then(() => {
      ended = true
    })
    release.get('bob-0')?.()
    release.get('ada-0')?.()
    await until(async () => (await jobCount(database)) === 1)
    await sleep(50)
    // Bob's job and one of Ada's two ended: she still has one running here.
    expect(ended).toBe(false)
    release.get('ada-1')?.()
    await waiting
    expect(ended).toBe(true)
    expect(queue.endedFor(ada)).toBe(mark + 2)

    // Her last job ended before the wait began (after the mark): it does not wait at all.
    const started = performance.now()
    await queue.waitForJobs(ada, mark, 60_000)
    expect(performance.now() - started).toBeLessThan(1_000)
    // Nothing of hers ends: the wait lasts its time-out.
    const before = performance.now()
    await queue.waitForJobs(ada, queue.endedFor(ada), 100)
    expect(performance.now() - before).toBeGreaterThanOrEqual(90)
  })
})

test('turns share the free slots one at a time to whoever has the fewest jobs running', () => {
  expect(
    turns(
      [
        { userId: 'ada', wants: 10, running: 2 },
        { userId: 'bob', wants: 1, running: 0 },
        { userId: 'cy', wants: 3, running: 0 },
      ],
      4,
    ),
  ).toEqual([
    { userId: 'ada', take: 1 },
    { userId: 'bob', take: 1 },
    { userId: 'cy', take: 2 },
  ])
  expect(turns([{ userId: 'ada', wants: 0, running: 16 }], 8)).toEqual([])
})
