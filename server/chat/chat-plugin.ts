/**
 * Conversations with the assistant: the chat calls (chat-routes.ts) and `app.chat`, the service
 * they call, which stores the conversations and asks `app.answerer` for the answers; exports and
 * read-only links (sharing-routes.ts, `app.shares`).
 */
import fp from 'fastify-plugin'
import { DEFAULT_LLM_CONCURRENCY_PER_USER } from '../config.ts'
import { createChatRepository } from './chat-repository.ts'
import { chatRoutes } from './chat-routes.ts'
import { ChatService } from './chat-service.ts'
import { ShareService } from './share-service.ts'
import { createSharesRepository } from './shares-repository.ts'
import { sharingRoutes } from './sharing-routes.ts'

declare module 'fastify' {
  interface FastifyInstance {
    chat: ChatService
    /** Exports and read-only links (D73). */
    shares: ShareService
  }
}

export type ChatPluginOptions = {
  now: () => Date
  /** LLM_CONCURRENCY_PER_USER: answers one person may have written at once (D84); its default when absent. */
  answersPerPerson?: number
  /** How long a streamed answer may stay silent before a keep-alive comment (STREAM_HEARTBEAT_MS). */
  heartbeatMs?: number
}

export const chatPlugin = fp<ChatPluginOptions>(
  async (app, opts) => {
    const chats = createChatRepository(app.db)
    app.decorate(
      'chat',
      new ChatService({
        chats,
        answerer: app.answerer,
        assistants: app.assistants,
        now: opts.now,
        answersPerPerson: opts.answersPerPerson ?? DEFAULT_LLM_CONCURRENCY_PER_USER,
        usage: app.usage,
      }),
    )
    const shareRows = createSharesRepository(app.db)
    // An account taken back by its owner (D99): the links whoever held the password made end, so
    // sharing the conversation again never updates a link they know.
    app.googleAccounts.onClaimed(async (userId, log) => {
      const ended = await shareRows.removeAll(userId)
      log.info({ event: 'shares.ended-on-claim', userId, ended }, 'share links of a taken-back account ended')
    })
    app.decorate(
      'shares',
      new ShareService({
        shares: shareRows,
        chats,
        now: opts.now,
        appSecret: app.config.appSecret,
        publicOrigin: app.config.publicOrigin,
      }),
    )
    await app.register(chatRoutes, { heartbeatMs: opts.heartbeatMs })
    await app.register(sharingRoutes)
  },
  {
    name: 'chat',
    dependencies: [
      'database',
      'request-guards',
      'authentication',
      'answering',
      'assistants',
      'rate-limit',
      'usage',
    ],
  },
)
