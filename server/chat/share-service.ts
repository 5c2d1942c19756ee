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
import {
  type ExportFormat,
  SHARE_TOKEN_MAX_LENGTH,
  type Share,
  type SharedConversation,
  type SharedMessage,
} from '#contracts/sharing.ts'
import { Conflict, NotFound, TooLarge } from '../http/domain-errors.ts'
import { type FileReply, safeFileName } from '../http/file-reply.ts'
import { ConversationNotFound } from './chat-errors.ts'
import type { ChatRepository, MessageRecord } from './chat-repository.ts'
import { exportModel, toMarkdown } from './conversation-export.ts'
import { toPdf } from './conversation-pdf.ts'
import type { SharesRepository } from './shares-repository.ts'

export const SHARE_MESSAGES = {
  notFound: 'This shared conversation does not exist or is no longer shared.',
  empty: 'There is nothing to share yet: this conversation has no messages.',
  tooLarge: 'This conversation is too long to share.',
} as const

/** The largest snapshot a link serves (its JSON): a few hundred long answers with their quotes. */
export const SHARE_MAX_BYTES = 2 * 1024 * 1024
/** Where a shared link opens: the public page of the SPA. */
export const SHARE_PAGE_PATH = '/s/'

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
    ...(m.isUser ? {} : { checks: m.checks }),
  }
}

type Deps = {
  shares: SharesRepository
  chats: ChatRepository
  now: () => Date
  appSecret: string
  publicOrigin: string
}

export class ShareService {
  readonly #shares: SharesRepository
  readonly #chats: ChatRepository
  readonly #now: () => Date
  readonly #publicOrigin: string
  readonly #key: Buffer

  constructor({ shares, chats, now, appSecret, publicOrigin }: Deps) {
    this.#shares = shares
    this.#chats = chats
    this.#now = now
    this.#publicOrigin = publicOrigin
    this.#key = createHmac('sha256', appSecret).update('docchat share links v1').digest()
  }

  #tokenOf(nonce: string): string {
    return createHmac('sha256', this.#key).update(nonce).digest('base64url')
  }

  #urlOf(nonce: string): string {
    return `${this.#publicOrigin}${SHARE_PAGE_PATH}${this.#tokenOf(nonce)}`
  }

  /** The conversation as a file to download: Markdown, or the same as a PDF. */
  async exportFile(
    userId: string,
    conversationId: string,
    options: { format: ExportFormat; timeZone?: string | undefined },
  ): Promise<FileReply> {
    const conversation = await this.#chats.findConversation(userId, conversationId)
    if (!conversation) throw new ConversationNotFound()
    const messages = await this.#chats.listMessages(userId, conversationId)
    const model = exportModel(conversation, messages, { timeZone: options.timeZone, now: this.#now() })
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
  }

  /** Shares the conversation as it is now (or replaces the snapshot of its share). */
  async share(userId: string, conversationId: string): Promise<Share> {
    const conversation = await this.#chats.findConversation(userId, conversationId)
    if (!conversation) throw new ConversationNotFound()
    const messages = await this.#chats.listMessages(userId, conversationId)
    if (messages.length === 0) throw new Conflict(SHARE_MESSAGES.empty)
    const at = this.#now()
    const snapshot: SharedConversation = {
      title: conversation.title,
      sharedAt: at.toISOString(),
      messages: messages.map(toSharedMessage),
    }
    if (Buffer.byteLength(JSON.stringify(snapshot)) > SHARE_MAX_BYTES)
      throw new TooLarge(SHARE_MESSAGES.tooLarge)
    const fresh = randomBytes(32).toString('base64url')
    const nonce = await this.#shares.save({
      conversationId,
      userId,
      nonce: fresh,
      tokenHash: sha256(this.#tokenOf(fresh)),
      snapshot,
      at,
    })
    return { conversationId, title: conversation.title, url: this.#urlOf(nonce), sharedAt: at.toISOString() }
  }

  /** Revokes the conversation's link (nothing to do when it is not shared). */
  async unshare(userId: string, conversationId: string): Promise<void> {
    if (!(await this.#chats.findConversation(userId, conversationId))) throw new ConversationNotFound()
    await this.#shares.remove(userId, conversationId)
  }

  /** The person's shared conversations, most recently shared first, with their links. */
  async list(userId: string): Promise<Share[]> {
    return (await this.#shares.list(userId)).map((r) => ({
      conversationId: r.conversationId,
      title: r.title,
      url: this.#urlOf(r.nonce),
      sharedAt: r.sharedAt.toISOString(),
    }))
  }

  /** The snapshot a link shows, for anyone; not found for an unknown, revoked or malformed token alike. */
  async open(token: string): Promise<SharedConversation> {
    const snapshot = await this.#shares.snapshotByHash(sha256(token.slice(0, SHARE_TOKEN_MAX_LENGTH)))
    if (!snapshot) throw new NotFound(SHARE_MESSAGES.notFound)
    return snapshot
  }
}
