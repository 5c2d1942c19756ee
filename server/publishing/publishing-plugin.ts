/**
 * Publishing an assistant (issue 37, D117, D118): `app.publishing` (the settings, plugged into the
 * assistants' calls, and the identity secret), `app.visitors` (the visitor calls), and the public
 * pages. Above the assistants, beside the chat: visitors' conversations are its own. Every
 * visitor answer is admitted by the VisitorBudgets port (`visitorBudgets`), which the app is
 * given: the budgets counted in the database.
 */
import fp from 'fastify-plugin'
import { createTokenCipher } from '../drive/token-crypto.ts'
import { publicPages } from './public-pages.ts'
import { publicRoutes } from './public-routes.ts'
import { createPublishingRepository } from './publishing-repository.ts'
import { publishingRoutes } from './publishing-routes.ts'
import { PublishingService } from './publishing-service.ts'
import type { VisitorBudgets } from './visitor-budgets.ts'
import { createVisitorBudgets } from './visitor-budgets-service.ts'
import { createVisitorRepository } from './visitor-repository.ts'
import { VisitorService } from './visitor-service.ts'

declare module 'fastify' {
  interface FastifyInstance {
    publishing: PublishingService
    visitors: VisitorService
  }
}

/** The key that seals identity secrets: APP_SECRET's, under a label of its own. */
export const IDENTITY_SECRET_PURPOSE = 'assistant-identity-secret-v1'
/** As the app's stream (chat-routes.ts' STREAM_HEARTBEAT_MS). */
const VISITOR_STREAM_HEARTBEAT_MS = 15_000

export type PublishingPluginOptions = {
  now: () => Date
  /** Replaces the budgets counted in the database (tests of the visitor calls). */
  visitorBudgets?: VisitorBudgets | undefined
  distDir: string
  heartbeatMs?: number | undefined
}

export const publishingPlugin = fp<PublishingPluginOptions>(
  async (app, opts) => {
    const publishing = new PublishingService({
      rows: createPublishingRepository(app.db),
      cipher: createTokenCipher(app.config.appSecret, IDENTITY_SECRET_PURPOSE),
      now: opts.now,
      checkOwner: async (userId, assistantId) => {
        await app.assistants.forConversation({ id: userId }, assistantId)
      },
    })
    app.decorate('publishing', publishing)
    app.assistants.usePublishing(publishing)
    app.decorate(
      'visitors',
      new VisitorService({
        publishing,
        visitors: createVisitorRepository(app.db),
        answerer: app.answerer,
        answerSettings: (ownerId, assistantId) => app.assistants.answerSettings(ownerId, assistantId),
        budgets:
          opts.visitorBudgets ??
          createVisitorBudgets({
            db: app.db,
            now: opts.now,
            publishedConcurrency: app.config.publishedConcurrency,
            usageTokensPerDay: app.config.usageTokensPerDay,
          }),
        now: opts.now,
        modelAnswers: app.config.llm !== null,
      }),
    )
    await app.register(publishingRoutes)
    await app.register(publicRoutes, { heartbeatMs: opts.heartbeatMs ?? VISITOR_STREAM_HEARTBEAT_MS })
    await app.register(publicPages, { distDir: opts.distDir })
  },
  {
    name: 'publishing',
    dependencies: [
      'database',
      'request-guards',
      'security-headers',
      'authentication',
      'answering',
      'assistants',
    ],
  },
)
