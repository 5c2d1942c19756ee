/**
 * Taking a conversation elsewhere (`app.shares`, D73): exporting it as a file (Markdown or PDF,
 * conversation-export.ts), and read-only links to it. Sharing takes a snapshot of the
 * conversation (its messages and their citations' quotes, nothing else: no document, link, id or
 * other passage) and answers the link; sharing again replaces the snapshot and keeps the link;
 * revoking deletes it, and the link answers 404 from then on, exactly as one that never existed.
 *
 * The token is `HMAC-SHA256(key, nonce)` with a random 256-bit nonce and a key derived from
 * APP_SECRET; only the nonce and the token's SHA-256 are stored. The database alone gives no
 * working link, and the owner can be shown theirs again. A lookup is one indexed read by the
 * hash: an unknown token and a revoked one take the same path.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto'
import { httpErrors } from '@fastify/sensible'
import { and, desc, eq } from 'drizzle-orm'
import {
  type ExportFormat,
  SHARE_TOKEN_MAX_LENGTH,
  type Share,
  type SharedConversation,
  type SharedMessage,
} from '#contracts/sharing.ts'
import type { Db } from '../db/database.ts'
import { chatConversations, chatShares } from '../db/schema.ts'
import { type FileReply, safeFileName } from '../http/file-reply.ts'
import type { ChatRepository, MessageRecord } from './chat-repository.ts'
import { CONVERSATION_NOT_FOUND } from './chat-service.ts'
import { exportModel, toMarkdown } from './conversation-export.ts'
import { toPdf } from './conversation-pdf.ts'

export const SHARE_MESSAGES = {
  notFound: 'This shared conversation does not exist or is no longer shared.',
  empty: 'There is nothing to share yet: this conversation has no messages.',
  tooLarge: 'This conversation is too long to share.',
} as const

/** The largest snapshot a link serves (its JSON): a few hundred long answers with their quotes. */
export const SHARE_MAX_BYTES = 2 * 1024 * 1024
/** Where a shared link opens: the public page of the SPA. */
export const SHARE_PAGE_PATH = '/s/'

export type ShareService = ReturnType<typeof createShareService>

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex')

export function toSharedMessage(m: MessageRecord): SharedMessage {
  return {
    isUser: m.isUser,
    content: m.content,
    createdAt: m.createdAt.toISOString(),
    stopped: m.stopped,
    // Only what the answer quoted, and where from: a snapshot never opens a document.
    sources: m.sources.map((s) => ({
      citation: s.citation ?? null,
      documentName: s.documentName,
      page: s.page,
      heading: s.heading ?? null,
      quote: s.quote ?? '',
    })),
  }
}

export function createShareService(deps: {
  db: Db
  chats: ChatRepository
  now: () => Date
  appSecret: string
  publicOrigin: string
}) {
  const { db, chats, now, publicOrigin } = deps
  const key = createHmac('sha256', deps.appSecret).update('docchat share links v1').digest()
  const tokenOf = (nonce: string) => createHmac('sha256', key).update(nonce).digest('base64url')
  const urlOf = (nonce: string) => `${publicOrigin}${SHARE_PAGE_PATH}${tokenOf(nonce)}`

  return {
    /** The conversation as a file to download: Markdown, or the same as a PDF. */
    async exportFile(
      userId: string,
      conversationId: string,
      options: { format: ExportFormat; timeZone?: string | undefined },
    ): Promise<FileReply> {
      const conversation = await chats.findConversation(userId, conversationId)
      if (!conversation) throw httpErrors.notFound(CONVERSATION_NOT_FOUND)
      const messages = await chats.listMessages(userId, conversationId)
      const model = exportModel(conversation, messages, { timeZone: options.timeZone, now: now() })
      const name = safeFileName(conversation.title, 'conversation')
      if (options.format === 'pdf') {
        return {
          bytes: await toPdf(model),
          contentType: 'application/pdf',
          fileName: `${name}.pdf`,
          disposition: 'attachment',
        }
      }
      return {
        bytes: Buffer.from(await toMarkdown(model)),
        contentType: 'text/markdown; charset=utf-8',
        fileName: `${name}.md`,
        disposition: 'attachment',
      }
    },

    /** Shares the conversation as it is now (or replaces the snapshot of its share). */
    async share(userId: string, conversationId: string): Promise<Share> {
      const conversation = await chats.findConversation(userId, conversationId)
      if (!conversation) throw httpErrors.notFound(CONVERSATION_NOT_FOUND)
      const messages = await chats.listMessages(userId, conversationId)
      if (messages.length === 0) throw httpErrors.conflict(SHARE_MESSAGES.empty)
      const at = now()
      const snapshot: SharedConversation = {
        title: conversation.title,
        sharedAt: at.toISOString(),
        messages: messages.map(toSharedMessage),
      }
      if (Buffer.byteLength(JSON.stringify(snapshot)) > SHARE_MAX_BYTES)
        throw httpErrors.payloadTooLarge(SHARE_MESSAGES.tooLarge)
      const nonce = randomBytes(32).toString('base64url')
      const [row] = await db
        .insert(chatShares)
        .values({
          conversationId,
          userId,
          nonce,
          tokenHash: sha256(tokenOf(nonce)),
          snapshot,
          createdAt: at,
          updatedAt: at,
        })
        .onConflictDoUpdate({ target: chatShares.conversationId, set: { snapshot, updatedAt: at } })
        .returning({ nonce: chatShares.nonce })
      if (!row) throw new Error('Storing a share returned no row')
      return { conversationId, title: conversation.title, url: urlOf(row.nonce), sharedAt: at.toISOString() }
    },

    /** Revokes the conversation's link (nothing to do when it is not shared). */
    async unshare(userId: string, conversationId: string): Promise<void> {
      if (!(await chats.findConversation(userId, conversationId)))
        throw httpErrors.notFound(CONVERSATION_NOT_FOUND)
      await db
        .delete(chatShares)
        .where(and(eq(chatShares.conversationId, conversationId), eq(chatShares.userId, userId)))
    },

    /** The person's shared conversations, most recently shared first, with their links. */
    async list(userId: string): Promise<Share[]> {
      const rows = await db
        .select({
          conversationId: chatShares.conversationId,
          title: chatConversations.title,
          nonce: chatShares.nonce,
          sharedAt: chatShares.updatedAt,
        })
        .from(chatShares)
        .innerJoin(chatConversations, eq(chatConversations.id, chatShares.conversationId))
        .where(eq(chatShares.userId, userId))
        .orderBy(desc(chatShares.updatedAt), desc(chatShares.conversationId))
      return rows.map((r) => ({
        conversationId: r.conversationId,
        title: r.title,
        url: urlOf(r.nonce),
        sharedAt: r.sharedAt.toISOString(),
      }))
    },

    /** The snapshot a link shows, for anyone; 404 for an unknown, revoked or malformed token alike. */
    async open(token: string): Promise<SharedConversation> {
      const hash = sha256(token.slice(0, SHARE_TOKEN_MAX_LENGTH))
      const [row] = await db
        .select({ snapshot: chatShares.snapshot })
        .from(chatShares)
        .where(eq(chatShares.tokenHash, hash))
      if (!row) throw httpErrors.notFound(SHARE_MESSAGES.notFound)
      return row.snapshot as SharedConversation
    },
  }
}
