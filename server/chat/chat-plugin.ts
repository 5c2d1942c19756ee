/**
 * The chat service as `app.chat`, with its assistant: retrieval over the user's own documents
 * (hybrid, with vectors, when EMBEDDING_MODEL is set), and the configured OpenAI-compatible
 * model, or none (extractive answers) when LLM_BASE_URL is unset.
 */
import { createAssistant } from '../assistant/assistant.ts'
import {
  createEmbedder,
  createEmbeddingService,
  type EmbeddingService,
  forgetOtherModels,
} from '../assistant/embeddings.ts'
import { createLlm } from '../assistant/llm.ts'
import { createRetriever } from '../assistant/retrieval.ts'
import type { Config } from '../config.ts'
import { sharedPlugin } from '../plugins/shared-plugin.ts'
import { createChatRepository } from './chat-repository.ts'
import { type ChatService, createChatService } from './chat-service.ts'

declare module 'fastify' {
  interface FastifyInstance {
    chat: ChatService
    /** Hybrid retrieval's embedding work, null without EMBEDDING_MODEL: `schedule(userId)` after an ingest. */
    embeddings: EmbeddingService | null
  }
}

export const chatPlugin = sharedPlugin<{
  llm: Config['llm']
  retrieval: Config['retrieval']
  embedding?: Config['embedding']
  now: () => Date
}>('chat', async (app, opts) => {
  const log = { warn: (m: string) => app.log.warn(m), info: (m: string) => app.log.info(m) }
  const embeddings = opts.embedding
    ? createEmbeddingService(app.db, createEmbedder(opts.embedding), log)
    : null
  if (embeddings) {
    // After a model change the old vectors go and every passage is embedded again, in the background.
    const model = embeddings.embedder.model
    const startup = embeddings
      .ready()
      .then(async (ready) => {
        if (!ready) return
        await forgetOtherModels(app.db, model)
        await embeddings.schedule()
      })
      .catch((error: unknown) => log.warn(`Preparing embeddings failed: ${(error as Error).message}`))
    app.addHook('onClose', async () => {
      await startup
    })
  }
  app.decorate('embeddings', embeddings)
  const { metrics } = app
  const retrieve = createRetriever(app.db, { ...opts.retrieval, embeddings, warn: log.warn })
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
