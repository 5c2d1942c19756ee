/**
 * Conversations with the assistant: the chat calls (chat-routes.ts) and `app.chat`, the service
 * they call, which stores the conversations and asks `app.assistant` for the answers.
 */
import fp from 'fastify-plugin'
import { createChatRepository } from './chat-repository.ts'
import { chatRoutes } from './chat-routes.ts'
import { type ChatService, createChatService } from './chat-service.ts'

declare module 'fastify' {
  interface FastifyInstance {
    chat: ChatService
  }
}

export type ChatPluginOptions = {
  now: () => Date
  /** How long a streamed answer may stay silent before a keep-alive comment (STREAM_HEARTBEAT_MS). */
  heartbeatMs?: number
}

export const chatPlugin = fp<ChatPluginOptions>(
  async (app, opts) => {
    app.decorate(
      'chat',
      createChatService({ chats: createChatRepository(app.db), assistant: app.assistant, now: opts.now }),
    )
    await app.register(chatRoutes, { heartbeatMs: opts.heartbeatMs })
  },
  { name: 'chat', dependencies: ['database', 'request-guards', 'authentication', 'assistant'] },
)
