/**
 * The VisitorBudgets port (visitor-budgets.ts) on the database (D119). Each ask reads the counts
 * and takes its places in one locked transaction (budgets-repository.ts); what the counts allow
 * is decided here. A full assistant (PUBLISHED_CONCURRENCY answers at once) makes the ask wait
 * up to BUSY_WAIT_MS for a place before it is refused as busy; every other refusal is at once.
 * Windows are UTC hours and days of the injected clock.
 * Admissions for one assistant take turns in this process before they ask the database: the
 * assistant's lock lets one through at a time anyway, and a crowd waiting on it inside
 * transactions held every connection of the pool, so the owner's own calls and the admitted
 * answers queued behind them (bench/widget, D122). Across instances the lock still decides.
 * Asks that find the assistant full wait in one line per assistant in this process: only the
 * first asks the database again (every BUSY_POLL_MS, for places freed by other instances), a place
 * freed here wakes it at once, and the next follows when it leaves. A crowd of waiting asks
 * therefore costs the database one ask per poll, not one per waiting visitor.
 */
import { createHash } from 'node:crypto'
import type { Budgets } from '../../contracts/publishing.ts'
import type { Db } from '../db/database.ts'
import { DAY_MS, dayStart, HOUR_MS, hourStart, secondsUntil, utcDay } from '../usage/utc-windows.ts'
import {
  type BudgetCounts,
  type BudgetsRepository,
  type BudgetWindows,
  createBudgetsRepository,
} from './budgets-repository.ts'
import type { Admission, AdmitInput, RefusalReason, VisitorBudgets } from './visitor-budgets.ts'

/**
 * How long a visitor's answer holds its places at most. Released when it finishes; the lease only
 * matters when an instance dies mid-answer (as the chat's ANSWER_LEASE_MS).
 */
export const PUBLISHED_ANSWER_LEASE_MS = 5 * 60_000
/** How long an ask waits for one of the assistant's places before it is told the assistant is busy. */
export const BUSY_WAIT_MS = 2000
export const BUSY_POLL_MS = 100
/** Retry-After for "busy": an answer takes seconds, and its places free the moment it ends. */
export const BUSY_RETRY_SECONDS = 5
/** How often (by the app's clock) ended windows and expired leases are deleted, per instance. */
export const SWEEP_EVERY_MS = 60_000
/** The assistants' own days kept (for the owner's per-day figures); visitors' windows go once ended. */
export const ASSISTANT_DAYS_KEPT = 35

export type Limits = {
  /** PUBLISHED_CONCURRENCY. */
  publishedConcurrency: number
  /** USAGE_TOKENS_PER_DAY; 0: no limit. */
  usageTokensPerDay: number
}

export type VisitorBudgetsDeps = Limits & {
  db: Db
  now: () => Date
  /** Tests shorten the wait for a place; BUSY_WAIT_MS when absent. */
  busyWaitMs?: number
  leaseMs?: number
}

/**
 * Which budget refuses an ask, or null when every one allows it. A budget of 0 allows nothing;
 * daily ones are named before hourly ones, and "busy" last, so the wait named is the longest.
 */
export function refusalFor(counts: BudgetCounts, budgets: Budgets, limits: Limits): RefusalReason | null {
  if (limits.usageTokensPerDay > 0 && counts.ownerTokensToday >= limits.usageTokensPerDay)
    return 'owner-tokens'
  if (counts.assistantTokensToday >= budgets.tokensPerDay) return 'assistant-tokens'
  if (counts.assistantAnswersToday >= budgets.answersPerDay) return 'assistant-answers'
  if (counts.visitorAnswersToday >= budgets.visitorAnswersPerDay) return 'visitor-day'
  if (counts.visitorAnswersThisHour >= budgets.visitorAnswersPerHour) return 'visitor-hour'
  if (counts.visitorAnswering) return 'visitor-busy'
  if (counts.answersAtOnce >= limits.publishedConcurrency) return 'assistant-busy'
  return null
}

/** Seconds until the window that refused frees (a few for busy). */
export function retryAfterSeconds(reason: RefusalReason, at: Date): number {
  switch (reason) {
    case 'visitor-hour':
      return secondsUntil(at, new Date(hourStart(at).getTime() + HOUR_MS))
    case 'visitor-busy':
    case 'assistant-busy':
      return BUSY_RETRY_SECONDS
    default:
      return secondsUntil(at, new Date(dayStart(at).getTime() + DAY_MS))
  }
}

/** Runs each key's work one after another in this process; different keys run side by side. */
export function oneAtATime() {
  const tails = new Map<string, Promise<void>>()
  return async function turn<T>(key: string, work: () => Promise<T>): Promise<T> {
    const result = (tails.get(key) ?? Promise.resolve()).then(work)
    const tail = result.then(
      () => undefined,
      () => undefined,
    )
    tails.set(key, tail)
    try {
      return await result
    } finally {
      if (tails.get(key) === tail) tails.delete(key)
    }
  }
}

type Place = { wake: (() => void) | null }

/** Per key, the asks waiting for a place in arrival order; only the first polls. */
export function waitingLines() {
  const lines = new Map<string, Place[]>()
  const wakeFirst = (key: string) => lines.get(key)?.[0]?.wake?.()
  return {
    /** Someone is already waiting: a new ask goes behind them rather than past them. */
    busy: (key: string) => (lines.get(key)?.length ?? 0) > 0,
    join(key: string): Place {
      const place: Place = { wake: null }
      lines.set(key, [...(lines.get(key) ?? []), place])
      return place
    },
    /** Leaves the line; the new first is woken to ask at once (a place may be free). */
    leave(key: string, place: Place) {
      const line = lines.get(key) ?? []
      const index = line.indexOf(place)
      if (index < 0) return
      line.splice(index, 1)
      if (line.length === 0) lines.delete(key)
      else if (index === 0) wakeFirst(key)
    },
    /** Waits until woken or, first in line, for one poll; otherwise until `leftMs` runs out. */
    wait(key: string, place: Place, leftMs: number, pollMs: number): Promise<void> {
      const ms = lines.get(key)?.[0] === place ? Math.min(pollMs, leftMs) : leftMs
      return new Promise((resolve) => {
        const done = () => {
          clearTimeout(timer)
          place.wake = null
          resolve()
        }
        const timer = setTimeout(done, ms)
        place.wake = done
      })
    },
    /** A place was freed in this process: the first in line asks now. */
    released: wakeFirst,
  }
}

function visitorHash(visitorKey: string): string {
  return createHash('sha256').update(`visitor:${visitorKey}`).digest('hex')
}

export function createVisitorBudgets(deps: VisitorBudgetsDeps): VisitorBudgets {
  const repository = createBudgetsRepository(deps.db)
  return visitorBudgetsOn(repository, deps)
}

export function visitorBudgetsOn(
  repository: BudgetsRepository,
  deps: Omit<VisitorBudgetsDeps, 'db'>,
): VisitorBudgets {
  const waitMs = deps.busyWaitMs ?? BUSY_WAIT_MS
  const leaseMs = deps.leaseMs ?? PUBLISHED_ANSWER_LEASE_MS
  let lastSweep = Number.NEGATIVE_INFINITY
  const turn = oneAtATime()
  const lines = waitingLines()

  async function sweep(at: Date): Promise<void> {
    if (at.getTime() - lastSweep < SWEEP_EVERY_MS) return
    lastSweep = at.getTime()
    await repository.sweep(at, dayStart(at), new Date(dayStart(at).getTime() - ASSISTANT_DAYS_KEPT * DAY_MS))
  }

  async function tryOnce(input: AdmitInput, at: Date) {
    const windows = {
      ownerId: input.ownerId,
      assistantId: input.assistantId,
      visitorHash: visitorHash(input.visitorKey),
      now: at,
      day: utcDay(at),
      dayStart: dayStart(at),
      hourStart: hourStart(at),
      leaseUntil: new Date(at.getTime() + leaseMs),
    }
    const outcome = await turn(input.assistantId, () =>
      repository.admit(windows, (counts) => refusalFor(counts, input.budgets, deps)),
    )
    return { windows, outcome }
  }

  function admitted(windows: BudgetWindows, leaseId: string): Admission {
    let finished = false
    return {
      kind: 'admitted',
      async finish(tokens: number) {
        if (finished) return
        finished = true
        const spent = Number.isFinite(tokens) ? Math.max(0, Math.round(tokens)) : 0
        await repository.finish({ ...windows, leaseId, tokens: spent })
        lines.released(windows.assistantId)
      },
    }
  }

  return {
    async admit(input: AdmitInput): Promise<Admission> {
      const deadline = performance.now() + waitMs
      const key = input.assistantId
      let place = lines.busy(key) && waitMs > 0 ? lines.join(key) : null
      try {
        if (place) await lines.wait(key, place, waitMs, BUSY_POLL_MS)
        for (;;) {
          const at = deps.now()
          await sweep(at)
          const { windows, outcome } = await tryOnce(input, at)
          if ('leaseId' in outcome) return admitted(windows, outcome.leaseId)
          const reason = outcome.refused
          const leftMs = deadline - performance.now()
          if (reason !== 'assistant-busy' || leftMs <= 0) {
            return { kind: 'refused', reason, retryAfterSeconds: retryAfterSeconds(reason, at) }
          }
          place ??= lines.join(key)
          await lines.wait(key, place, leftMs, BUSY_POLL_MS)
        }
      } finally {
        if (place) lines.leave(key, place)
      }
    },
  }
}
