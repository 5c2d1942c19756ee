/**
 * Publishing an assistant (issue 37, D117, D118): `app.publishing` (the settings, plugged into the
 * assistants' calls, and the identity secret), `app.visitors` (the visitor calls), and the public
 * pages. Above the assistants, beside the chat: visitors' conversations are its own. Every
 * visitor answer is admitted by the VisitorBudgets port (`visitorBudgets`), which the app is
 * given: the budgets counted in the database.
 */
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { createTokenCipher } from '../drive/token-crypto.ts'
import { proofOfWorkOn } from './challenge.ts'
import { createInboxRepository } from './inbox-repository.ts'
import { InboxService } from './inbox-service.ts'
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
    inbox: InboxService
  }
}

/** The key that seals identity secrets: APP_SECRET's, under a label of its own. */
export const IDENTITY_SECRET_PURPOSE = 'assistant-identity-secret-v1'
/** How often visitor conversations past their retention are deleted (retention is counted in days). */
export const RETENTION_SWEEP_MS = 60 * 60_000
/** As the app's stream (chat-routes.ts' STREAM_HEARTBEAT_MS). */
const VISITOR_STREAM_HEARTBEAT_MS = 15_000

export type PublishingPluginOptions = {
  now: () => Date
  /** Replaces the budgets counted in the database (tests of the visitor calls). */
  visitorBudgets?: VisitorBudgets | undefined
  distDir: string
  heartbeatMs?: number | undefined
  /** 0 turns the retention sweep's timer off (tests call `app.inbox.sweepExpired` themselves). */
  retentionSweepMs?: number | undefined
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
        proofOfWork: proofOfWorkOn(app.db, { appSecret: app.config.appSecret, now: opts.now }),
        now: opts.now,
        modelAnswers: app.config.llm !== null,
      }),
    )
    const inbox = new InboxService({
      rows: createInboxRepository(app.db),
      now: opts.now,
      checkOwner: async (userId, assistantId) => {
        await app.assistants.forConversation({ id: userId }, assistantId)
      },
      showSourceNames: async (userId, assistantId) =>
        (await publishing.view(userId, assistantId)).showSourceNames,
    })
    app.decorate('inbox', inbox)
    sweepRetention(app, inbox, opts)
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

/** The retention sweep on a timer, one round at a time, as the Drive's background sync runs. */
function sweepRetention(app: FastifyInstance, inbox: InboxService, opts: PublishingPluginOptions): void {
  const everyMs = opts.retentionSweepMs ?? RETENTION_SWEEP_MS
  if (everyMs <= 0) return
  let timer: NodeJS.Timeout | undefined
  let round: Promise<void> | undefined
  app.addHook('onReady', async () => {
    timer = setInterval(() => {
      round ??= inbox
        .sweepExpired(opts.now())
        .then((deleted) => {
          if (deleted > 0) app.log.info({ event: 'publishing.retention-swept', deleted })
        })
        .catch((error: unknown) => app.log.warn({ event: 'publishing.retention-sweep-failed', err: error }))
        .finally(() => {
          round = undefined
        })
    }, everyMs)
    timer.unref()
  })
  app.addHook('preClose', async () => {
    clearInterval(timer)
    await round
  })
}
