/**
 * A person's usage (issue 38, D126): every answer records what it spent (model tokens, reported
 * or estimated, and one answer) against the person, the UTC day of the app's clock and its source
 * ('app', 'api', 'published'); the app's and the API's answers are refused once the person's
 * tokens today, every source together, reach USAGE_TOKENS_PER_DAY. The counts live in the
 * database (usage_days), so every instance reads the same day.
 */
import type { UsageBySource, UsageDay, UsageReport, UsageSource } from '#contracts/usage.ts'
import { DailyTokensSpent } from './usage-errors.ts'
import type { UsageRepository } from './usage-repository.ts'
import { DAY_MS, dayStart, secondsUntil, utcDay } from './utc-windows.ts'

export type AnswerUsage = {
  ownerId: string
  source: UsageSource
  /** The assistant that answered, when one did (usage_days counts per person and source). */
  assistantId?: string | null
  promptTokens: number
  completionTokens: number
}

/** What the chat (and the API) ask of usage: the daily hold before an answer, the record after. */
export type UsageMeter = {
  /** Refuses (DailyTokensSpent) a person whose tokens today reached USAGE_TOKENS_PER_DAY. */
  checkDailyTokens(ownerId: string): Promise<void>
  recordAnswer(answer: AnswerUsage): Promise<void>
}

type Deps = { rows: UsageRepository; now: () => Date; tokensPerDay: number }

const zero = () => ({ tokens: 0, answers: 0 })
const emptySources = (): UsageBySource => ({ app: zero(), api: zero(), published: zero() })

/** A count as a whole, non-negative number (a model may report nonsense; NaN is nothing). */
const whole = (n: number) => (Number.isFinite(n) ? Math.max(0, Math.round(n)) : 0)

export class UsageService implements UsageMeter {
  readonly #rows: UsageRepository
  readonly #now: () => Date
  readonly #tokensPerDay: number

  constructor({ rows, now, tokensPerDay }: Deps) {
    this.#rows = rows
    this.#now = now
    this.#tokensPerDay = tokensPerDay
  }

  async checkDailyTokens(ownerId: string): Promise<void> {
    if (this.#tokensPerDay <= 0) return
    const at = this.#now()
    if ((await this.#rows.tokensOn(ownerId, utcDay(at))) < this.#tokensPerDay) return
    throw new DailyTokensSpent(secondsUntil(at, new Date(dayStart(at).getTime() + DAY_MS)))
  }

  async recordAnswer({ ownerId, source, promptTokens, completionTokens }: AnswerUsage): Promise<void> {
    const tokens = whole(promptTokens) + whole(completionTokens)
    await this.#rows.record({ userId: ownerId, day: utcDay(this.#now()), source, answers: 1, tokens })
  }

  /** The last `days` UTC days (today last, every day present) and this month so far. */
  async report(ownerId: string, days: number): Promise<UsageReport> {
    const today = dayStart(this.#now())
    const first = new Date(today.getTime() - (days - 1) * DAY_MS)
    const monthStart = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), 1))
    const from = first < monthStart ? first : monthStart
    const rows = await this.#rows.days(ownerId, utcDay(from))
    const perDay = new Map<string, UsageBySource>()
    for (let t = first.getTime(); t <= today.getTime(); t += DAY_MS)
      perDay.set(utcDay(new Date(t)), emptySources())
    const month = emptySources()
    const monthFrom = utcDay(monthStart)
    for (const row of rows) {
      const add = (into: UsageBySource) => {
        into[row.source].tokens += Number(row.tokens)
        into[row.source].answers += row.answers
      }
      const day = perDay.get(row.day)
      if (day) add(day)
      if (row.day >= monthFrom) add(month)
    }
    const list: UsageDay[] = [...perDay].map(([day, sources]) => ({ day, sources }))
    return {
      days: list,
      month: { month: monthFrom.slice(0, 7), sources: month },
      tokensPerDay: this.#tokensPerDay,
    }
  }
}
