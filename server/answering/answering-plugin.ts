/**
 * Answering as `app.answerer`: retrieval over the person's own documents (hybrid, with
 * vectors, when EMBEDDING_MODEL is set) and the configured OpenAI-compatible model, or none
 * (extractive answers) when LLM_BASE_URL is unset; and `app.embeddings`, hybrid retrieval's
 * embedding work in the background.
 */
import fp from 'fastify-plugin'
import type { Config } from '../config.ts'
import { createEmbeddingService, type EmbeddingService } from '../documents/index/embedding-service.ts'
import { analyseTexts } from '../documents/index/question-analysis-repository.ts'
import { forgetOtherModels } from '../documents/index/vectors-repository.ts'
import type { Answerer } from './answer-shapes.ts'
import { createAnswerer } from './answerer.ts'
import { createEmbedder } from './embedder.ts'
import { createLlm } from './llm.ts'
import { createSearch, createWholeDocumentReader } from './retrieval.ts'

declare module 'fastify' {
  interface FastifyInstance {
    answerer: Answerer
    /** Hybrid retrieval's embedding work, null without EMBEDDING_MODEL: `schedule(userId)` after an ingest. */
    embeddings: EmbeddingService | null
  }
}

export type AnsweringPluginOptions = {
  llm: Config['llm']
  retrieval: Config['retrieval']
  embedding?: Config['embedding']
  /** A Google OAuth client is set: answers without a model may point to Google Drive (D133). */
  drive?: boolean
  /** CITATION_JUDGE=model: the model judges what the citation check cannot vouch for (D140). */
  citationJudge?: boolean
}

export const answeringPlugin = fp<AnsweringPluginOptions>(
  async (app, opts) => {
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
    /** `work`, its duration counted as retrieval time when metrics are on. */
    const measured = <A extends unknown[], R>(work: (...args: A) => Promise<R>) =>
      metrics
        ? async (...args: A): Promise<R> => {
            const started = performance.now()
            try {
              return await work(...args)
            } finally {
              metrics.retrieval((performance.now() - started) / 1000)
            }
          }
        : work
    const answerer = createAnswerer({
      search: measured(createSearch(app.db, { ...opts.retrieval, embeddings, warn: log.warn })),
      readWhole: measured(createWholeDocumentReader(app.db, opts.retrieval.wholeDocumentTokenBudget)),
      analyse: (items) => analyseTexts(app.db, items),
      drive: opts.drive ?? true,
      citationJudge: opts.citationJudge ?? false,
      llm: opts.llm ? createLlm(opts.llm, metrics ? (usage) => metrics.model(usage) : undefined) : null,
    })
    app.decorate('answerer', answerer)
  },
  { name: 'answering', dependencies: ['database', 'operations'] },
)
