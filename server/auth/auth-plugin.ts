/**
 * Accounts and sessions for the whole app: `app.auth` (the service) and `app.authenticate`, the
 * hook `defineRoute` puts in front of every `auth: 'user'` route (which hands its handler the user):
 *
 *   defineRoute(app, chatEndpoints.listConversations, { auth: 'user', handler: ({ user }) => ... })
 *
 * It answers 401 "Not signed in" unless the access cookie holds a valid token whose sign-in is
 * still live, and sets `request.user`.
 */
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify'
import { unauthorized } from '../http/errors.ts'
import { sharedPlugin } from '../plugins/shared-plugin.ts'
import { type AuthService, type CurrentUser, createAuthService, type Session } from './auth-service.ts'
import { ACCESS_COOKIE } from './cookies.ts'
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

export const authenticationPlugin = sharedPlugin<{ appSecret: string; now: () => Date }>(
  'authentication',
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
  },
)

function signIn(request: FastifyRequest, session: Session | null): Error | undefined {
  if (!session) return unauthorized()
  request.user = session.user
  request.sessionFamilyId = session.familyId
  return undefined
}
