/**
 * The chat service as `app.chat`, with its assistant: retrieval over the user's own documents,
 * and the configured OpenAI-compatible model, or none (extractive answers) when LLM_BASE_URL is
 * unset.
 */
import { createAssistant } from '../../assistant/assistant.ts'
import { createLlm } from '../../assistant/llm.ts'
import { createRetriever } from '../../assistant/retrieval.ts'
import { type ChatService, createChatService } from '../../chat/chat-service.ts'
import type { Config } from '../../config.ts'
import { createChatRepository } from '../../repositories/chat-repository.ts'
import { sharedPlugin } from '../shared-plugin.ts'

declare module 'fastify' {
  interface FastifyInstance {
    chat: ChatService
  }
}

export const chatPlugin = sharedPlugin<{
  llm: Config['llm']
  retrieval: Config['retrieval']
  now: () => Date
}>('chat', async (app, opts) => {
  const { metrics } = app
  const retrieve = createRetriever(app.db, opts.retrieval)
  const assistant = createAssistant({
    retrieve: metrics
      ? async (...args) => {
          const started = performance.now()
          try {
            return await retrieve(...args)
          } finally {
            metrics.retrieval((performance.now() - started) / 1000)
          }
        }
      : retrieve,
    llm: opts.llm ? createLlm(opts.llm, metrics ? (usage) => metrics.model(usage) : undefined) : null,
  })
  app.decorate('chat', createChatService({ chats: createChatRepository(app.db), assistant, now: opts.now }))
})
