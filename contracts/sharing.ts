/**
 * Taking a conversation elsewhere: exporting it as a file (Markdown or PDF), and sharing a
 * read-only link to a snapshot of it that anyone with the link can open, signed in or not (D73).
 * Every conversation id is checked against the signed-in person (404 for anyone else's); the
 * shared snapshot is the only call here open to everyone.
 */
import { z } from 'zod'
import { IdParamsSchema } from './chat.ts'
import { CitationCheckSchema } from './citation-checks.ts'
import { endpoint } from './endpoint.ts'
import { FileBodySchema } from './file-body.ts'

export const EXPORT_FORMATS = ['md', 'pdf'] as const
export type ExportFormat = (typeof EXPORT_FORMATS)[number]

/** The longest share token the server looks up; anything longer is no link of ours. */
export const SHARE_TOKEN_MAX_LENGTH = 100

export const ExportQuerySchema = z.strictObject({
  format: z.enum(EXPORT_FORMATS, { error: 'Choose an export format: md or pdf.' }),
  /** The reader's time zone (IANA, e.g. Europe/Paris) for the times; UTC when absent. */
  timeZone: z.string().max(64, 'Not a valid time zone').optional(),
})

/** A citation as a shared snapshot keeps it: what it quotes and where from, nothing to open. */
export const SharedSourceSchema = z.object({
  citation: z.number().int().positive().nullable(),
  documentName: z.string(),
  page: z.number().int().positive().nullable(),
  heading: z.string().nullable(),
  quote: z.string(),
})
export type SharedSource = z.infer<typeof SharedSourceSchema>

export const SharedMessageSchema = z.object({
  isUser: z.boolean(),
  content: z.string(),
  createdAt: z.string(),
  stopped: z.boolean(),
  sources: z.array(SharedSourceSchema),
  /** An answer's citations checked (D129); null: not checked; absent on questions and older snapshots. */
  checks: z.array(CitationCheckSchema).nullable().optional(),
})
export type SharedMessage = z.infer<typeof SharedMessageSchema>

/** The conversation as it was when it was shared (or the share last updated). */
export const SharedConversationSchema = z.object({
  title: z.string(),
  /** ISO 8601: when this snapshot was taken. */
  sharedAt: z.string(),
  messages: z.array(SharedMessageSchema),
})
export type SharedConversation = z.infer<typeof SharedConversationSchema>

/** A conversation's share, as its owner sees it. */
export const ShareSchema = z.object({
  conversationId: z.string(),
  title: z.string(),
  /** The link to hand out: `{PUBLIC_URL}/s/{token}`. */
  url: z.string(),
  sharedAt: z.string(),
})
export type Share = z.infer<typeof ShareSchema>

export const ShareTokenParamsSchema = z.strictObject({
  token: z.string().max(SHARE_TOKEN_MAX_LENGTH, 'Not a valid link'),
})

export const sharingEndpoints = {
  /** The conversation as a file to download (not JSON): Markdown, or the same as a PDF. */
  exportConversation: endpoint({
    method: 'GET',
    path: '/chat/sessions/:id/export',
    params: IdParamsSchema,
    query: ExportQuerySchema,
    kind: 'file',
    response: FileBodySchema,
  }),
  /** Shares the conversation as it is now; sharing it again replaces the snapshot (same link). */
  shareConversation: endpoint({
    method: 'POST',
    path: '/chat/sessions/:id/share',
    params: IdParamsSchema,
    data: ShareSchema,
  }),
  /** Revokes the link: it answers 404 from then on. */
  unshareConversation: endpoint({
    method: 'DELETE',
    path: '/chat/sessions/:id/share',
    params: IdParamsSchema,
    data: z.null(),
  }),
  /** The person's shared conversations, most recently shared first. */
  listShares: endpoint({ method: 'GET', path: '/chat/shares', data: z.array(ShareSchema) }),
  /** The shared snapshot, for anyone with the link (no sign-in). */
  getSharedConversation: endpoint({
    method: 'GET',
    path: '/shared/:token',
    params: ShareTokenParamsSchema,
    data: SharedConversationSchema,
  }),
} as const
