/**
 * The session cookies. HttpOnly so page scripts never see a token; SameSite=Lax; Secure when the
 * app is served over https. The access cookie goes with every /api call, the refresh cookie only
 * to /api/v1/auth (refresh and logout), so it travels as rarely as possible.
 */
import type { CookieSerializeOptions } from '@fastify/cookie'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { API_PREFIX } from '#contracts/endpoint.ts'

export const ACCESS_COOKIE = 'docchat_access'
export const REFRESH_COOKIE = 'docchat_refresh'
const ACCESS_COOKIE_PATH = '/api'
const REFRESH_COOKIE_PATH = `${API_PREFIX}/auth`

export type SessionTokens = {
  /** The server-clock instant both expiries count from. */
  issuedAt: Date
  accessToken: string
  accessExpiresAt: Date
  refreshToken: string
  refreshExpiresAt: Date
}

function baseOptions(secure: boolean): CookieSerializeOptions {
  return { httpOnly: true, sameSite: 'lax', secure }
}

/**
 * Cookies carry a lifetime (Max-Age), never an instant: the browser counts it on its own clock, so
 * a server clock that differs from the browser's (or a test's injected one) cannot make a cookie
 * arrive already expired or outlive its token.
 */
function secondsLeft(tokens: SessionTokens, expiresAt: Date): number {
  // Up, not to nearest: the JWT expiry is whole seconds, so up to a second less than 15 minutes.
  return Math.max(0, Math.ceil((expiresAt.getTime() - tokens.issuedAt.getTime()) / 1000))
}

export function setSessionCookies(reply: FastifyReply, tokens: SessionTokens, secure: boolean): void {
  reply.setCookie(ACCESS_COOKIE, tokens.accessToken, {
    ...baseOptions(secure),
    path: ACCESS_COOKIE_PATH,
    maxAge: secondsLeft(tokens, tokens.accessExpiresAt),
  })
  reply.setCookie(REFRESH_COOKIE, tokens.refreshToken, {
    ...baseOptions(secure),
    path: REFRESH_COOKIE_PATH,
    maxAge: secondsLeft(tokens, tokens.refreshExpiresAt),
  })
}

export function clearSessionCookies(reply: FastifyReply, secure: boolean): void {
  reply.clearCookie(ACCESS_COOKIE, { ...baseOptions(secure), path: ACCESS_COOKIE_PATH })
  reply.clearCookie(REFRESH_COOKIE, { ...baseOptions(secure), path: REFRESH_COOKIE_PATH })
}

export function readSessionCookies(request: FastifyRequest): { accessToken?: string; refreshToken?: string } {
  return { accessToken: request.cookies[ACCESS_COOKIE], refreshToken: request.cookies[REFRESH_COOKIE] }
}
