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
import type { Admission, VisitorBudgets } from './visitor-budgets.ts'
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

/**
 * Admits every answer and counts nothing: what the app uses until the database budgets are
 * passed as `visitorBudgets` (issue 37's VisitorBudgets, built beside this plugin).
 */
export const ADMIT_EVERY_VISITOR: VisitorBudgets = {
  admit: async (): Promise<Admission> => ({ kind: 'admitted', finish: async () => {} }),
}

export type PublishingPluginOptions = {
  now: () => Date
  visitorBudgets: VisitorBudgets
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
        budgets: opts.visitorBudgets,
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
