/**
 * The calls behind the links we mail (D76): ask for a reset link, set a new password with one,
 * confirm an email with one. Asking answers at once with the same `null` for any email; the
 * look-up and the mail run after the answer (mail-links.ts).
 */
import { httpErrors } from '@fastify/sensible'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { accountLinkEndpoints } from '#contracts/account-links.ts'
import { defineRoute } from '../http/define-route.ts'
import { serverError } from '../http/errors.ts'
import { MAIL_LINK_MESSAGES } from './mail-links.ts'
import { type AuthRateLimits, limitPerAccount, limitPerIp } from './rate-limits.ts'

export const mailLinkRoutes: FastifyPluginAsyncZod<{ rateLimits: AuthRateLimits }> = async (app, opts) => {
  const { forgotPassword, resetPassword, confirmEmail } = accountLinkEndpoints
  const limits = opts.rateLimits
  const perIp = limitPerIp(app, 'mail-link', limits.mailLinkPerIp)

  defineRoute(app, forgotPassword, {
    auth: 'public',
    onRequest: [limitPerIp(app, 'forgot-password', limits.forgotPasswordPerIp)],
    preHandler: [
      limitPerAccount(app, 'forgot-password', limits.forgotPasswordPerAccount, { perSource: false }),
    ],
    handler({ body }) {
      if (!app.mailer.available) throw serverError(503, MAIL_LINK_MESSAGES.mailOff)
      app.mailLinks.inBackground(app.mailLinks.forgotPassword(body.email))
      return null
    },
  })

  defineRoute(app, resetPassword, {
    auth: 'public',
    onRequest: [perIp],
    async handler({ body }) {
      if (!(await app.mailLinks.resetPassword(body.token, body.password)))
        throw httpErrors.badRequest(MAIL_LINK_MESSAGES.resetRefused)
      return null
    },
  })

  defineRoute(app, confirmEmail, {
    auth: 'public',
    onRequest: [perIp],
    async handler({ body }) {
      if (!(await app.mailLinks.confirmEmail(body.token)))
        throw httpErrors.badRequest(MAIL_LINK_MESSAGES.confirmRefused)
      return null
    },
  })
}
