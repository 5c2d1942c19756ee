/**
 * Sign in with Google (D77): OpenID Connect with the Drive's OAuth client, asking only for
 * `openid email`. The flow's secrets (state, nonce, PKCE verifier) travel in one encrypted,
 * httpOnly cookie bound to the browser that started it, valid 10 minutes and cleared by the
 * callback, so a callback URL handed to someone else's browser does nothing (no login CSRF).
 * Google's ID token is verified by google-auth-library (signature against Google's published
 * keys, issuer, audience, expiry), then its nonce here; only a verified email is trusted.
 * What the identity then signs into (linking, creating) is decided by the auth service.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto'
import type { FastifyBaseLogger } from 'fastify'
import type { OAuth2Client } from 'google-auth-library'
import { EncryptJWT, jwtDecrypt } from 'jose'
import type { GoogleConfig } from '../config.ts'
import { deriveKey } from './tokens.ts'

export const GOOGLE_SIGN_IN_COOKIE = 'docchat_google_sign_in'
export const GOOGLE_SIGN_IN_TTL_MS = 10 * 60_000
const SCOPES = ['openid', 'email']

/** Who Google says signed in. */
export type GoogleIdentity = { subject: string; email: string; emailVerified: boolean }

/** Why a callback did not produce an identity (each has a sentence in contracts/auth.ts). */
export type GoogleCallbackFailure = 'expired' | 'cancelled' | 'failed'

type FlowSecrets = { state: string; nonce: string; verifier: string }

export type GoogleSignIn = ReturnType<typeof createGoogleSignIn>

export function createGoogleSignIn(deps: {
  google: GoogleConfig
  appSecret: string
  now: () => Date
  log: FastifyBaseLogger
}) {
  const { google, now, log } = deps
  const cookieKey = deriveKey(deps.appSecret, 'docchat google sign-in cookie v1')
  let verifierClient: Promise<OAuth2Client> | undefined

  async function client(): Promise<OAuth2Client> {
    // Loaded on the first Google sign-in only (D53): many servers never see one.
    const { OAuth2Client } = await import('google-auth-library')
    return new OAuth2Client({
      clientId: google.clientId,
      clientSecret: google.clientSecret,
      redirectUri: google.signInRedirectUri,
      endpoints: google.endpoints,
    })
  }

  async function sealSecrets(secrets: FlowSecrets): Promise<string> {
    const at = Math.floor(now().getTime() / 1000)
    return new EncryptJWT(secrets)
      .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
      .setIssuedAt(at)
      .setExpirationTime(at + GOOGLE_SIGN_IN_TTL_MS / 1000)
      .encrypt(cookieKey)
  }

  async function openSecrets(cookie: string | undefined): Promise<FlowSecrets | null> {
    if (!cookie) return null
    try {
      const { payload } = await jwtDecrypt(cookie, cookieKey, { currentDate: now() })
      const { state, nonce, verifier } = payload
      return typeof state === 'string' && typeof nonce === 'string' && typeof verifier === 'string'
        ? { state, nonce, verifier }
        : null
    } catch {
      return null
    }
  }

  return {
    /** Where to send the browser, and the cookie to set for the way back. */
    async start(): Promise<{ url: string; cookie: string }> {
      const oauth = await client()
      const { codeVerifier, codeChallenge } = await oauth.generateCodeVerifierAsync()
      const secrets = {
        state: randomBytes(32).toString('base64url'),
        nonce: randomBytes(32).toString('base64url'),
        verifier: codeVerifier,
      }
      const url = oauth.generateAuthUrl({
        scope: SCOPES,
        state: secrets.state,
        nonce: secrets.nonce,
        code_challenge: codeChallenge ?? '',
        code_challenge_method: (await import('google-auth-library')).CodeChallengeMethod.S256,
        prompt: 'select_account',
      })
      return { url, cookie: await sealSecrets(secrets) }
    },

    /** Google's redirect back, with the cookie `start` set: the identity, or why not. */
    async finish(
      cookie: string | undefined,
      query: { state?: string; code?: string; error?: string },
    ): Promise<GoogleIdentity | GoogleCallbackFailure> {
      const secrets = await openSecrets(cookie)
      if (!secrets || !query.state || !sameText(query.state, secrets.state)) return 'expired'
      if (query.error === 'access_denied') return 'cancelled'
      if (query.error || !query.code) return 'failed'
      try {
        const oauth = await client()
        const { tokens } = await oauth.getToken({ code: query.code, codeVerifier: secrets.verifier })
        if (!tokens.id_token) return 'failed'
        verifierClient ??= client()
        const ticket = await (await verifierClient).verifyIdToken({
          idToken: tokens.id_token,
          audience: google.clientId,
        })
        const claims = ticket.getPayload()
        if (!claims?.sub || !claims.email || claims.nonce !== secrets.nonce) return 'failed'
        return { subject: claims.sub, email: claims.email, emailVerified: claims.email_verified === true }
      } catch (error) {
        // The message only: a Gaxios error's request config carries the code and the client secret.
        log.warn(
          { event: 'auth.google.failed', reason: error instanceof Error ? error.message : 'unknown' },
          'Sign in with Google failed',
        )
        return 'failed'
      }
    },
  }
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}
