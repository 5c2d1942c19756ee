/**
 * What a person's answers spent (issue 38, D126): per UTC day, the model tokens and the answers of
 * the app, the API and their published assistants, and this month's totals. Settings → Usage
 * draws it; the same rows hold everyone to USAGE_TOKENS_PER_DAY.
 */
import { z } from 'zod'
import { endpoint } from './endpoint.ts'

export const USAGE_DAYS_DEFAULT = 30
export const USAGE_DAYS_MAX = 90
export const USAGE_DAYS_INVALID = `days must be a whole number from 1 to ${USAGE_DAYS_MAX}.`

export const USAGE_SOURCES = ['app', 'api', 'published'] as const
export type UsageSource = (typeof USAGE_SOURCES)[number]

/** One source's figures: model tokens (prompt and completion together) and answers. */
export const UsageFiguresSchema = z.object({ tokens: z.number(), answers: z.number() })
export type UsageFigures = z.infer<typeof UsageFiguresSchema>

export const UsageBySourceSchema = z.object({
  app: UsageFiguresSchema,
  api: UsageFiguresSchema,
  published: UsageFiguresSchema,
})
export type UsageBySource = z.infer<typeof UsageBySourceSchema>

export const UsageDaySchema = z.object({
  /** The UTC day, `YYYY-MM-DD`. */
  day: z.string(),
  sources: UsageBySourceSchema,
})
export type UsageDay = z.infer<typeof UsageDaySchema>

export const UsageReportSchema = z.object({
  /** Every day of the window, oldest first, today last (days without answers are zeros). */
  days: z.array(UsageDaySchema),
  /** This UTC month so far (`YYYY-MM`), per source. */
  month: z.object({ month: z.string(), sources: UsageBySourceSchema }),
  /** USAGE_TOKENS_PER_DAY across every source; 0: no limit. */
  tokensPerDay: z.number(),
})
export type UsageReport = z.infer<typeof UsageReportSchema>

export const UsageQuerySchema = z.strictObject({
  days: z.coerce
    .number({ error: USAGE_DAYS_INVALID })
    .int(USAGE_DAYS_INVALID)
    .min(1, USAGE_DAYS_INVALID)
    .max(USAGE_DAYS_MAX, USAGE_DAYS_INVALID)
    .default(USAGE_DAYS_DEFAULT),
})

export const usageEndpoints = {
  usage: endpoint({ method: 'GET', path: '/usage', query: UsageQuerySchema, data: UsageReportSchema }),
} as const
