/**
 * The five /auth calls of product §7, paths and schemas from contracts/auth.ts, and what the
 * account screens ask first (`options`). Sign-up sets no cookie (the SPA goes to /login next);
 * sign-in and refresh set both session cookies.
 */
import { httpErrors } from '@fastify/sensible'
import type { FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { authEndpoints } from '#contracts/auth.ts'
import { defineRoute } from '../http/define-route.ts'
import { clearSessionCookies, readSessionCookies, setSessionCookies } from './cookies.ts'
import {
  type AuthRateLimits,
  allowancePerAccount,
  failureLimit,
  limitPerAccount,
  limitPerIp,
} from './rate-limits.ts'
import { signInContext } from './request-context.ts'
import { signupRefusal, signupRefusalMessage } from './signup-policy.ts'
import { toUserDto } from './user-dto.ts'
import type { UserRecord } from './users-repository.ts'

export const EMAIL_TAKEN_MESSAGE = 'An account with this email already exists.'
export const BAD_CREDENTIALS_MESSAGE = 'Invalid email or password'
export const SESSION_ENDED_MESSAGE = 'Your session has ended. Please sign in again.'
export const ACCOUNT_DISABLED_MESSAGE = 'This account is disabled. Ask the operator of this server.'
/** The same whether or not this refusal mailed a new link (D100): true either way. */
export const CONFIRM_EMAIL_FIRST_MESSAGE =
  'Confirm your email address first: follow the link in the mail we sent you. Signing in sends a new one, at most 3 an hour; every link of the last 48 hours works.'

export const authRoutes: FastifyPluginAsyncZod<{ rateLimits: AuthRateLimits }> = async (app, opts) => {
  const { register, login, logout, me, refreshToken, options } = authEndpoints
  const secure = app.config.secureCookies
  const limits = opts.rateLimits
  // Sign-in counts failures only (D80): per address, per account and address, per account.
  const loginFailures = [
    failureLimit(app, 'login', limits.loginPerIp, 'ip'),
    failureLimit(app, 'login', limits.loginPerAccountAndIp, 'account-ip'),
    failureLimit(app, 'login', limits.loginFailuresPerAccount, 'account'),
  ] as const
  const [perIp, perAccountAndIp, perAccount] = loginFailures
  // Counted in the database like every limit here, so N instances mail no more than one.
  const confirmationMailAllowed = allowancePerAccount(
    app,
    'confirmation-mail',
    limits.confirmationMailPerAccount,
  )
  /** A confirmation link by mail if the address's allowance has one left; never a different answer. */
  async function mailConfirmation(request: FastifyRequest, record: UserRecord): Promise<void> {
    if (!(await confirmationMailAllowed(request))) {
      request.log.info(
        { event: 'auth.confirm.allowance_used', userId: record.id },
        'confirmation mail left out',
      )
      return
    }
    await app.mailLinks.sendConfirmation(record).catch(logMailFailure(request))
  }

  defineRoute(app, options, {
    auth: 'public',
    handler: () => ({
      google: app.config.google !== null,
      passwordReset: app.mailer.available,
      signup: app.config.signup.mode,
      emailVerification: app.config.emailVerification,
    }),
  })

  defineRoute(app, register, {
    auth: 'public',
    onRequest: [limitPerIp(app, 'register', limits.registerPerIp)],
    preHandler: [limitPerAccount(app, 'register', limits.registerPerAccount, { perSource: false })],
    async handler({ body, request }) {
      const refusal = signupRefusal(body.email, app.config.signup)
      if (refusal) throw httpErrors.forbidden(signupRefusalMessage(refusal, app.config.signup))
      const record = await app.auth.register(
        { ...body, confirmationPending: app.config.emailVerification },
        request.log,
      )
      if (!record) throw httpErrors.conflict(EMAIL_TAKEN_MESSAGE)
      // A mail that fails leaves the account made: signing in sends a new link.
      if (record.emailConfirmationPending) await mailConfirmation(request, record)
      return { user: toUserDto(record) }
    },
  })

  defineRoute(app, login, {
    auth: 'public',
    onRequest: [perIp.check],
    preHandler: [perAccount.check, perAccountAndIp.check],
    async handler({ body, request, reply }) {
      const result = await app.auth.login(body, signInContext(request), request.log)
      if ('refused' in result) {
        if (result.refused === 'disabled') throw httpErrors.forbidden(ACCOUNT_DISABLED_MESSAGE)
        if (result.refused === 'unconfirmed' && result.record) {
          await mailConfirmation(request, result.record)
          throw httpErrors.forbidden(CONFIRM_EMAIL_FIRST_MESSAGE)
        }
        for (const limit of loginFailures) await limit.recordFailure(request)
        throw httpErrors.unauthorized(BAD_CREDENTIALS_MESSAGE)
      }
      setSessionCookies(reply, result.tokens, secure)
      return { user: toUserDto(result.user) }
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

function logMailFailure(request: FastifyRequest) {
  return (error: unknown) =>
    request.log.error({ event: 'auth.confirm.mail_failed', err: error }, 'sending a confirmation link failed')
}
