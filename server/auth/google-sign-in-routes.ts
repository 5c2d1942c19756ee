/**
 * Sign in with Google's two pages (D77): `GOOGLE_SIGN_IN_PATH` sends the browser to Google,
 * Google sends it back to `GOOGLE_SIGN_IN_CALLBACK_PATH`. Both are page loads, not fetches, so
 * every outcome is a redirect: to /dashboard, signed in, or to /login?google=<why not>, which
 * says it in words (contracts/auth.ts GOOGLE_SIGN_IN_MESSAGES). A sign-in that took an account
 * back from whoever registered its address first (D99) lands on /dashboard/settings?google=<notice>,
 * which says that (GOOGLE_SIGN_IN_NOTICES).
 */
import type { FastifyInstance, FastifyReply } from 'fastify'
import {
  GOOGLE_SIGN_IN_CALLBACK_PATH,
  GOOGLE_SIGN_IN_PATH,
  type GoogleSignInOutcome,
} from '#contracts/auth.ts'
import { setSessionCookies } from './cookies.ts'
import { GOOGLE_SIGN_IN_COOKIE, GOOGLE_SIGN_IN_TTL_MS } from './google-sign-in.ts'
import type { AuthRateLimits } from './rate-limits.ts'
import { signInContext } from './request-context.ts'

/** The SPA's pages (src/lib/paths.ts). */
const LOGIN_PAGE = '/login'
const SIGNED_IN_PAGE = '/dashboard'
/** Where a sign-in with something to say lands (D99): the account's settings, saying it. */
const SETTINGS_PAGE = '/dashboard/settings'

export async function googleSignInRoutes(app: FastifyInstance, opts: { rateLimits: AuthRateLimits }) {
  const secure = app.config.secureCookies
  const cookieOptions = {
    httpOnly: true,
    sameSite: 'lax',
    secure,
    path: GOOGLE_SIGN_IN_CALLBACK_PATH,
  } as const
  const limit = opts.rateLimits.mailLinkPerIp
  const perIp = app.createRateLimit({
    max: limit.max,
    timeWindow: limit.timeWindowMs,
    keyGenerator: (request) => `google-sign-in:ip:${request.ip}`,
  })

  function backToLogin(reply: FastifyReply, outcome: GoogleSignInOutcome) {
    return reply.redirect(`${LOGIN_PAGE}?google=${outcome}`, 302)
  }

  app.get(GOOGLE_SIGN_IN_PATH, async (request, reply) => {
    const googleSignIn = app.googleSignIn
    if (!googleSignIn) return backToLogin(reply, 'not-configured')
    const counted = await perIp(request)
    if (!counted.isAllowed && counted.isExceeded) return backToLogin(reply, 'too-many')
    const { url, cookie } = await googleSignIn.start()
    reply.setCookie(GOOGLE_SIGN_IN_COOKIE, cookie, { ...cookieOptions, maxAge: GOOGLE_SIGN_IN_TTL_MS / 1000 })
    return reply.redirect(url, 302)
  })

  app.get(GOOGLE_SIGN_IN_CALLBACK_PATH, async (request, reply) => {
    const googleSignIn = app.googleSignIn
    if (!googleSignIn) return backToLogin(reply, 'not-configured')
    reply.clearCookie(GOOGLE_SIGN_IN_COOKIE, cookieOptions)
    const query = request.query as Record<string, unknown>
    const text = (name: string) => (typeof query[name] === 'string' ? query[name] : undefined)
    const identity = await googleSignIn.finish(request.cookies[GOOGLE_SIGN_IN_COOKIE], {
      state: text('state'),
      code: text('code'),
      error: text('error'),
    })
    if (typeof identity === 'string') return backToLogin(reply, identity)
    const result = await app.googleAccounts.signIn(identity, signInContext(request), request.log)
    if (typeof result === 'string') return backToLogin(reply, result)
    setSessionCookies(reply, result.tokens, secure)
    return reply.redirect(result.notice ? `${SETTINGS_PAGE}?google=${result.notice}` : SIGNED_IN_PAGE, 302)
  })
}
