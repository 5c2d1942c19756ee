/**
 * What Settings does with sign-ins (D81): change the password (every other sign-in ends), list
 * the account's sign-ins, end one, or every other. Each acts on the signed-in person only: a
 * session id of someone else's answers exactly as a missing one (404).
 */
import { httpErrors } from '@fastify/sensible'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { accountEndpoints } from '#contracts/account.ts'
import { defineRoute } from '../http/define-route.ts'
import { deviceName } from './device-name.ts'
import { type AuthRateLimits, failureLimit } from './rate-limits.ts'

export const SETTINGS_MESSAGES = {
  wrongPassword: 'The current password is not right.',
  noPassword:
    "This account has no password yet (it signs in with Google). Set one with 'Forgot password?' on the sign-in page.",
  sessionNotFound: 'That session has ended already.',
} as const

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export const settingsRoutes: FastifyPluginAsyncZod<{ rateLimits: AuthRateLimits; now: () => Date }> = async (
  app,
  opts,
) => {
  const { changePassword, listSessions, revokeSession, revokeOtherSessions } = accountEndpoints
  const passwordChecks = failureLimit(
    app,
    'password-check',
    opts.rateLimits.passwordCheckFailuresPerAccount,
    'user',
  )

  defineRoute(app, changePassword, {
    auth: 'user',
    preHandler: [passwordChecks.check],
    async handler({ body, user, request }) {
      if (!(await app.auth.hasPassword(user.id))) throw httpErrors.badRequest(SETTINGS_MESSAGES.noPassword)
      if (!(await app.auth.checkPassword(user.id, body.currentPassword))) {
        await passwordChecks.recordFailure(request)
        throw httpErrors.badRequest(SETTINGS_MESSAGES.wrongPassword)
      }
      await app.auth.setPassword(user.id, body.password)
      const signedOut = await app.auth.revokeAll(
        user.id,
        'password-changed',
        request.sessionFamilyId ?? undefined,
      )
      request.log.info({ event: 'auth.password.changed', userId: user.id, signedOut }, 'password changed')
      return { signedOut }
    },
  })

  defineRoute(app, listSessions, {
    auth: 'user',
    async handler({ user, request }) {
      const sessions = await app.auth.sessionsOf(user.id, request.sessionFamilyId)
      return {
        sessions: sessions.map((s) => ({
          id: s.id,
          device: deviceName(s.userAgent),
          address: s.address,
          createdAt: s.createdAt.toISOString(),
          // The session asking is in use as it asks: its stored time is only its last refresh.
          lastUsedAt: (s.current ? opts.now() : (s.lastUsedAt ?? s.createdAt)).toISOString(),
          current: s.current,
        })),
      }
    },
  })

  defineRoute(app, revokeSession, {
    auth: 'user',
    async handler({ params, user, request }) {
      if (!UUID.test(params.id) || !(await app.auth.revokeSession(user.id, params.id)))
        throw httpErrors.notFound(SETTINGS_MESSAGES.sessionNotFound)
      request.log.info(
        { event: 'auth.session.revoked', userId: user.id },
        'a session signed out from Settings',
      )
      return null
    },
  })

  defineRoute(app, revokeOtherSessions, {
    auth: 'user',
    async handler({ user, request }) {
      const signedOut = await app.auth.revokeAll(
        user.id,
        'signed-out-remotely',
        request.sessionFamilyId ?? undefined,
      )
      return { signedOut }
    },
  })
}
