/**
 * The OpenAI-compatible endpoint's wire format (issue 38, D130), at `{PUBLIC_URL}/openai/v1`: the
 * subset of OpenAI's chat-completions and models calls that existing clients send and read, so
 * the official SDKs and the Vercel AI SDK work unchanged. Fields a client may send that DocChat
 * has no use for (top_p, presence_penalty, …) are accepted and ignored, as OpenAI-compatible
 * servers do; `citations` is DocChat's own field, which standard clients ignore.
 */
import { z } from 'zod'
import { CHECK_OUTCOMES } from './citation-checks.ts'

export const OPENAI_PREFIX = '/openai/v1'
export const OPENAI_PATHS = {
  models: `${OPENAI_PREFIX}/models`,
  chatCompletions: `${OPENAI_PREFIX}/chat/completions`,
} as const

/** The model that answers from the whole library (every other model is one assistant). */
export const LIBRARY_MODEL = 'library'
/** The most messages one request may carry (history included). */
export const MAX_MESSAGES = 100
/** The most characters of all the messages together (about 8,000 tokens). */
export const MAX_TOTAL_CHARACTERS = 32_000
/** The question (the last user message) is held to the app's own message limit (MESSAGE_MAX_LENGTH). */
export const MAX_QUESTION_CHARACTERS = 8000
/** A citation's snippet, as a published assistant's visitor sees it (VISITOR_SNIPPET_MAX_LENGTH). */
export const CITATION_SNIPPET_MAX_LENGTH = 300

/** A content part; only text is read (an image part is refused by the service, naming the field). */
const ContentPartSchema = z.looseObject({ type: z.string(), text: z.string().optional() })

export const ChatMessageSchema = z.looseObject({
  role: z.enum(['system', 'developer', 'user', 'assistant'], {
    error: 'role must be system, developer, user or assistant (tools are not supported)',
  }),
  content: z.union([z.string(), z.array(ContentPartSchema), z.null()]).optional(),
  name: z.string().max(256).optional(),
})
export type ChatMessage = z.infer<typeof ChatMessageSchema>

export const ChatCompletionRequestSchema = z.looseObject({
  model: z.string({ error: 'model is required' }).min(1, 'model is required').max(200),
  messages: z
    .array(ChatMessageSchema, { error: 'messages must be a list of messages' })
    .min(1, 'messages must hold at least one message')
    .max(MAX_MESSAGES, `messages may hold at most ${MAX_MESSAGES} messages`),
  stream: z.boolean().nullable().optional(),
  stream_options: z.looseObject({ include_usage: z.boolean().optional() }).nullable().optional(),
  temperature: z.number().min(0).max(2).nullable().optional(),
  max_tokens: z.number().int().min(1).nullable().optional(),
  /** OpenAI's newer name for max_tokens; the lower of the two holds. */
  max_completion_tokens: z.number().int().min(1).nullable().optional(),
  n: z.literal(1, { error: 'n must be 1: one answer per request' }).nullable().optional(),
  user: z.string().max(256).optional(),
})
export type ChatCompletionRequest = z.infer<typeof ChatCompletionRequestSchema>

/** How the sentences citing a passage held up against it (issue 39, D129); never "not cited". */
export const CitationOutcomeSchema = z.enum(CHECK_OUTCOMES).exclude(['not-cited'])
export type CitationOutcome = z.infer<typeof CitationOutcomeSchema>

export const CitationSchema = z.object({
  /** The answer's [n] marker this passage is. */
  citation: z.number().int(),
  documentName: z.string(),
  page: z.number().int().nullable(),
  snippet: z.string().max(CITATION_SNIPPET_MAX_LENGTH),
  /**
   * The check of the sentences citing this passage (D135), the first a reader must know of
   * unverified, repaired, checked, nothing-to-check; absent when the answer was not checked.
   */
  check: CitationOutcomeSchema.optional(),
  /** With `check`: the figures, dates, codes, quotations and names the passages did not hold. */
  missing: z.array(z.string()).optional(),
  /**
   * With `check: 'repaired'`: the [n] the model wrote, moved to this passage, which holds the
   * items (the whole answer's text carries the moved marker; a stream's pieces, the model's).
   */
  movedFrom: z.number().int().positive().optional(),
})
export type Citation = z.infer<typeof CitationSchema>

export const UsageSchema = z.object({
  prompt_tokens: z.number().int(),
  completion_tokens: z.number().int(),
  total_tokens: z.number().int(),
})
export type Usage = z.infer<typeof UsageSchema>

export const ChatCompletionSchema = z.object({
  id: z.string(),
  object: z.literal('chat.completion'),
  created: z.number().int(),
  model: z.string(),
  choices: z.array(
    z.object({
      index: z.number().int(),
      message: z.object({ role: z.literal('assistant'), content: z.string() }),
      finish_reason: z.enum(['stop', 'length']),
      logprobs: z.null(),
    }),
  ),
  usage: UsageSchema,
  citations: z.array(CitationSchema),
})
export type ChatCompletion = z.infer<typeof ChatCompletionSchema>

export const ChatCompletionChunkSchema = z.object({
  id: z.string(),
  object: z.literal('chat.completion.chunk'),
  created: z.number().int(),
  model: z.string(),
  choices: z.array(
    z.object({
      index: z.number().int(),
      delta: z.object({ role: z.literal('assistant').optional(), content: z.string().optional() }),
      finish_reason: z.enum(['stop', 'length']).nullable(),
      logprobs: z.null(),
    }),
  ),
  /** Only on the last chunk, when the request asked for it (stream_options.include_usage). */
  usage: UsageSchema.nullable().optional(),
  /** Only on the last chunk. */
  citations: z.array(CitationSchema).optional(),
})
export type ChatCompletionChunk = z.infer<typeof ChatCompletionChunkSchema>

export const ModelSchema = z.object({
  id: z.string(),
  object: z.literal('model'),
  created: z.number().int(),
  owned_by: z.string(),
  /** DocChat's own: the assistant's name ("Whole library" for `library`). */
  name: z.string(),
})
export type Model = z.infer<typeof ModelSchema>

export const ModelListSchema = z.object({ object: z.literal('list'), data: z.array(ModelSchema) })
export type ModelList = z.infer<typeof ModelListSchema>

/** OpenAI's error codes the SDKs and people look for. */
export type OpenAiErrorCode =
  | 'invalid_api_key'
  | 'insufficient_permissions'
  | 'model_not_found'
  | 'invalid_request_error'
  | 'rate_limit_exceeded'
  | 'not_found'
  | 'server_error'

export const OpenAiErrorSchema = z.object({
  error: z.object({
    message: z.string(),
    type: z.string(),
    code: z.string().nullable(),
    param: z.string().nullable(),
  }),
})
export type OpenAiErrorBody = z.infer<typeof OpenAiErrorSchema>
