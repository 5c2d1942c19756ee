/**
 * Accounts and sessions for the whole app: the five /auth calls (auth-routes.ts), the mailed links
 * (mail-link-routes.ts), Settings' password and sessions (settings-routes.ts), Sign in with Google
 * (google-sign-in-routes.ts), `app.auth` (the service) and `app.authenticate`, the
 * hook `defineRoute` puts in front of every `auth: 'user'` route (which hands its handler the user):
 *
 *   defineRoute(app, chatEndpoints.listConversations, { auth: 'user', handler: ({ user }) => ... })
 *
 * It answers 401 "Not signed in" unless the access cookie holds a valid token whose sign-in is
 * still live, and sets `request.user`. A request carrying an Authorization bearer token (a personal
 * API key, D124) is refused whatever its cookies: browser-session calls never take a key.
 */
import { httpErrors } from '@fastify/sensible'
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify'
import fp from 'fastify-plugin'
import type { GoogleConfig } from '../config.ts'
import { API_KEY_NOT_ACCEPTED, NOT_SIGNED_IN } from '../http/errors.ts'
import { createAccountTokensRepository } from './account-tokens-repository.ts'
import { authRoutes } from './auth-routes.ts'
import { type AuthService, type CurrentUser, createAuthService, type Session } from './auth-service.ts'
import { ACCESS_COOKIE } from './cookies.ts'
import { createGoogleAccounts, type GoogleAccounts } from './google-accounts.ts'
import { createGoogleSignIn, type GoogleSignIn } from './google-sign-in.ts'
import { googleSignInRoutes } from './google-sign-in-routes.ts'
import { mailLinkRoutes } from './mail-link-routes.ts'
import { createMailLinks, type MailLinks } from './mail-links.ts'
import type { AuthRateLimits } from './rate-limits.ts'
import { createSessionsRepository } from './sessions-repository.ts'
import { settingsRoutes } from './settings-routes.ts'
import { createSharedRevocations } from './shared-revocations.ts'
import { deriveAccessTokenKey, deriveRefreshSuccessorKey } from './tokens.ts'
import { createUsersRepository, type UsersRepository } from './users-repository.ts'

declare module 'fastify' {
  interface FastifyInstance {
    auth: AuthService
    /** The accounts table, for the domains above that act on whole accounts (deletion, the operator). */
    users: UsersRepository
    /** Password reset and email confirmation links (D76). */
    mailLinks: MailLinks
    /** Sign in with Google's OIDC flow; null when GOOGLE_CLIENT_ID is unset (D77). */
    googleSignIn: GoogleSignIn | null
    googleAccounts: GoogleAccounts
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
  /** The OAuth client Sign in with Google uses (the Drive's); null: no Google sign-in. */
  google: GoogleConfig | null
}

export const authPlugin = fp<AuthPluginOptions>(
  async (app, opts) => {
    const users = createUsersRepository(app.db)
    const auth = createAuthService({
      users,
      sessions: createSessionsRepository(app.db),
      accessTokenKey: deriveAccessTokenKey(opts.appSecret),
      successorKey: deriveRefreshSuccessorKey(opts.appSecret),
      now: opts.now,
      ...(app.database.notifications
        ? { revocations: createSharedRevocations(app.database.notifications) }
        : {}),
    })
    app.decorate('auth', auth)
    app.decorate('users', users)
    const mailLinks = createMailLinks({
      users,
      tokens: createAccountTokensRepository(app.db),
      auth,
      mailer: app.mailer,
      publicUrl: app.config.publicUrl,
      log: app.log,
    })
    app.decorate('mailLinks', mailLinks)
    app.addHook('preClose', () => mailLinks.settled())
    app.decorate(
      'googleSignIn',
      opts.google
        ? createGoogleSignIn({ google: opts.google, appSecret: opts.appSecret, now: opts.now, log: app.log })
        : null,
    )
    app.decorate('googleAccounts', createGoogleAccounts({ users, auth, signup: app.config.signup }))
    app.decorateRequest('user', null)
    app.decorateRequest('sessionFamilyId', null)
    // Callback style with a synchronous fast path: every authenticated request runs this, and
    // when the session is cached no promise is created at all.
    app.decorate(
      'authenticate',
      (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) => {
        if (request.headers.authorization !== undefined && BEARER.test(request.headers.authorization)) {
          done(httpErrors.unauthorized(API_KEY_NOT_ACCEPTED))
          return
        }
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
    await app.register(mailLinkRoutes, { rateLimits: opts.rateLimits })
    await app.register(settingsRoutes, { rateLimits: opts.rateLimits, now: opts.now })
    await app.register(googleSignInRoutes, { rateLimits: opts.rateLimits })
  },
  {
    name: 'authentication',
    dependencies: ['database', '@fastify/cookie', 'request-guards', 'rate-limit', 'mail'],
  },
)

const BEARER = /^bearer\s/i

function signIn(request: FastifyRequest, session: Session | null): Error | undefined {
  if (!session) return httpErrors.unauthorized(NOT_SIGNED_IN)
  request.user = session.user
  request.sessionFamilyId = session.familyId
  return undefined
}
