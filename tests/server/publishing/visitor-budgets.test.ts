/**
 * Visitor budgets (issue 37, D119) on the app's own database: each budget admits exactly what
 * it allows under 100 parallel asks, tokens refuse once spent, one answer at a time per visitor,
 * PUBLISHED_CONCURRENCY answers at once per assistant (places freed on finish, or when a lease
 * expires), windows that roll over with the injected clock, and, on PostgreSQL, two app
 * instances sharing one count.
 */
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { Budgets } from '#contracts/publishing.ts'
import type { App } from '#server/app.ts'
import { type BudgetsRepository, createBudgetsRepository } from '#server/publishing/budgets-repository.ts'
import type { Admission, VisitorBudgets } from '#server/publishing/visitor-budgets.ts'
import {
  BUSY_RETRY_SECONDS,
  createVisitorBudgets,
  PUBLISHED_ANSWER_LEASE_MS,
  type VisitorBudgetsDeps,
  visitorBudgetsOn,
} from '#server/publishing/visitor-budgets-service.ts'
import { createUsageRepository } from '#server/usage/usage-repository.ts'
import { createAssistantOk } from '../support/assistant-helpers.ts'
import { buildTestApp, register, signIn, uniqueEmail } from '../support/helper.ts'
import {
  createTestDatabase,
  POSTGRES_SKIP_NOTE,
  TEST_DATABASE_URL,
  type TestDatabase,
} from '../support/postgres-test-db.ts'

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR
const ROOMY: Budgets = {
  answersPerDay: 100_000,
  tokensPerDay: 100_000_000,
  visitorAnswersPerHour: 100_000,
  visitorAnswersPerDay: 100_000,
}

let app: App

beforeAll(async () => {
  app = await buildTestApp()
})
afterAll(async () => {
  await app?.close()
})

/**
 * A clock the test moves: today (UTC, whatever day the run falls on) at 10:05, so the next hour
 * is 55 minutes away and midnight 13 h 55 min.
 */
function testClock() {
  let at = Math.floor(Date.now() / DAY) * DAY + 10 * HOUR + 5 * MINUTE
  return {
    now: () => new Date(at),
    advance: (ms: number) => {
      at += ms
    },
  }
}

async function ownerWithAssistants(target: App, count = 1) {
  const email = uniqueEmail('budgets')
  await register(target, email)
  const { cookie, user } = await signIn(target, email)
  const assistants: string[] = []
  for (let i = 0; i < count; i++) {
    assistants.push((await createAssistantOk(target, cookie, { name: `Published ${i + 1}` }))._id)
  }
  return { ownerId: user._id, assistantId: assistants[0] ?? '', assistants }
}

type Clock = ReturnType<typeof testClock>

function budgetsOn(target: App, clock: Clock, limits: Partial<VisitorBudgetsDeps> = {}): VisitorBudgets {
  return createVisitorBudgets({
    db: target.db,
    now: clock.now,
    publishedConcurrency: 1000,
    usageTokensPerDay: 0,
    busyWaitMs: 0,
    ...limits,
  })
}

type Who = { ownerId: string; assistantId: string }

const ask = (budgets: VisitorBudgets, who: Who, visitorKey: string, b: Budgets) =>
  budgets.admit({ ownerId: who.ownerId, assistantId: who.assistantId, visitorKey, budgets: b })

const admitted = (list: Admission[]) => list.filter((a) => a.kind === 'admitted')
const reasons = (list: Admission[]) => [
  ...new Set(list.flatMap((a) => (a.kind === 'refused' ? [a.reason] : []))),
]

/** Asks, and once admitted finishes at once; a visitor told they are busy asks again. */
async function askUntilAnswered(budgets: VisitorBudgets, who: Who, visitorKey: string, b: Budgets) {
  for (;;) {
    const admission = await ask(budgets, who, visitorKey, b)
    if (admission.kind === 'admitted') {
      await admission.finish(0)
      return admission
    }
    if (admission.reason !== 'visitor-busy') return admission
  }
}

test("the assistant's answers a day: 100 parallel asks at the edge admit exactly the budget, the rest until midnight", async () => {
  const clock = testClock()
  const who = await ownerWithAssistants(app)
  const budgets = budgetsOn(app, clock)
  const b = { ...ROOMY, answersPerDay: 40 }
  // 3 asked earlier: 37 places left for 100 visitors asking at once.
  for (const v of ['early-1', 'early-2', 'early-3']) await askUntilAnswered(budgets, who, v, b)

  const results = await Promise.all(Array.from({ length: 100 }, (_, i) => ask(budgets, who, `v${i}`, b)))

  expect(admitted(results)).toHaveLength(37)
  expect(reasons(results)).toEqual(['assistant-answers'])
  const refused = results.find((r) => r.kind === 'refused')
  expect(refused).toMatchObject({ retryAfterSeconds: 13 * 3600 + 55 * 60 })
})

test("a visitor's answers an hour: 100 parallel asks by one visitor are answered exactly that many times", async () => {
  const clock = testClock()
  const who = await ownerWithAssistants(app)
  const budgets = budgetsOn(app, clock)
  const b = { ...ROOMY, visitorAnswersPerHour: 6 }

  const results = await Promise.all(
    Array.from({ length: 100 }, () => askUntilAnswered(budgets, who, 'one-visitor', b)),
  )

  expect(admitted(results)).toHaveLength(6)
  expect(reasons(results)).toEqual(['visitor-hour'])
  expect(results.find((r) => r.kind === 'refused')).toMatchObject({ retryAfterSeconds: 55 * 60 })
  // Another visitor has their own hour.
  expect((await ask(budgets, who, 'another-visitor', b)).kind).toBe('admitted')
})

test("a visitor's answers a day: 100 parallel asks by one visitor are answered exactly that many times", async () => {
  const clock = testClock()
  const who = await ownerWithAssistants(app)
  const budgets = budgetsOn(app, clock)
  const b = { ...ROOMY, visitorAnswersPerDay: 9 }

  const results = await Promise.all(
    Array.from({ length: 100 }, () => askUntilAnswered(budgets, who, 'daily-visitor', b)),
  )

  expect(admitted(results)).toHaveLength(9)
  expect(reasons(results)).toEqual(['visitor-day'])
  expect(results.find((r) => r.kind === 'refused')).toMatchObject({ retryAfterSeconds: 13 * 3600 + 55 * 60 })
})

test("the assistant's tokens a day: refused once what answers spent reaches the budget; other assistants go on", async () => {
  const clock = testClock()
  const who = await ownerWithAssistants(app, 2)
  const budgets = budgetsOn(app, clock)
  const b = { ...ROOMY, tokensPerDay: 1000 }

  const first = await ask(budgets, who, 'v1', b)
  if (first.kind !== 'admitted') throw new Error('refused the first ask')
  await first.finish(600)
  const second = await ask(budgets, who, 'v2', b)
  if (second.kind !== 'admitted') throw new Error('refused at 600 of 1000 tokens')
  await second.finish(400)

  expect(await ask(budgets, who, 'v3', b)).toEqual({
    kind: 'refused',
    reason: 'assistant-tokens',
    retryAfterSeconds: 13 * 3600 + 55 * 60,
  })
  const other = { ownerId: who.ownerId, assistantId: who.assistants[1] ?? '' }
  expect((await ask(budgets, other, 'v3', b)).kind).toBe('admitted')
})

test("the owner's tokens a day count every source and every assistant of theirs; 0 is no limit", async () => {
  const clock = testClock()
  const who = await ownerWithAssistants(app, 2)
  const budgets = budgetsOn(app, clock, { usageTokensPerDay: 1000 })
  const usage = createUsageRepository(app.db)

  const first = await ask(budgets, who, 'v1', ROOMY)
  if (first.kind !== 'admitted') throw new Error('refused the first ask')
  await first.finish(700)
  await usage.record({
    userId: who.ownerId,
    day: clock.now().toISOString().slice(0, 10),
    source: 'app',
    answers: 1,
    tokens: 300,
  })

  const other = { ownerId: who.ownerId, assistantId: who.assistants[1] ?? '' }
  expect(await ask(budgets, other, 'v2', ROOMY)).toMatchObject({ kind: 'refused', reason: 'owner-tokens' })
  expect((await ask(budgetsOn(app, clock, { usageTokensPerDay: 0 }), other, 'v2', ROOMY)).kind).toBe(
    'admitted',
  )
  expect(await usage.tokensOn(who.ownerId, clock.now().toISOString().slice(0, 10))).toBe(1000)
})

test('one answer at a time per visitor: a second ask is busy until the first finishes; others are answered', async () => {
  const clock = testClock()
  const who = await ownerWithAssistants(app)
  const budgets = budgetsOn(app, clock)

  const first = await ask(budgets, who, 'ada', ROOMY)
  expect(first.kind).toBe('admitted')
  expect(await ask(budgets, who, 'ada', ROOMY)).toEqual({
    kind: 'refused',
    reason: 'visitor-busy',
    retryAfterSeconds: BUSY_RETRY_SECONDS,
  })
  expect((await ask(budgets, who, 'grace', ROOMY)).kind).toBe('admitted')

  if (first.kind === 'admitted') await first.finish(10)
  expect((await ask(budgets, who, 'ada', ROOMY)).kind).toBe('admitted')
})

test('PUBLISHED_CONCURRENCY answers at once: 100 parallel asks admit exactly that many; a finish frees a place', async () => {
  const clock = testClock()
  const who = await ownerWithAssistants(app)
  const budgets = budgetsOn(app, clock, { publishedConcurrency: 3 })

  const results = await Promise.all(Array.from({ length: 100 }, (_, i) => ask(budgets, who, `v${i}`, ROOMY)))

  const running = admitted(results)
  expect(running).toHaveLength(3)
  expect(reasons(results)).toEqual(['assistant-busy'])
  expect(results.find((r) => r.kind === 'refused')).toMatchObject({ retryAfterSeconds: BUSY_RETRY_SECONDS })
  expect((await ask(budgets, who, 'late', ROOMY)).kind).toBe('refused')
  await running[0]?.finish(0)
  expect((await ask(budgets, who, 'late', ROOMY)).kind).toBe('admitted')
})

test('a full assistant makes the ask wait briefly: a place freed meanwhile answers it, none refuses it after the wait', async () => {
  const clock = testClock()
  const who = await ownerWithAssistants(app)
  const budgets = budgetsOn(app, clock, { publishedConcurrency: 1, busyWaitMs: 1500 })
  const running = await ask(budgets, who, 'first', ROOMY)
  if (running.kind !== 'admitted') throw new Error('refused the first ask')

  const waiting = ask(budgets, who, 'second', ROOMY)
  await new Promise((resolve) => setTimeout(resolve, 300))
  await running.finish(0)
  const second = await waiting
  expect(second.kind).toBe('admitted')

  const started = performance.now()
  expect(await ask(budgets, who, 'third', ROOMY)).toMatchObject({ kind: 'refused', reason: 'assistant-busy' })
  expect(performance.now() - started).toBeGreaterThanOrEqual(1400)
})

test('asks waiting for a full assistant stand in one line: only the first asks the database again, and a place freed here goes to the longest waiting', async () => {
  const clock = testClock()
  const who = await ownerWithAssistants(app)
  const real = createBudgetsRepository(app.db)
  let asked = 0
  const counted: BudgetsRepository = {
    ...real,
    admit(windows, decide) {
      asked += 1
      return real.admit(windows, decide)
    },
  }
  const budgets = visitorBudgetsOn(counted, {
    now: clock.now,
    publishedConcurrency: 1,
    usageTokensPerDay: 0,
    busyWaitMs: 1200,
  })
  const running = await ask(budgets, who, 'running', ROOMY)
  if (running.kind !== 'admitted') throw new Error('refused the first ask')
  const first = ask(budgets, who, 'first-in-line', ROOMY)
  await expect.poll(() => asked).toBe(2)
  const crowd = Array.from({ length: 20 }, (_, i) => ask(budgets, who, `crowd-${i}`, ROOMY))

  await new Promise((resolve) => setTimeout(resolve, 600))
  // Polling each on its own, 21 waiting asks would have asked ~6 times each by now (over 120).
  expect(asked).toBeLessThan(2 + 20 + 10)
  const settled = new Set<number>()
  for (const [i, admission] of crowd.entries()) {
    void admission.then(() => settled.add(i))
  }
  await running.finish(0)
  // The place goes to the ask that waited longest, not to whichever of the crowd polled first.
  const firstAdmission = await first
  expect(firstAdmission.kind).toBe('admitted')
  expect(settled.size).toBe(0)

  if (firstAdmission.kind === 'admitted') await firstAdmission.finish(0)
  const rest = await Promise.all(crowd)
  expect(admitted(rest).length).toBeGreaterThanOrEqual(1)
  expect(reasons(rest)).toEqual(['assistant-busy'])
})

test("an answer never finished (its instance died) holds its places only until its lease expires on the app's clock", async () => {
  const clock = testClock()
  const who = await ownerWithAssistants(app)
  const budgets = budgetsOn(app, clock, { publishedConcurrency: 1 })
  expect((await ask(budgets, who, 'lost', ROOMY)).kind).toBe('admitted')

  clock.advance(PUBLISHED_ANSWER_LEASE_MS - 1000)
  expect(await ask(budgets, who, 'next', ROOMY)).toMatchObject({ reason: 'assistant-busy' })
  expect(await ask(budgets, who, 'lost', ROOMY)).toMatchObject({ reason: 'visitor-busy' })

  clock.advance(1000)
  expect((await ask(budgets, who, 'lost', ROOMY)).kind).toBe('admitted')
})

test("windows roll over with the app's clock: the next UTC hour and the next UTC day", async () => {
  const clock = testClock()
  const who = await ownerWithAssistants(app)
  const budgets = budgetsOn(app, clock)
  const b = { ...ROOMY, answersPerDay: 3, tokensPerDay: 50, visitorAnswersPerHour: 2 }

  await askUntilAnswered(budgets, who, 'ada', b)
  await askUntilAnswered(budgets, who, 'ada', b)
  expect(await ask(budgets, who, 'ada', b)).toMatchObject({
    reason: 'visitor-hour',
    retryAfterSeconds: 55 * 60,
  })
  clock.advance(55 * MINUTE - 1000)
  expect(await ask(budgets, who, 'ada', b)).toMatchObject({ reason: 'visitor-hour', retryAfterSeconds: 1 })
  clock.advance(1000)
  const third = await ask(budgets, who, 'ada', b)
  if (third.kind !== 'admitted') throw new Error('refused in the next hour')
  await third.finish(50)

  expect(await ask(budgets, who, 'grace', b)).toMatchObject({ reason: 'assistant-tokens' })
  clock.advance(12 * HOUR)
  expect(await ask(budgets, who, 'grace', b)).toMatchObject({
    reason: 'assistant-tokens',
    retryAfterSeconds: 3600,
  })
  clock.advance(HOUR)
  expect((await ask(budgets, who, 'grace', b)).kind).toBe('admitted')
})

test('two instances (two services on one database) share one count', async () => {
  const clock = testClock()
  const who = await ownerWithAssistants(app)
  const one = budgetsOn(app, clock)
  const two = budgetsOn(app, clock)
  const b = { ...ROOMY, answersPerDay: 25 }

  const results = await Promise.all(
    Array.from({ length: 100 }, (_, i) => ask(i % 2 === 0 ? one : two, who, `v${i}`, b)),
  )

  expect(admitted(results)).toHaveLength(25)
})

test.skipIf(!TEST_DATABASE_URL)(
  `on PostgreSQL: two app instances on one database admit exactly the budget and the places at once${POSTGRES_SKIP_NOTE}`,
  async () => {
    const database: TestDatabase = await createTestDatabase()
    const env = { DATABASE_URL: database.url }
    const [a, b] = await Promise.all([buildTestApp({ env }), buildTestApp({ env })])
    try {
      if (!a || !b) throw new Error('no instances')
      const clock = testClock()
      const who = await ownerWithAssistants(a)
      const budget = { ...ROOMY, answersPerDay: 30 }
      const onA = budgetsOn(a, clock, { publishedConcurrency: 12 })
      const onB = budgetsOn(b, clock, { publishedConcurrency: 12 })

      const running = await Promise.all(
        Array.from({ length: 100 }, (_, i) => ask(i % 2 === 0 ? onA : onB, who, `v${i}`, budget)),
      )
      expect(admitted(running)).toHaveLength(12)
      await Promise.all(admitted(running).map((r) => r.finish(0)))

      const rest = await Promise.all(
        Array.from({ length: 100 }, (_, i) => ask(i % 2 === 0 ? onB : onA, who, `w${i}`, budget)),
      )
      expect(admitted(rest)).toHaveLength(12)
      await Promise.all(admitted(rest).map((r) => r.finish(0)))
      const last = await Promise.all(
        Array.from({ length: 100 }, (_, i) => ask(i % 2 === 0 ? onA : onB, who, `x${i}`, budget)),
      )
      expect(admitted(last)).toHaveLength(6)
      expect(reasons(last)).toEqual(['assistant-answers'])
    } finally {
      await Promise.all([a?.close(), b?.close()])
      await database.drop()
    }
  },
)

test('a crowd for one assistant asks the database one admission at a time per instance; another assistant is not held up', async () => {
  const who = await ownerWithAssistants(app, 2)
  const real = createBudgetsRepository(app.db)
  const inFlight = new Map<string, number>()
  const most = new Map<string, number>()
  const counted: BudgetsRepository = {
    ...real,
    async admit(windows, decide) {
      const now = (inFlight.get(windows.assistantId) ?? 0) + 1
      inFlight.set(windows.assistantId, now)
      most.set(windows.assistantId, Math.max(most.get(windows.assistantId) ?? 0, now))
      try {
        return await real.admit(windows, decide)
      } finally {
        inFlight.set(windows.assistantId, (inFlight.get(windows.assistantId) ?? 1) - 1)
      }
    },
  }
  const clock = testClock()
  const budgets = visitorBudgetsOn(counted, {
    now: clock.now,
    publishedConcurrency: 1000,
    usageTokensPerDay: 0,
    busyWaitMs: 0,
  })
  const [first, second] = who.assistants as [string, string]

  const results = await Promise.all(
    Array.from({ length: 30 }, (_, i) =>
      ask(budgets, { ownerId: who.ownerId, assistantId: i % 3 === 0 ? second : first }, `crowd-${i}`, ROOMY),
    ),
  )

  expect(admitted(results)).toHaveLength(30)
  // Each assistant's admissions took turns (the waiting ones held no connection); the two
  // assistants' ran side by side.
  expect(most.get(first)).toBe(1)
  expect(most.get(second)).toBe(1)
})
