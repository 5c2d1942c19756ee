/** Settings' account calls (D78): the account card, export (a download), deletion. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { accountEndpoints } from '#contracts/account.ts'
import { clearSessionCookies } from '../auth/cookies.ts'
import { type AuthRateLimits, failureLimit, limitPerUser } from '../auth/rate-limits.ts'
import { defineRoute } from '../http/define-route.ts'
import { Invalid } from '../http/domain-errors.ts'

export const ACCOUNT_MESSAGES = {
  wrongPassword: 'The password is not right, so nothing was deleted.',
  wrongEmail: 'That is not this account’s email, so nothing was deleted.',
} as const

export const accountRoutes: FastifyPluginAsyncZod<{ rateLimits: AuthRateLimits }> = async (app, opts) => {
  const { account, exportAccount, deleteAccount } = accountEndpoints
  // The same allowance as changing the password: both guess at the current one.
  const passwordChecks = failureLimit(
    app,
    'password-check',
    opts.rateLimits.passwordCheckFailuresPerAccount,
    'user',
  )

  defineRoute(app, account, { auth: 'user', handler: ({ user }) => app.account.account(user) })

  defineRoute(app, exportAccount, {
    auth: 'user',
    // It reads everything the account holds: a person asking again and again is refused a while.
    preHandler: [limitPerUser(app, 'export', opts.rateLimits.exportPerUser)],
    async handler({ user, reply }) {
      const data = await app.account.export(user)
      const day = data.exportedAt.slice(0, 10)
      reply.header('content-disposition', `attachment; filename="docchat-export-${day}.json"`)
      return data
    },
  })

  defineRoute(app, deleteAccount, {
    auth: 'user',
    preHandler: [passwordChecks.check],
    async handler({ body, user, request, reply }) {
      if (!(await app.account.confirmDeletion(user, body))) {
        await passwordChecks.recordFailure(request)
        const { hasPassword } = await app.account.account(user)
        throw new Invalid(hasPassword ? ACCOUNT_MESSAGES.wrongPassword : ACCOUNT_MESSAGES.wrongEmail)
      }
      await app.account.delete(user)
      clearSessionCookies(reply, app.config.secureCookies)
      return null
    },
  })
}
