/**
 * Accounts and sessions for the whole app: the five /auth calls (auth-routes.ts), `app.auth` (the
 * service) and `app.authenticate`, the
 * hook `defineRoute` puts in front of every `auth: 'user'` route (which hands its handler the user):
 *
 *   defineRoute(app, chatEndpoints.listConversations, { auth: 'user', handler: ({ user }) => ... })
 *
 * It answers 401 "Not signed in" unless the access cookie holds a valid token whose sign-in is
 * still live, and sets `request.user`.
 */
import { httpErrors } from '@fastify/sensible'
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify'
import fp from 'fastify-plugin'
import { NOT_SIGNED_IN } from '../http/errors.ts'
import { authRoutes } from './auth-routes.ts'
import { type AuthService, type CurrentUser, createAuthService, type Session } from './auth-service.ts'
import { ACCESS_COOKIE } from './cookies.ts'
import type { AuthRateLimits } from './rate-limits.ts'
import { createSessionsRepository } from './sessions-repository.ts'
import { createSharedRevocations } from './shared-revocations.ts'
import { deriveAccessTokenKey, deriveRefreshSuccessorKey } from './tokens.ts'
import { createUsersRepository } from './users-repository.ts'

declare module 'fastify' {
  interface FastifyInstance {
    auth: AuthService
    /** onRequest (or preHandler) hook: 401 unless signed in; sets `request.user`. */
    authenticate: (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => void
  }
  interface FastifyRequest {
    /** Set by `app.authenticate`; null on routes that don't use it. */
    user: CurrentUser | null
    /** The sign-in (refresh-token family) the access token belongs to. */
    sessionFamilyId: string | null
  }
}

export type AuthPluginOptions = {
  appSecret: string
  now: () => Date
  /** Sign-in and sign-up limits (DEFAULT_AUTH_RATE_LIMITS; tests use small ones). */
  rateLimits: AuthRateLimits
}

export const authPlugin = fp<AuthPluginOptions>(
  async (app, opts) => {
    const auth = createAuthService({
      users: createUsersRepository(app.db),
      sessions: createSessionsRepository(app.db),
      accessTokenKey: deriveAccessTokenKey(opts.appSecret),
      successorKey: deriveRefreshSuccessorKey(opts.appSecret),
      now: opts.now,
      ...(app.database.notifications
        ? { revocations: createSharedRevocations(app.database.notifications) }
        : {}),
    })
    app.decorate('auth', auth)
    app.decorateRequest('user', null)
    app.decorateRequest('sessionFamilyId', null)
    // Callback style with a synchronous fast path: every authenticated request runs this, and
    // when the session is cached no promise is created at all.
    app.decorate(
      'authenticate',
      (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) => {
        const token = request.cookies[ACCESS_COOKIE]
        const cached = auth.cachedSession(token)
        if (cached !== undefined) {
          done(signIn(request, cached))
          return
        }
        auth.authenticate(token).then((session) => done(signIn(request, session)), done)
      },
    )
    await app.register(authRoutes, { rateLimits: opts.rateLimits })
  },
  { name: 'authentication', dependencies: ['database', '@fastify/cookie', 'request-guards', 'rate-limit'] },
)

function signIn(request: FastifyRequest, session: Session | null): Error | undefined {
  if (!session) return httpErrors.unauthorized(NOT_SIGNED_IN)
  request.user = session.user
  request.sessionFamilyId = session.familyId
  return undefined
}
