/**
 * Conversations with the assistant: the chat calls of SPEC §7 and the entities of §3.
 * Every id in a path is checked against the signed-in user by the server (another user's id
 * answers 404, exactly as a missing one).
 */
import { z } from 'zod'
import { endpoint, okEnvelope } from './endpoint.ts'
import { userText } from './user-text.ts'

/** The longest message a person can send; longer content is refused with 400. */
export const MESSAGE_MAX_LENGTH = 8000
/** A session title is the first message (SPEC §4); it is stored shortened to this length. */
export const TITLE_MAX_LENGTH = 120
/** How much of the last message the session list carries (for the sidebar and History). */
export const LAST_MESSAGE_PREVIEW_LENGTH = 200

export const FEEDBACK_VALUES = ['like', 'dislike'] as const
export const FeedbackSchema = z.enum(FEEDBACK_VALUES, { error: 'Feedback must be "like" or "dislike"' })
export type Feedback = z.infer<typeof FeedbackSchema>

export const IdParamsSchema = z.strictObject({ id: z.uuid('Not a valid id') })

export const ChatSessionSchema = z.object({
  _id: z.string(),
  title: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** SPEC §3 uses only the count of a session's messages; the bodies are not shipped in lists. */
  messageCount: z.number().int().nonnegative(),
  /** The start of the newest message, '' for a new session. */
  lastMessage: z.string(),
})
export type ChatSession = z.infer<typeof ChatSessionSchema>

/** A passage of the user's own documents that an answer drew on. */
export const SourceSchema = z.object({
  documentId: z.string(),
  documentName: z.string(),
  chunkId: z.string(),
  /** 1-based page for PDFs, null otherwise. */
  page: z.number().int().positive().nullable(),
  /** Where a person can open the document (a Drive webViewLink), null when there is none. */
  link: z.string().nullable(),
})
export type Source = z.infer<typeof SourceSchema>

export const MessageSchema = z.object({
  _id: z.string(),
  isUser: z.boolean(),
  content: z.string(),
  createdAt: z.string(),
  messageType: z.literal('text'),
  feedback: FeedbackSchema.nullable(),
  sources: z.array(SourceSchema),
})
export type Message = z.infer<typeof MessageSchema>

export const CreateSessionRequestSchema = z.strictObject({
  title: userText(
    z
      .string({ error: 'Title is required' })
      .trim()
      .min(1, 'Title is required')
      .max(MESSAGE_MAX_LENGTH, `Title must be at most ${MESSAGE_MAX_LENGTH} characters`),
    'Title',
  ),
})
export type CreateSessionRequest = z.infer<typeof CreateSessionRequestSchema>

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

export const chatEndpoints = {
  createSession: endpoint({
    method: 'POST',
    path: '/chat/sessions/create',
    request: CreateSessionRequestSchema,
    response: okEnvelope(ChatSessionSchema),
  }),
  listSessions: endpoint({
    method: 'GET',
    path: '/chat/sessions/all',
    request: undefined,
    response: okEnvelope(z.array(ChatSessionSchema)),
  }),
  deleteSession: endpoint({
    method: 'DELETE',
    path: '/chat/sessions/:id/delete',
    request: undefined,
    response: okEnvelope(z.null()),
  }),
  listMessages: endpoint({
    method: 'GET',
    path: '/chat/sessions/:id/messages',
    request: undefined,
    response: okEnvelope(z.array(MessageSchema)),
  }),
  sendMessage: endpoint({
    method: 'POST',
    path: '/chat/sessions/:id/messages/send',
    request: SendMessageRequestSchema,
    response: okEnvelope(SendMessageResponseSchema),
  }),
  setFeedback: endpoint({
    method: 'PATCH',
    path: '/chat/messages/:id/feedback',
    request: FeedbackRequestSchema,
    response: okEnvelope(MessageSchema),
  }),
} as const
