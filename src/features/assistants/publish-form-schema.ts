/**
 * The Publish panel's form (issue 37): every rule is the contract's own (PublishingRequestSchema),
 * so the page says what the server would, word for word. Numbers are typed as text and must be
 * whole numbers; an allowed site is checked as the server checks it.
 */
import { z } from 'zod'
import type { Assistant } from '#contracts/assistants.ts'
import { BudgetsSchema, type PublishingRequest, PublishingRequestSchema } from '#contracts/publishing.ts'

const fields = PublishingRequestSchema.shape
const budgets = BudgetsSchema.shape

/** Text to the number the contract takes; empty is not a number (its own sentence says so). */
const count = <S extends z.ZodType<number, number>>(schema: S) =>
  z
    .string()
    .trim()
    .transform((text) => (text === '' ? Number.NaN : Number(text)))
    .pipe(schema)

export const PublishFormSchema = z.object({
  published: fields.published,
  allowedOrigins: fields.allowedOrigins,
  publicPage: fields.publicPage,
  allowIndexing: fields.allowIndexing,
  showSourceNames: fields.showSourceNames,
  hideUnverified: fields.hideUnverified,
  busyMessage: fields.busyMessage,
  privacyNotice: fields.privacyNotice,
  budgets: z.object({
    answersPerDay: count(budgets.answersPerDay),
    tokensPerDay: count(budgets.tokensPerDay),
    visitorAnswersPerHour: count(budgets.visitorAnswersPerHour),
    visitorAnswersPerDay: count(budgets.visitorAnswersPerDay),
  }),
  requireChallenge: fields.requireChallenge,
  retentionDays: count(fields.retentionDays),
})

export type PublishFormValues = z.input<typeof PublishFormSchema>

export function publishValuesOf(assistant: Assistant): PublishFormValues {
  const { budgets: saved } = assistant
  return {
    published: assistant.published,
    allowedOrigins: assistant.allowedOrigins,
    publicPage: assistant.publicPage,
    allowIndexing: assistant.allowIndexing,
    showSourceNames: assistant.showSourceNames,
    hideUnverified: assistant.hideUnverified,
    busyMessage: assistant.busyMessage,
    privacyNotice: assistant.privacyNotice,
    budgets: {
      answersPerDay: String(saved.answersPerDay),
      tokensPerDay: String(saved.tokensPerDay),
      visitorAnswersPerHour: String(saved.visitorAnswersPerHour),
      visitorAnswersPerDay: String(saved.visitorAnswersPerDay),
    },
    requireChallenge: assistant.requireChallenge,
    retentionDays: String(assistant.retentionDays),
  }
}

/** What Save publishing sends: every publishing field, as the contract takes it. */
export function publishingOf(values: PublishFormValues): PublishingRequest {
  return PublishFormSchema.parse(values)
}

/** What is published, for keying the form: a save that changed it starts the form afresh. */
export const savedPublishing = (assistant: Assistant) => JSON.stringify(publishValuesOf(assistant))
