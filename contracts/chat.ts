/**
 * Conversations with the assistant: the chat calls of product §7 and the entities of §3.
 * Every id in a path is checked against the signed-in user by the server (another user's id
 * answers 404, exactly as a missing one).
 */
import { z } from 'zod'
import { CitationCheckSchema } from './citation-checks.ts'
import { endpoint } from './endpoint.ts'
import { userText } from './user-text.ts'

/** The longest message a person can send; longer content is refused with 400. */
export const MESSAGE_MAX_LENGTH = 8000
/** A conversation title is the first message (product §4); it is stored shortened to this length. */
export const TITLE_MAX_LENGTH = 120
/** How much of the last message the conversation list carries (for the sidebar and History). */
export const LAST_MESSAGE_PREVIEW_LENGTH = 200

export const FEEDBACK_VALUES = ['like', 'dislike'] as const
export const FeedbackSchema = z.enum(FEEDBACK_VALUES, { error: 'Feedback must be "like" or "dislike"' })
export type Feedback = z.infer<typeof FeedbackSchema>

/**
 * How many versions one answer keeps (Regenerate adds one; D93). At the bound Regenerate is
 * refused with 409 and the versions stay as they are: nothing is dropped.
 */
export const MAX_ANSWER_VERSIONS = 10

/** Why a person disliked an answer (optional, D93): a few choices, and/or a short note. */
export const DISLIKE_REASONS = ['incorrect', 'unsupported', 'incomplete', 'other'] as const
export const DislikeReasonSchema = z.enum(DISLIKE_REASONS, {
  error: `Reason must be one of ${DISLIKE_REASONS.map((r) => `"${r}"`).join(', ')}`,
})
export type DislikeReason = z.infer<typeof DislikeReasonSchema>
/** The longest note a dislike may carry; longer is refused with 400. */
export const DISLIKE_NOTE_MAX_LENGTH = 500

export const IdParamsSchema = z.strictObject({ id: z.uuid('Not a valid id') })

/** The most documents one conversation can be limited to. */
export const SCOPE_MAX_DOCUMENTS = 50

/** A document a conversation is limited to: its library id (as `GET /documents` lists it) and name. */
export const ScopeDocumentSchema = z.object({ id: z.string(), name: z.string() })
export type ScopeDocument = z.infer<typeof ScopeDocumentSchema>

/**
 * The documents a conversation searches (D70), in the order they were chosen. Empty when every
 * one of them was deleted since: the conversation then searches nothing and says so.
 */
export const ScopeSchema = z.object({
  documentIds: z.array(z.string()),
  documents: z.array(ScopeDocumentSchema),
})
export type Scope = z.infer<typeof ScopeSchema>

/** A scope as a person sets it: library document ids, each checked against the signed-in person. */
export const ScopeRequestSchema = z.strictObject({
  documentIds: z
    .array(z.uuid({ error: (issue) => `Not a valid document id: ${String(issue.input)}` }), {
      error: 'documentIds must be a list of document ids',
    })
    .min(1, 'Choose at least one document (or send scope: null to search all your documents)')
    .max(SCOPE_MAX_DOCUMENTS, `A conversation can be limited to at most ${SCOPE_MAX_DOCUMENTS} documents`),
})
export type ScopeRequest = z.infer<typeof ScopeRequestSchema>

/**
 * The assistant a conversation is with (issue 36), as every answer carrying a conversation shows
 * it; null for a conversation with the whole library. `deleted`: the assistant was deleted since
 * (the conversation stays, and answers from the whole library are no longer made in it).
 */
export const ConversationAssistantSchema = z.object({
  id: z.string(),
  name: z.string(),
  deleted: z.boolean(),
})
export type ConversationAssistant = z.infer<typeof ConversationAssistantSchema>

export const ConversationSchema = z.object({
  _id: z.string(),
  title: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** product §3 uses only the count of a conversation's messages; the bodies are not shipped in lists. */
  messageCount: z.number().int().nonnegative(),
  /** The start of the newest message, '' for a new conversation. */
  lastMessage: z.string(),
  /**
   * The documents it searches; null: the whole library. The server always sends it; absent reads
   * as null (the spec's shape, which the pact's older interactions pin).
   */
  scope: ScopeSchema.nullable().optional(),
  /** The assistant it is with; null (or absent, in the spec's shape) for none. */
  assistant: ConversationAssistantSchema.nullable().optional(),
})
export type Conversation = z.infer<typeof ConversationSchema>

/** A passage of the user's own documents that an answer drew on. */
export const SourceSchema = z.object({
  documentId: z.string(),
  documentName: z.string(),
  chunkId: z.string(),
  /** 1-based page for PDFs, null otherwise. */
  page: z.number().int().positive().nullable(),
  /** Where a person can open the document (a Drive webViewLink), null when there is none. */
  link: z.string().nullable(),
  /** The [n] the answer cites this passage by; null (or absent, on older answers) when none. */
  citation: z.number().int().positive().nullable().optional(),
  /** The nearest heading above the passage, when the document has headings. */
  heading: z.string().nullable().optional(),
  /** The passage as the answer saw it (a snapshot), so a person can check the citation. */
  quote: z.string().optional(),
  /**
   * How the answer's passages were chosen: `ranked` (the best passages for the question) or
   * `whole-document` (the conversation's documents were given whole, D71). Absent on older answers.
   */
  mode: z.enum(['ranked', 'whole-document']).optional(),
})
export type Source = z.infer<typeof SourceSchema>

/**
 * A word of the question that is in none of the person's documents (`from`, as typed), and the
 * word of their documents the answer searched for instead (`to`): shown as "Searched for: …".
 */
export const CorrectionSchema = z.object({ from: z.string(), to: z.string() })
export type Correction = z.infer<typeof CorrectionSchema>

export const MessageSchema = z.object({
  _id: z.string(),
  isUser: z.boolean(),
  content: z.string(),
  createdAt: z.string(),
  messageType: z.literal('text'),
  feedback: FeedbackSchema.nullable(),
  sources: z.array(SourceSchema),
  /** On an answer whose search corrected misspelled words; absent otherwise (and on older answers). */
  corrections: z.array(CorrectionSchema).optional(),
  /** True for an answer the person stopped while it was written: it holds what had arrived. */
  stopped: z.boolean().optional(),
  /**
   * Which of the answer's versions this is (1-based) and how many it has (D93): Regenerate adds
   * one; the message carries the one shown. 1 and 1 for a question; absent from older servers.
   */
  version: z.number().int().positive().optional(),
  versionCount: z.number().int().positive().optional(),
  /** Why the shown version was disliked, when the person said (only with feedback 'dislike'). */
  feedbackReason: DislikeReasonSchema.nullable().optional(),
  feedbackNote: z.string().nullable().optional(),
  /**
   * The answer's citations checked against its passages (D129): one entry per cited sentence and
   * per figure left uncited. null: not checked (the check failed, or the answer was stored
   * before checks were made). Absent on questions, and from servers before the checks.
   */
  checks: z.array(CitationCheckSchema).nullable().optional(),
})
export type Message = z.infer<typeof MessageSchema>

export const CreateConversationRequestSchema = z.strictObject({
  title: userText(
    z
      .string({ error: 'Title is required' })
      .trim()
      .min(1, 'Title is required')
      .max(MESSAGE_MAX_LENGTH, `Title must be at most ${MESSAGE_MAX_LENGTH} characters`),
    'Title',
  ),
  /** Limits the new conversation to these documents; absent or null: the whole library. */
  scope: ScopeRequestSchema.nullable().optional(),
  /** Makes it a conversation with this assistant of the signed-in person (404 for anyone else's). */
  assistantId: z.uuid('Not a valid assistant id').nullable().optional(),
})
export type CreateConversationRequest = z.infer<typeof CreateConversationRequestSchema>

export const SendMessageRequestSchema = z.strictObject({
  content: userText(
    z
      .string({ error: 'Message content is required' })
      .refine((s) => s.trim().length > 0, 'Message cannot be empty')
      .refine(
        (s) => s.length <= MESSAGE_MAX_LENGTH,
        `Message must be at most ${MESSAGE_MAX_LENGTH} characters`,
      ),
    'Message',
  ),
  isUser: z.literal(true, { error: 'isUser must be true: only people send messages' }),
  messageType: z.literal('text', { error: 'messageType must be "text"' }),
})
export type SendMessageRequest = z.infer<typeof SendMessageRequestSchema>

export const SendMessageResponseSchema = z.object({
  userMessage: MessageSchema,
  aiMessage: MessageSchema,
})
export type SendMessageResponse = z.infer<typeof SendMessageResponseSchema>

export const FeedbackRequestSchema = z.strictObject({ feedback: FeedbackSchema })
export type FeedbackRequest = z.infer<typeof FeedbackRequestSchema>

/** Which version of an answer to show (D93); stored, so every device shows the same one. */
export const ShowVersionRequestSchema = z.strictObject({
  version: z
    .number({ error: 'Version must be a number' })
    .int('Version must be a whole number')
    .min(1, 'Version must be at least 1')
    .max(MAX_ANSWER_VERSIONS, `An answer has at most ${MAX_ANSWER_VERSIONS} versions`),
})
export type ShowVersionRequest = z.infer<typeof ShowVersionRequestSchema>

/**
 * Why a disliked answer did not help (D93), beside the spec's feedback call: a reason, a note,
 * or both; at least one of them (skipping sends nothing).
 */
export const DislikeReasonRequestSchema = z
  .strictObject({
    reason: DislikeReasonSchema.nullable().optional(),
    note: userText(
      z
        .string({ error: 'Note must be text' })
        .trim()
        .max(DISLIKE_NOTE_MAX_LENGTH, `Note must be at most ${DISLIKE_NOTE_MAX_LENGTH} characters`),
      'Note',
    ).optional(),
  })
  .refine((r) => (r.reason ?? null) !== null || (r.note ?? '') !== '', {
    error: 'Choose a reason or write a few words',
  })
export type DislikeReasonRequest = z.infer<typeof DislikeReasonRequestSchema>

export const MessageParamsSchema = z.strictObject({
  id: z.uuid('Not a valid id'),
  messageId: z.uuid('Not a valid message id'),
})

/** A new title, a new scope (null: the whole library), or both. */
export const RenameConversationRequestSchema = z
  .strictObject({
    title: userText(
      z
        .string({ error: 'Title is required' })
        .trim()
        .min(1, 'Title is required')
        .max(TITLE_MAX_LENGTH, `Title must be at most ${TITLE_MAX_LENGTH} characters`),
      'Title',
    ).optional(),
    scope: ScopeRequestSchema.nullable().optional(),
  })
  .refine((body) => body.title !== undefined || body.scope !== undefined, 'Send a title, a scope, or both')
export type RenameConversationRequest = z.infer<typeof RenameConversationRequestSchema>

/** The longest search a person can type; longer is refused with 400. */
export const SEARCH_MAX_LENGTH = 200

export const SearchQuerySchema = z.strictObject({
  q: userText(
    z
      .string({ error: 'Type something to search for' })
      .trim()
      .min(1, 'Type something to search for')
      .max(SEARCH_MAX_LENGTH, `Search must be at most ${SEARCH_MAX_LENGTH} characters`),
    'Search',
  ),
})

/** A conversation that matches a search, with the passage of it that matched. */
export const SearchHitSchema = z.object({
  /** Named `session` since the call was published; the pact pins the name, so it stays. */
  session: ConversationSchema,
  /** Plain text around the match ('' when only the title matched). */
  snippet: z.string(),
})
export type SearchHit = z.infer<typeof SearchHitSchema>

/**
 * The events of a streamed answer (`text/event-stream`, one JSON object per `data:` line): first
 * `sources` with the passages the answer may cite (each with its [n]), then `token`s in order,
 * then `sources` again with the passages it did use, then `done` with exactly what `send`
 * returns; or `error`. The first `sources` lets a marker show as a citation as soon as it is
 * written.
 */
export const StreamEventSchema = z.discriminatedUnion('event', [
  z.object({ event: z.literal('token'), data: z.object({ text: z.string() }) }),
  z.object({ event: z.literal('sources'), data: z.object({ sources: z.array(SourceSchema) }) }),
  z.object({ event: z.literal('done'), data: SendMessageResponseSchema }),
  z.object({ event: z.literal('error'), data: z.object({ message: z.string() }) }),
])
export type StreamEvent = z.infer<typeof StreamEventSchema>

export const chatEndpoints = {
  createConversation: endpoint({
    method: 'POST',
    path: '/chat/sessions/create',
    request: CreateConversationRequestSchema,
    data: ConversationSchema,
    status: 201,
  }),
  listConversations: endpoint({
    method: 'GET',
    path: '/chat/sessions/all',
    data: z.array(ConversationSchema),
  }),
  deleteConversation: endpoint({
    method: 'DELETE',
    path: '/chat/sessions/:id/delete',
    params: IdParamsSchema,
    data: z.null(),
  }),
  listMessages: endpoint({
    method: 'GET',
    path: '/chat/sessions/:id/messages',
    params: IdParamsSchema,
    data: z.array(MessageSchema),
  }),
  sendMessage: endpoint({
    method: 'POST',
    path: '/chat/sessions/:id/messages/send',
    params: IdParamsSchema,
    request: SendMessageRequestSchema,
    data: SendMessageResponseSchema,
  }),
  /** Not JSON: answers `text/event-stream`; `response` describes each event. */
  streamMessage: endpoint({
    method: 'POST',
    path: '/chat/sessions/:id/messages/stream',
    params: IdParamsSchema,
    request: SendMessageRequestSchema,
    kind: 'stream',
    response: StreamEventSchema,
  }),
  /**
   * Writes the last answer again, streamed like `streamMessage`; `done` carries it with the new
   * version shown (the earlier ones stay, D93). 409 once it has MAX_ANSWER_VERSIONS.
   */
  regenerateMessage: endpoint({
    method: 'POST',
    path: '/chat/sessions/:id/messages/:messageId/regenerate',
    params: MessageParamsSchema,
    kind: 'stream',
    response: StreamEventSchema,
  }),
  /** Renames the conversation, changes what it searches, or both. */
  updateConversation: endpoint({
    method: 'PATCH',
    path: '/chat/sessions/:id',
    params: IdParamsSchema,
    request: RenameConversationRequestSchema,
    data: ConversationSchema,
  }),
  searchConversations: endpoint({
    method: 'GET',
    path: '/chat/search',
    query: SearchQuerySchema,
    data: z.array(SearchHitSchema),
  }),
  setFeedback: endpoint({
    method: 'PATCH',
    path: '/chat/messages/:id/feedback',
    params: IdParamsSchema,
    request: FeedbackRequestSchema,
    data: MessageSchema,
  }),
  /** Shows another version of an answer (D93); answers the message as it now reads. */
  showAnswerVersion: endpoint({
    method: 'PATCH',
    path: '/chat/messages/:id/version',
    params: IdParamsSchema,
    request: ShowVersionRequestSchema,
    data: MessageSchema,
  }),
  /** Says why a disliked answer did not help (D93); the spec's feedback call stays as it is. */
  explainDislike: endpoint({
    method: 'PATCH',
    path: '/chat/messages/:id/feedback/reason',
    params: IdParamsSchema,
    request: DislikeReasonRequestSchema,
    data: MessageSchema,
  }),
} as const
