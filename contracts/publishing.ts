/**
 * Publishing an assistant (issue 37): the owner's settings (sent with PATCH /assistants/:id), the
 * identity secret, the owner's inbox of visitor conversations, and the visitor calls under
 * /public/assistants/:publicId — which never take or set a session cookie of ours, and answer an
 * unknown, unpublished or deleted public id with the same 404.
 */
import { z } from 'zod'
import { FeedbackSchema } from './chat.ts'
import { CitationCheckSchema } from './citation-checks.ts'
import { endpoint } from './endpoint.ts'
import { userText } from './user-text.ts'

/** The longest question a visitor may ask; longer is refused with 400. */
export const VISITOR_QUESTION_MAX_LENGTH = 2000
/** How much of a cited passage a visitor sees. */
export const VISITOR_SNIPPET_MAX_LENGTH = 300
export const ALLOWED_ORIGINS_MAX = 20
export const BUSY_MESSAGE_MAX_LENGTH = 300
export const PRIVACY_NOTICE_MAX_LENGTH = 500
export const RETENTION_DAYS_MAX = 365
export const DEFAULT_RETENTION_DAYS = 90
export const DEFAULT_BUSY_MESSAGE = 'This assistant is busy right now. Please try again in a little while.'

/**
 * An allowed site: an exact origin (`https://intranet.example.com`, `http://127.0.0.1:5180`) or a
 * wildcard of subdomains (`https://*.example.com`); no path, no trailing slash.
 */
export const AllowedOriginSchema = z
  .string({ error: 'An allowed site must be an origin such as https://www.example.com' })
  .trim()
  .regex(
    /^https?:\/\/(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:\d{1,5})?$/,
    'An allowed site must be an origin such as https://www.example.com or https://*.example.com (no path)',
  )

const budget = (what: string) =>
  z
    .number({ error: `${what} must be a number` })
    .int(`${what} must be a whole number`)
    .min(0, `${what} must be at least 0`)
    .max(1_000_000_000, `${what} is too large`)

export const BudgetsSchema = z.strictObject({
  answersPerDay: budget('Answers a day'),
  tokensPerDay: budget('Tokens a day'),
  visitorAnswersPerHour: budget('Answers a visitor an hour'),
  visitorAnswersPerDay: budget('Answers a visitor a day'),
})
export type Budgets = z.infer<typeof BudgetsSchema>
export const DEFAULT_BUDGETS: Budgets = {
  answersPerDay: 500,
  tokensPerDay: 500_000,
  visitorAnswersPerHour: 20,
  visitorAnswersPerDay: 50,
}

/** What the owner sets with PATCH /assistants/:id (every field optional there). */
export const PublishingRequestSchema = z.strictObject({
  published: z.boolean({ error: 'published must be true or false' }),
  allowedOrigins: z
    .array(AllowedOriginSchema, { error: 'allowedOrigins must be a list of origins' })
    .max(ALLOWED_ORIGINS_MAX, `At most ${ALLOWED_ORIGINS_MAX} allowed sites`),
  publicPage: z.boolean({ error: 'publicPage must be true or false' }),
  allowIndexing: z.boolean({ error: 'allowIndexing must be true or false' }),
  showSourceNames: z.boolean({ error: 'showSourceNames must be true or false' }),
  /** Leave out of a visitor's answers the sentences the citation check could not find in the documents (issue 39). */
  hideUnverified: z.boolean({ error: 'hideUnverified must be true or false' }),
  busyMessage: userText(
    z
      .string()
      .trim()
      .min(1, 'The busy message must not be empty')
      .max(BUSY_MESSAGE_MAX_LENGTH, `The busy message must be at most ${BUSY_MESSAGE_MAX_LENGTH} characters`),
    'Busy message',
  ),
  privacyNotice: userText(
    z
      .string()
      .trim()
      .max(
        PRIVACY_NOTICE_MAX_LENGTH,
        `The privacy line must be at most ${PRIVACY_NOTICE_MAX_LENGTH} characters`,
      ),
    'Privacy line',
  ),
  budgets: BudgetsSchema,
  /** Ask visitors' browsers for a self-hosted proof of work (ALTCHA) before their first question. */
  requireChallenge: z.boolean({ error: 'requireChallenge must be true or false' }),
  retentionDays: z
    .number({ error: 'retentionDays must be a number' })
    .int()
    .min(1, 'Keep visitor conversations at least 1 day')
    .max(RETENTION_DAYS_MAX, `Keep visitor conversations at most ${RETENTION_DAYS_MAX} days`),
})
export type PublishingRequest = z.infer<typeof PublishingRequestSchema>

/** The owner's view of the publication; `publicId` is null until first published. */
export const PublishingSchema = PublishingRequestSchema.extend({
  publicId: z.string().nullable(),
  /** Whether an identity secret exists (it is shown once, when made or rotated). */
  hasIdentitySecret: z.boolean(),
})
export type Publishing = z.infer<typeof PublishingSchema>

/** An assistant never published: publishing off, every setting at its default. */
export const DEFAULT_PUBLISHING: Publishing = {
  published: false,
  allowedOrigins: [],
  publicPage: true,
  allowIndexing: false,
  showSourceNames: true,
  hideUnverified: false,
  busyMessage: DEFAULT_BUSY_MESSAGE,
  privacyNotice: '',
  budgets: DEFAULT_BUDGETS,
  requireChallenge: false,
  retentionDays: DEFAULT_RETENTION_DAYS,
  publicId: null,
  hasIdentitySecret: false,
}

export const IdentitySecretSchema = z.object({ secret: z.string() })

/* ---------- the owner's inbox ---------- */

export const InboxQuerySchema = z.strictObject({
  filter: z.enum(['all', 'unanswered'], { error: 'filter must be "all" or "unanswered"' }).optional(),
  /** An opaque cursor from the previous page's `next`. */
  cursor: z.string().max(200).optional(),
  format: z.enum(['json', 'csv'], { error: 'format must be "json" or "csv"' }).optional(),
})

export const VisitorSchema = z.object({
  /** The anonymous id (a short, stable label) or the signed user's `sub`. */
  id: z.string(),
  signed: z.boolean(),
  name: z.string().nullable(),
  email: z.string().nullable(),
})

export const InboxConversationSchema = z.object({
  _id: z.string(),
  visitor: VisitorSchema,
  firstQuestion: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  messageCount: z.number().int().nonnegative(),
  unanswered: z.boolean(),
  likes: z.number().int().nonnegative(),
  dislikes: z.number().int().nonnegative(),
})

export const InboxSchema = z.object({
  conversations: z.array(InboxConversationSchema),
  next: z.string().nullable(),
  /** The most asked questions (normalised) of the last 7 and 30 days. */
  topQuestions: z.object({
    days7: z.array(z.object({ question: z.string(), count: z.number().int() })),
    days30: z.array(z.object({ question: z.string(), count: z.number().int() })),
  }),
  /** Per day, the last 30 days, oldest first. */
  perDay: z.array(z.object({ day: z.string(), conversations: z.number().int(), tokens: z.number().int() })),
})

/* ---------- what a visitor sees ---------- */

export const PublicAssistantSchema = z.object({
  publicId: z.string(),
  name: z.string(),
  description: z.string(),
  starterQuestions: z.array(z.string()),
  privacyNotice: z.string(),
  /** Whether the visitor's first question needs an ALTCHA solution (`challenge` on the stream call). */
  requireChallenge: z.boolean(),
})
export type PublicAssistant = z.infer<typeof PublicAssistantSchema>

/** A cited passage as a visitor sees it: a snippet, and the document's name unless the owner hides it. */
export const PublicSourceSchema = z.object({
  citation: z.number().int().positive(),
  documentName: z.string().nullable(),
  page: z.number().int().positive().nullable(),
  snippet: z.string().max(VISITOR_SNIPPET_MAX_LENGTH),
})
export type PublicSource = z.infer<typeof PublicSourceSchema>

export const PublicMessageSchema = z.object({
  _id: z.string(),
  isUser: z.boolean(),
  content: z.string(),
  createdAt: z.string(),
  feedback: FeedbackSchema.nullable(),
  sources: z.array(PublicSourceSchema),
  /**
   * The answer's citations checked against its passages, as the app's answers carry them (D129,
   * D135), less the sentences citing nothing (a visitor's answer keeps checks with its snippets).
   * null: not checked. Absent on questions, and from servers before the checks.
   */
  checks: z.array(CitationCheckSchema).nullable().optional(),
})
export type PublicMessage = z.infer<typeof PublicMessageSchema>

export const PublicParamsSchema = z.strictObject({
  publicId: z.string().min(1).max(64, 'Not a valid assistant'),
})
export const PublicMessageParamsSchema = PublicParamsSchema.extend({ id: z.uuid('Not a valid message id') })

export const PublicAskRequestSchema = z.strictObject({
  content: userText(
    z
      .string({ error: 'Write a question' })
      .trim()
      .min(1, 'Write a question')
      .max(
        VISITOR_QUESTION_MAX_LENGTH,
        `A question can be at most ${VISITOR_QUESTION_MAX_LENGTH} characters`,
      ),
    'Question',
  ),
  /** Carry on this conversation of the same visitor; absent: a new one. */
  conversationId: z.uuid('Not a valid conversation id').optional(),
  /** The host site's signed JWT for its signed-in user (HS256 with the identity secret). */
  userToken: z.string().max(4000).optional(),
  /** An ALTCHA solution (base64 JSON), when the assistant asks for one. */
  challenge: z.string().max(4000).optional(),
})
export type PublicAskRequest = z.infer<typeof PublicAskRequestSchema>

export const PublicAnswerSchema = z.object({
  conversationId: z.string(),
  userMessage: PublicMessageSchema,
  aiMessage: PublicMessageSchema,
})

/** The same events as the app's stream, with what a visitor may see in them. */
export const PublicStreamEventSchema = z.discriminatedUnion('event', [
  z.object({ event: z.literal('token'), data: z.object({ text: z.string() }) }),
  z.object({ event: z.literal('done'), data: PublicAnswerSchema }),
  z.object({ event: z.literal('error'), data: z.object({ message: z.string() }) }),
])
export type PublicStreamEvent = z.infer<typeof PublicStreamEventSchema>

/**
 * An ALTCHA challenge (altcha 3's format, which its widget fetches from its `challenge` address
 * and checks for these fields): answered bare, since the widget reads the body as the challenge.
 */
export const PublicChallengeSchema = z.object({
  parameters: z.looseObject({
    algorithm: z.string(),
    nonce: z.string(),
    salt: z.string(),
    cost: z.number(),
    keyLength: z.number(),
    keyPrefix: z.string(),
    /** Signed with the rest: dropping it would void the signature. */
    data: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).optional(),
  }),
  signature: z.string(),
})
export type PublicChallenge = z.infer<typeof PublicChallengeSchema>

export const PublicConversationSchema = z.object({
  conversationId: z.string(),
  messages: z.array(PublicMessageSchema),
})

export const publishingEndpoints = {
  rotateIdentitySecret: endpoint({
    method: 'POST',
    path: '/assistants/:id/identity-secret',
    params: z.strictObject({ id: z.uuid('Not a valid id') }),
    data: IdentitySecretSchema,
  }),
  inbox: endpoint({
    method: 'GET',
    path: '/assistants/:id/conversations',
    params: z.strictObject({ id: z.uuid('Not a valid id') }),
    query: InboxQuerySchema,
    data: InboxSchema,
  }),
  inboxConversation: endpoint({
    method: 'GET',
    path: '/assistants/:id/conversations/:conversationId',
    params: z.strictObject({ id: z.uuid('Not a valid id'), conversationId: z.uuid('Not a valid id') }),
    data: z.object({ conversation: InboxConversationSchema, messages: z.array(PublicMessageSchema) }),
  }),
  deleteInboxConversations: endpoint({
    method: 'DELETE',
    path: '/assistants/:id/conversations',
    params: z.strictObject({ id: z.uuid('Not a valid id') }),
    data: z.object({ deleted: z.number().int() }),
  }),
  deleteInboxConversation: endpoint({
    method: 'DELETE',
    path: '/assistants/:id/conversations/:conversationId',
    params: z.strictObject({ id: z.uuid('Not a valid id'), conversationId: z.uuid('Not a valid id') }),
    data: z.null(),
  }),
}

export const publicEndpoints = {
  getPublicAssistant: endpoint({
    method: 'GET',
    path: '/public/assistants/:publicId',
    params: PublicParamsSchema,
    data: PublicAssistantSchema,
  }),
  /** The visitor's current conversation (from their cookie), or 404 when they have none. */
  getVisitorConversation: endpoint({
    method: 'GET',
    path: '/public/assistants/:publicId/conversation',
    params: PublicParamsSchema,
    data: PublicConversationSchema,
  }),
  /**
   * A signed visitor's current conversation, on any device: their token names them (`sub`), not
   * the cookie. A POST only because the token goes in the body, never in a URL; 404 when none.
   */
  getSignedConversation: endpoint({
    method: 'POST',
    path: '/public/assistants/:publicId/signed-conversation',
    params: PublicParamsSchema,
    request: z.strictObject({
      userToken: z
        .string({ error: 'Send the signed-in user’s token' })
        .min(1, 'Send the signed-in user’s token')
        .max(4000, 'This user token is too long'),
    }),
    data: PublicConversationSchema,
  }),
  /** A proof of work for the visitor's first question (only asked for when `requireChallenge`). */
  getChallenge: endpoint({
    method: 'GET',
    path: '/public/assistants/:publicId/challenge',
    params: PublicParamsSchema,
    response: PublicChallengeSchema,
  }),
  ask: endpoint({
    method: 'POST',
    path: '/public/assistants/:publicId/messages/stream',
    params: PublicParamsSchema,
    request: PublicAskRequestSchema,
    response: PublicStreamEventSchema,
    kind: 'stream',
  }),
  feedback: endpoint({
    method: 'POST',
    path: '/public/assistants/:publicId/messages/:id/feedback',
    params: PublicMessageParamsSchema,
    /** `userToken`: a signed visitor's answers are theirs by their token, not by the cookie. */
    request: z.strictObject({ feedback: FeedbackSchema, userToken: z.string().max(4000).optional() }),
    data: z.null(),
  }),
}
