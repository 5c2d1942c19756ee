/**
 * The five /auth calls of SPEC §7, paths and schemas from contracts/auth.ts. Sign-up sets no
 * cookie (the SPA goes to /login next); sign-in and refresh set both session cookies.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { authEndpoints } from '#contracts/auth.ts'
import { clearSessionCookies, readSessionCookies, setSessionCookies } from '../../auth/cookies.ts'
import {
  type AuthRateLimits,
  failureCeilingPerAccount,
  limitPerAccount,
  limitPerIp,
} from '../../auth/rate-limits.ts'
import { toUserDto } from '../../auth/user-dto.ts'
import { HttpError, unauthorized } from '../../http-errors.ts'
import { requireUser } from '../../plugins/app/authentication.ts'

export const EMAIL_TAKEN_MESSAGE = 'An account with this email already exists.'
export const BAD_CREDENTIALS_MESSAGE = 'Invalid email or password'
export const SESSION_ENDED_MESSAGE = 'Your session has ended. Please sign in again.'

export const authRoutes: FastifyPluginAsyncZod<{ rateLimits: AuthRateLimits }> = async (app, opts) => {
  const { register, login, logout, me, refreshToken } = authEndpoints
  const secure = app.config.secureCookies
  const limits = opts.rateLimits
  const loginFailures = failureCeilingPerAccount(app, 'login', limits.loginFailuresPerAccount)

  app.route({
    method: register.method,
    url: register.path,
    schema: { body: register.request, response: { 201: register.response } },
    onRequest: limitPerIp(app, 'register', limits.registerPerIp),
    preHandler: limitPerAccount(app, 'register', limits.registerPerAccount, { perSource: false }),
    async handler(request, reply) {
      const user = await app.auth.register(request.body, request.log)
      if (!user) throw new HttpError(409, EMAIL_TAKEN_MESSAGE)
      return reply.code(201).send({ success: true, data: { user: toUserDto(user) } })
    },
  })

  app.route({
    method: login.method,
    url: login.path,
    schema: { body: login.request, response: { 200: login.response } },
    onRequest: limitPerIp(app, 'login', limits.loginPerIp),
    preHandler: [
      loginFailures.check,
      limitPerAccount(app, 'login', limits.loginPerAccountAndIp, { perSource: true }),
    ],
    async handler(request, reply) {
      const signedIn = await app.auth.login(request.body, request.log)
      if (!signedIn) {
        await loginFailures.recordFailure(request)
        throw unauthorized(BAD_CREDENTIALS_MESSAGE)
      }
      setSessionCookies(reply, signedIn.tokens, secure)
      return { success: true as const, data: { user: toUserDto(signedIn.user) } }
    },
  })

  app.route({
    method: me.method,
    url: me.path,
    schema: { response: { 200: me.response } },
    onRequest: app.authenticate,
    handler: async (request) => ({ success: true as const, data: toUserDto(requireUser(request)) }),
  })

  app.route({
    method: refreshToken.method,
    url: refreshToken.path,
    schema: { response: { 200: refreshToken.response } },
    async handler(request, reply) {
      const signedIn = await app.auth.refresh(readSessionCookies(request).refreshToken, request.log)
      if (!signedIn) {
        clearSessionCookies(reply, secure)
        throw unauthorized(SESSION_ENDED_MESSAGE)
      }
      setSessionCookies(reply, signedIn.tokens, secure)
      return { success: true as const, data: { user: toUserDto(signedIn.user) } }
    },
  })

  app.route({
    method: logout.method,
    url: logout.path,
    schema: { response: { 200: logout.response } },
    async handler(request, reply) {
      await app.auth.logout(readSessionCookies(request), request.log)
      clearSessionCookies(reply, secure)
      return { success: true as const, data: null }
    },
  })
}
