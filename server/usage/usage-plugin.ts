/**
 * `app.usage` (usage-service.ts): what every answer spent, per person, day and source, and the
 * daily hold (USAGE_TOKENS_PER_DAY, D126); the usage call. Below the chat, publishing and the
 * API, which record their answers through it.
 */
import fp from 'fastify-plugin'
import { createUsageRepository } from './usage-repository.ts'
import { usageRoutes } from './usage-routes.ts'
import { UsageService } from './usage-service.ts'

declare module 'fastify' {
  interface FastifyInstance {
    usage: UsageService
  }
}

export const usagePlugin = fp<{ now: () => Date }>(
  async (app, opts) => {
    app.decorate(
      'usage',
      new UsageService({
        rows: createUsageRepository(app.db),
        now: opts.now,
        tokensPerDay: app.config.usageTokensPerDay,
      }),
    )
    await app.register(usageRoutes)
  },
  { name: 'usage', dependencies: ['database', 'authentication'] },
)
