/**
 * The five /auth calls of product §7, paths and schemas from contracts/auth.ts. Sign-up sets no
 * cookie (the SPA goes to /login next); sign-in and refresh set both session cookies.
 */
import { httpErrors } from '@fastify/sensible'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { authEndpoints } from '#contracts/auth.ts'
import { defineRoute } from '../http/define-route.ts'
import { clearSessionCookies, readSessionCookies, setSessionCookies } from './cookies.ts'
import { type AuthRateLimits, failureCeilingPerAccount, limitPerAccount, limitPerIp } from './rate-limits.ts'
import { toUserDto } from './user-dto.ts'

export const EMAIL_TAKEN_MESSAGE = 'An account with this email already exists.'
export const BAD_CREDENTIALS_MESSAGE = 'Invalid email or password'
export const SESSION_ENDED_MESSAGE = 'Your session has ended. Please sign in again.'

export const authRoutes: FastifyPluginAsyncZod<{ rateLimits: AuthRateLimits }> = async (app, opts) => {
  const { register, login, logout, me, refreshToken } = authEndpoints
  const secure = app.config.secureCookies
  const limits = opts.rateLimits
  const loginFailures = failureCeilingPerAccount(app, 'login', limits.loginFailuresPerAccount)

  defineRoute(app, register, {
    auth: 'public',
    onRequest: [limitPerIp(app, 'register', limits.registerPerIp)],
    preHandler: [limitPerAccount(app, 'register', limits.registerPerAccount, { perSource: false })],
    async handler({ body, request }) {
      const user = await app.auth.register(body, request.log)
      if (!user) throw httpErrors.conflict(EMAIL_TAKEN_MESSAGE)
      return { user: toUserDto(user) }
    },
  })

  defineRoute(app, login, {
    auth: 'public',
    onRequest: [limitPerIp(app, 'login', limits.loginPerIp)],
    preHandler: [
      loginFailures.check,
      limitPerAccount(app, 'login', limits.loginPerAccountAndIp, { perSource: true }),
    ],
    async handler({ body, request, reply }) {
      const signedIn = await app.auth.login(body, request.log)
      if (!signedIn) {
        await loginFailures.recordFailure(request)
        throw httpErrors.unauthorized(BAD_CREDENTIALS_MESSAGE)
      }
      setSessionCookies(reply, signedIn.tokens, secure)
      return { user: toUserDto(signedIn.user) }
    },
  })

  defineRoute(app, me, { auth: 'user', handler: ({ user }) => toUserDto(user) })

  defineRoute(app, refreshToken, {
    auth: 'public',
    async handler({ request, reply }) {
      const signedIn = await app.auth.refresh(readSessionCookies(request).refreshToken, request.log)
      if (!signedIn) {
        clearSessionCookies(reply, secure)
        throw httpErrors.unauthorized(SESSION_ENDED_MESSAGE)
      }
      setSessionCookies(reply, signedIn.tokens, secure)
      return { user: toUserDto(signedIn.user) }
    },
  })

  defineRoute(app, logout, {
    auth: 'public',
    async handler({ request, reply }) {
      await app.auth.logout(readSessionCookies(request), request.log)
      clearSessionCookies(reply, secure)
      return null
    },
  })
}
