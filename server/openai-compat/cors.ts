/**
 * CORS for the OpenAI-compatible endpoint (D130): off unless the operator lists exact origins
 * (API_CORS_ORIGINS). A listed origin gets the headers and its preflight answered; any other
 * origin gets no CORS header at all (its browser then refuses to read the answer) and its
 * preflight a 403. Keys travel only in the Authorization header, never in cookies, so no
 * credentials are allowed.
 */
import type { FastifyReply, FastifyRequest } from 'fastify'
import { forbidden } from './openai-errors.ts'

/** How long a browser may keep a preflight's answer (seconds). */
export const PREFLIGHT_MAX_AGE_SECONDS = 600
export const ORIGIN_NOT_ALLOWED =
  'This origin may not call the API from a browser: the operator lists the ones that may (API_CORS_ORIGINS).'

/** Sets the CORS headers for a listed origin; answers a preflight. True when the request was answered. */
export function applyCors(
  request: FastifyRequest,
  reply: FastifyReply,
  origins: ReadonlySet<string>,
): boolean {
  const origin = request.headers.origin
  const allowed = origin !== undefined && origins.has(origin)
  if (allowed) {
    reply.header('access-control-allow-origin', origin)
    reply.header('access-control-expose-headers', 'retry-after')
  }
  reply.header('vary', 'Origin')
  const preflight =
    request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined
  if (!preflight) return false
  if (!allowed) {
    const error = forbidden(ORIGIN_NOT_ALLOWED)
    void reply.code(403).send(error.body())
    return true
  }
  const headers = request.headers['access-control-request-headers']
  reply
    .header('access-control-allow-methods', 'GET, POST')
    .header(
      'access-control-allow-headers',
      typeof headers === 'string' && headers ? headers : 'authorization, content-type',
    )
    .header('access-control-max-age', String(PREFLIGHT_MAX_AGE_SECONDS))
  void reply.code(204).send()
  return true
}
