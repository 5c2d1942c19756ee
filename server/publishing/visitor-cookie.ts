/**
 * The anonymous visitor's id (issue 37, D118): 128 random bits in a cookie of our own origin,
 * scoped to the visitor calls' path, HttpOnly, never the session cookie (which the visitor calls
 * never read). Inside the widget's iframe it is a third-party context, so the cookie is
 * `SameSite=None; Secure; Partitioned` (CHIPS: kept per embedding site, so it works where
 * third-party cookies are blocked). Chrome accepts `Secure` from http://localhost and
 * http://127.0.0.1 (checked with Chromium 156), so those get the same attributes; plain http on
 * any other host cannot hold a Secure cookie, and gets `SameSite=Lax` (the public page works, the
 * widget forgets its visitor on reload).
 */
import { randomBytes } from 'node:crypto'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { API_PREFIX } from '#contracts/endpoint.ts'

export const VISITOR_COOKIE = 'docchat_visitor'
const VISITOR_COOKIE_PATH = `${API_PREFIX}/public`
/** A year: longer than the longest retention (a visitor's conversation outlives no cookie). */
const VISITOR_COOKIE_MAX_AGE = 365 * 24 * 60 * 60
const VISITOR_ID = /^[A-Za-z0-9_-]{22}$/
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1'])

/** The visitor's anonymous id from their cookie; null without one (or with one we never made). */
export function readVisitorId(request: FastifyRequest): string | null {
  const value = request.cookies[VISITOR_COOKIE]
  return value !== undefined && VISITOR_ID.test(value) ? value : null
}

/** The visitor's id, made and set now when they have none. */
export function visitorIdFor(request: FastifyRequest, reply: FastifyReply): string {
  const known = readVisitorId(request)
  if (known) return known
  const id = randomBytes(16).toString('base64url')
  const secure = request.protocol === 'https' || LOOPBACK.has(request.hostname)
  reply.setCookie(VISITOR_COOKIE, id, {
    httpOnly: true,
    path: VISITOR_COOKIE_PATH,
    maxAge: VISITOR_COOKIE_MAX_AGE,
    ...(secure ? { secure: true, sameSite: 'none', partitioned: true } : { sameSite: 'lax' }),
  })
  return id
}
