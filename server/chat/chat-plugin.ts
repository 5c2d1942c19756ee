/**
 * Conversations with the assistant: the chat calls (chat-routes.ts) and `app.chat`, the service
 * they call, which stores the conversations and asks `app.assistant` for the answers.
 */
import fp from 'fastify-plugin'
import { DEFAULT_LLM_CONCURRENCY_PER_USER } from '../config.ts'
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
  /** LLM_CONCURRENCY_PER_USER: answers one person may have written at once (D84); its default when absent. */
  answersPerPerson?: number
  /** How long a streamed answer may stay silent before a keep-alive comment (STREAM_HEARTBEAT_MS). */
  heartbeatMs?: number
}

export const chatPlugin = fp<ChatPluginOptions>(
  async (app, opts) => {
    app.decorate(
      'chat',
      createChatService({
        chats: createChatRepository(app.db),
        assistant: app.assistant,
        now: opts.now,
        answersPerPerson: opts.answersPerPerson ?? DEFAULT_LLM_CONCURRENCY_PER_USER,
      }),
    )
    await app.register(chatRoutes, { heartbeatMs: opts.heartbeatMs })
  },
  { name: 'chat', dependencies: ['database', 'request-guards', 'authentication', 'assistant'] },
)
