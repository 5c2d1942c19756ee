/**
 * Assistants (issue 36, D110): what a person builds from chosen documents and Google Drive
 * folders — instructions, knowledge, starter questions, an answer policy and model settings.
 * Every id is checked against the signed-in person: another person's assistant answers 404 like a
 * missing one; an unknown document or folder in `knowledge` answers 400 naming it.
 */
import { z } from 'zod'
import { IdParamsSchema } from './chat.ts'
import { endpoint } from './endpoint.ts'
import { PublishingRequestSchema, PublishingSchema } from './publishing.ts'
import { userText } from './user-text.ts'

export const ASSISTANT_NAME_MAX_LENGTH = 80
export const ASSISTANT_DESCRIPTION_MAX_LENGTH = 300
export const ASSISTANT_INSTRUCTIONS_MAX_LENGTH = 8000
export const STARTER_QUESTIONS_MAX = 6
export const STARTER_QUESTION_MAX_LENGTH = 200
export const FALLBACK_ANSWER_MAX_LENGTH = 1000
/** How many assistants one person may have; creating one more is refused with 400. */
export const ASSISTANTS_PER_PERSON = 100
export const KNOWLEDGE_MAX_DOCUMENTS = 500
export const KNOWLEDGE_MAX_FOLDERS = 50
export const MAX_ANSWER_TOKENS_LIMIT = 4000

export const ANSWER_POLICIES = ['documents-only', 'documents-first'] as const
export const AnswerPolicySchema = z.enum(ANSWER_POLICIES, {
  error: 'answerPolicy must be "documents-only" or "documents-first"',
})
export type AnswerPolicy = z.infer<typeof AnswerPolicySchema>

/** The fallback an assistant answers with, under "Only from its documents", when nothing relevant is found. */
export const DEFAULT_FALLBACK_ANSWER =
  "I couldn't find this in my documents, so I can't answer it. Try asking in other words, or ask about something the documents cover."

const documentId = z.uuid({ error: (issue) => `Not a valid document id: ${String(issue.input)}` })
const folderId = z
  .string({ error: 'A folder id must be a string' })
  .trim()
  .min(1, 'A folder id must not be empty')
  .max(200, 'A folder id must be at most 200 characters')

/** What an assistant may read: library documents and Drive folders (with their subfolders, followed). */
export const KnowledgeRequestSchema = z.strictObject({
  documentIds: z
    .array(documentId, { error: 'documentIds must be a list of document ids' })
    .max(KNOWLEDGE_MAX_DOCUMENTS, `An assistant can use at most ${KNOWLEDGE_MAX_DOCUMENTS} documents`),
  folderIds: z
    .array(folderId, { error: 'folderIds must be a list of Drive folder ids' })
    .max(KNOWLEDGE_MAX_FOLDERS, `An assistant can use at most ${KNOWLEDGE_MAX_FOLDERS} Drive folders`),
})
export type KnowledgeRequest = z.infer<typeof KnowledgeRequestSchema>

/** A chosen document as the assistant's page shows it. */
export const KnowledgeDocumentSchema = z.object({ id: z.string(), name: z.string() })
/**
 * A chosen Drive folder: `missing` when Drive no longer has it (deleted, or no longer shared with
 * the connection) — that part of the knowledge is then empty, and the page says so.
 */
export const KnowledgeFolderSchema = z.object({
  id: z.string(),
  name: z.string(),
  missing: z.boolean(),
  /** How many library documents the folder (with its subfolders) holds now. */
  documentCount: z.number().int().nonnegative(),
})
export const KnowledgeSchema = z.object({
  documentIds: z.array(z.string()),
  folderIds: z.array(z.string()),
  documents: z.array(KnowledgeDocumentSchema),
  folders: z.array(KnowledgeFolderSchema),
})
export type Knowledge = z.infer<typeof KnowledgeSchema>

const name = userText(
  z
    .string({ error: 'Name is required' })
    .trim()
    .min(1, 'Name is required')
    .max(ASSISTANT_NAME_MAX_LENGTH, `Name must be at most ${ASSISTANT_NAME_MAX_LENGTH} characters`),
  'Name',
)
const description = userText(
  z
    .string({ error: 'Description must be text' })
    .trim()
    .max(
      ASSISTANT_DESCRIPTION_MAX_LENGTH,
      `Description must be at most ${ASSISTANT_DESCRIPTION_MAX_LENGTH} characters`,
    ),
  'Description',
)
const instructions = userText(
  z
    .string({ error: 'Instructions must be text' })
    .max(
      ASSISTANT_INSTRUCTIONS_MAX_LENGTH,
      `Instructions must be at most ${ASSISTANT_INSTRUCTIONS_MAX_LENGTH} characters`,
    ),
  'Instructions',
)
const starterQuestions = z
  .array(
    userText(
      z
        .string({ error: 'A starter question must be text' })
        .trim()
        .min(1, 'A starter question must not be empty')
        .max(
          STARTER_QUESTION_MAX_LENGTH,
          `A starter question must be at most ${STARTER_QUESTION_MAX_LENGTH} characters`,
        ),
      'Starter question',
    ),
    { error: 'starterQuestions must be a list of questions' },
  )
  .max(STARTER_QUESTIONS_MAX, `An assistant can have at most ${STARTER_QUESTIONS_MAX} starter questions`)
const fallbackAnswer = userText(
  z
    .string({ error: 'The fallback answer must be text' })
    .trim()
    .min(1, 'The fallback answer must not be empty')
    .max(
      FALLBACK_ANSWER_MAX_LENGTH,
      `The fallback answer must be at most ${FALLBACK_ANSWER_MAX_LENGTH} characters`,
    ),
  'Fallback answer',
)
const temperature = z
  .number({ error: 'Temperature must be a number' })
  .min(0, 'Temperature must be between 0 and 2')
  .max(2, 'Temperature must be between 0 and 2')
const maxAnswerTokens = z
  .number({ error: 'The longest answer must be a number of tokens' })
  .int('The longest answer must be a whole number of tokens')
  .min(50, 'The longest answer must be at least 50 tokens')
  .max(MAX_ANSWER_TOKENS_LIMIT, `The longest answer must be at most ${MAX_ANSWER_TOKENS_LIMIT} tokens`)
/** A model name; the server accepts only one of the operator's `LLM_MODELS` (400 otherwise), or null for the default. */
const model = z.string({ error: 'Model must be a model name' }).trim().min(1).max(200).nullable()

/** Every field but the name may be left out; the server fills the defaults. */
export const CreateAssistantRequestSchema = z.strictObject({
  name,
  description: description.optional(),
  instructions: instructions.optional(),
  knowledge: KnowledgeRequestSchema.optional(),
  starterQuestions: starterQuestions.optional(),
  answerPolicy: AnswerPolicySchema.optional(),
  fallbackAnswer: fallbackAnswer.optional(),
  temperature: temperature.nullable().optional(),
  maxAnswerTokens: maxAnswerTokens.nullable().optional(),
  model: model.optional(),
})
export type CreateAssistantRequest = z.infer<typeof CreateAssistantRequestSchema>

/** A partial edit: only the fields sent change; publishing (issue 37) is edited the same way. */
export const UpdateAssistantRequestSchema = CreateAssistantRequestSchema.partial().extend(
  PublishingRequestSchema.partial().shape,
)
export type UpdateAssistantRequest = z.infer<typeof UpdateAssistantRequestSchema>

export const AssistantSchema = z
  .object({
    _id: z.string(),
    name: z.string(),
    description: z.string(),
    instructions: z.string(),
    knowledge: KnowledgeSchema,
    starterQuestions: z.array(z.string()),
    answerPolicy: AnswerPolicySchema,
    fallbackAnswer: z.string(),
    /** null: the server's default. */
    temperature: z.number().nullable(),
    maxAnswerTokens: z.number().int().nullable(),
    model: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .extend(PublishingSchema.shape)
export type Assistant = z.infer<typeof AssistantSchema>

/** What the assistants list and the "New chat" menu show. */
export const AssistantSummarySchema = AssistantSchema.pick({
  _id: true,
  name: true,
  description: true,
  answerPolicy: true,
  updatedAt: true,
}).extend({ documentCount: z.number().int().nonnegative(), folderCount: z.number().int().nonnegative() })
export type AssistantSummary = z.infer<typeof AssistantSummarySchema>

/** What the model settings may be set to on this server (the operator's `LLM_MODELS`; empty: only the default). */
export const AssistantOptionsSchema = z.object({ models: z.array(z.string()) })

/** A folder of the connected Drive, for the knowledge picker's tree (parentId null: at the top). */
export const DriveFolderSchema = z.object({
  id: z.string(),
  name: z.string(),
  parentId: z.string().nullable(),
})
export type DriveFolder = z.infer<typeof DriveFolderSchema>

export const assistantEndpoints = {
  listAssistants: endpoint({ method: 'GET', path: '/assistants', data: z.array(AssistantSummarySchema) }),
  createAssistant: endpoint({
    method: 'POST',
    path: '/assistants',
    request: CreateAssistantRequestSchema,
    data: AssistantSchema,
    status: 201,
  }),
  assistantOptions: endpoint({ method: 'GET', path: '/assistants/options', data: AssistantOptionsSchema }),
  getAssistant: endpoint({
    method: 'GET',
    path: '/assistants/:id',
    params: IdParamsSchema,
    data: AssistantSchema,
  }),
  updateAssistant: endpoint({
    method: 'PATCH',
    path: '/assistants/:id',
    params: IdParamsSchema,
    request: UpdateAssistantRequestSchema,
    data: AssistantSchema,
  }),
  deleteAssistant: endpoint({
    method: 'DELETE',
    path: '/assistants/:id',
    params: IdParamsSchema,
    data: z.null(),
  }),
  listDriveFolders: endpoint({
    method: 'GET',
    path: '/google-drive/folders',
    data: z.array(DriveFolderSchema),
  }),
}
