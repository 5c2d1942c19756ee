/**
 * The assistant's form as the person fills it (issue 36): every field's rule is the contract's own
 * (contracts/assistants.ts), so the page says what the server would, word for word. Numbers are
 * typed as text (empty: the server's default) and become numbers or null here.
 */
import { z } from 'zod'
import {
  type Assistant,
  CreateAssistantRequestSchema,
  type UpdateAssistantRequest,
} from '#contracts/assistants.ts'

const fields = CreateAssistantRequestSchema.shape

/** Empty is null (the server's default); anything else must be the number the contract takes. */
const optionalNumber = <S extends z.ZodType<number | null, number | null>>(schema: S) =>
  z
    .string()
    .trim()
    .transform((text) => (text === '' ? null : Number(text)))
    .pipe(schema)

export const AssistantFormSchema = z.object({
  name: fields.name,
  description: fields.description.unwrap(),
  instructions: fields.instructions.unwrap(),
  knowledge: fields.knowledge.unwrap(),
  starterQuestions: fields.starterQuestions.unwrap(),
  answerPolicy: fields.answerPolicy.unwrap(),
  fallbackAnswer: fields.fallbackAnswer.unwrap(),
  temperature: optionalNumber(fields.temperature.unwrap()),
  maxAnswerTokens: optionalNumber(fields.maxAnswerTokens.unwrap()),
  /** '' is the server's default model. */
  model: z.string().transform((name) => (name === '' ? null : name)),
})

export type AssistantFormValues = z.input<typeof AssistantFormSchema>

/** The form's first values: the assistant as saved. */
export function formValuesOf(assistant: Assistant): AssistantFormValues {
  return {
    name: assistant.name,
    description: assistant.description,
    instructions: assistant.instructions,
    knowledge: { documentIds: assistant.knowledge.documentIds, folderIds: assistant.knowledge.folderIds },
    starterQuestions: assistant.starterQuestions,
    answerPolicy: assistant.answerPolicy,
    fallbackAnswer: assistant.fallbackAnswer,
    temperature: assistant.temperature === null ? '' : String(assistant.temperature),
    maxAnswerTokens: assistant.maxAnswerTokens === null ? '' : String(assistant.maxAnswerTokens),
    model: assistant.model ?? '',
  }
}

/** What Save sends: every field, as the contract takes it. */
export function updateOf(values: AssistantFormValues): UpdateAssistantRequest {
  return AssistantFormSchema.parse(values)
}

/** The first message among a field's errors (the schema's own words). */
export function firstMessage(errors: readonly unknown[]): string | undefined {
  for (const error of errors) {
    if (typeof error === 'string') return error
    if (error && typeof error === 'object' && 'message' in error && typeof error.message === 'string')
      return error.message
  }
  return undefined
}
