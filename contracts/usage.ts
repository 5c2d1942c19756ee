/**
 * What a person's answers spent (issue 38, D126): per UTC day, the model tokens and the answers of
 * the app, the API and their published assistants, and this month's totals, also per API key and
 * per assistant (D134). Settings → Usage
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

/** This month's figures of one personal API key (D134); name and prefix null once it is gone. */
export const UsageByKeySchema = UsageFiguresSchema.extend({
  id: z.string(),
  name: z.string().nullable(),
  prefix: z.string().nullable(),
})
export type UsageByKey = z.infer<typeof UsageByKeySchema>

/** This month's figures of one assistant (app, API and published answers); name null once deleted. */
export const UsageByAssistantSchema = UsageFiguresSchema.extend({
  id: z.string(),
  name: z.string().nullable(),
})
export type UsageByAssistant = z.infer<typeof UsageByAssistantSchema>

export const UsageReportSchema = z.object({
  /** Every day of the window, oldest first, today last (days without answers are zeros). */
  days: z.array(UsageDaySchema),
  /**
   * This UTC month so far (`YYYY-MM`), per source, and per API key and per assistant (those with
   * answers this month, most tokens first).
   */
  month: z.object({
    month: z.string(),
    sources: UsageBySourceSchema,
    keys: z.array(UsageByKeySchema),
    assistants: z.array(UsageByAssistantSchema),
  }),
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
