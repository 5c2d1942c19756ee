/**
 * A person's usage (issue 38, D126): every answer records what it spent (model tokens, reported
 * or estimated, and one answer) against the person, the UTC day of the app's clock and its source
 * ('app', 'api', 'published'); the app's and the API's answers are refused once the person's
 * tokens today, every source together, reach USAGE_TOKENS_PER_DAY. The counts live in the
 * database (usage_days), so every instance reads the same day.
 */
import type {
  UsageByAssistant,
  UsageByKey,
  UsageBySource,
  UsageDay,
  UsageReport,
  UsageSource,
} from '#contracts/usage.ts'
import { DailyTokensSpent } from './usage-errors.ts'
import type { SubjectTotal, UsageRepository } from './usage-repository.ts'
import { DAY_MS, dayStart, secondsUntil, utcDay } from './utc-windows.ts'

export type AnswerUsage = {
  ownerId: string
  source: UsageSource
  /** The assistant that answered, when one did (its own figures, usage_subject_days, D134). */
  assistantId?: string | null
  /** The API key that asked, when one did. */
  keyId?: string | null
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

  async recordAnswer(answer: AnswerUsage): Promise<void> {
    const { ownerId, source, promptTokens, completionTokens, assistantId, keyId } = answer
    const tokens = whole(promptTokens) + whole(completionTokens)
    const day = utcDay(this.#now())
    await this.#rows.record({ userId: ownerId, day, source, answers: 1, tokens, assistantId, keyId })
  }

  /** The last `days` UTC days (today last, every day present) and this month so far. */
  async report(ownerId: string, days: number): Promise<UsageReport> {
    const today = dayStart(this.#now())
    const first = new Date(today.getTime() - (days - 1) * DAY_MS)
    const monthStart = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), 1))
    const from = first < monthStart ? first : monthStart
    const monthFrom = utcDay(monthStart)
    const [rows, subjects] = await Promise.all([
      this.#rows.days(ownerId, utcDay(from)),
      this.#rows.subjects(ownerId, monthFrom),
    ])
    const perDay = new Map<string, UsageBySource>()
    for (let t = first.getTime(); t <= today.getTime(); t += DAY_MS)
      perDay.set(utcDay(new Date(t)), emptySources())
    const month = emptySources()
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
      month: { month: monthFrom.slice(0, 7), sources: month, ...bySubject(subjects) },
      tokensPerDay: this.#tokensPerDay,
    }
  }
}

/** The month's figures per key and per assistant, most tokens first (then most answers, then name). */
function bySubject(subjects: SubjectTotal[]): { keys: UsageByKey[]; assistants: UsageByAssistant[] } {
  const sorted = [...subjects].sort(
    (a, b) => b.tokens - a.tokens || b.answers - a.answers || (a.name ?? '').localeCompare(b.name ?? ''),
  )
  return {
    keys: sorted
      .filter((s) => s.kind === 'key')
      .map(({ id, name, prefix, tokens, answers }) => ({ id, name, prefix, tokens, answers })),
    assistants: sorted
      .filter((s) => s.kind === 'assistant')
      .map(({ id, name, tokens, answers }) => ({ id, name, tokens, answers })),
  }
}
