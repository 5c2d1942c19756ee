/** `app.account` (account-service.ts) and Settings' account calls; above every other domain. */
import fp from 'fastify-plugin'
import type { AuthRateLimits } from '../auth/rate-limits.ts'
import { accountRoutes } from './account-routes.ts'
import { type AccountService, createAccountService } from './account-service.ts'

declare module 'fastify' {
  interface FastifyInstance {
    account: AccountService
  }
}

export const accountPlugin = fp<{ rateLimits: AuthRateLimits }>(
  async (app, opts) => {
    app.decorate(
      'account',
      createAccountService({
        db: app.db,
        users: app.users,
        auth: app.auth,
        mailLinks: app.mailLinks,
        googleConnections: () => app.googleConnections,
        log: app.log,
      }),
    )
    await app.register(accountRoutes, { rateLimits: opts.rateLimits })
  },
  { name: 'account', dependencies: ['database', 'authentication', 'chat', 'documents', 'drive'] },
)
