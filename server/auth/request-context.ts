import type { FastifyRequest } from 'fastify'
import type { SignInContext } from './auth-service.ts'

/** Where a sign-in comes from: the browser's user agent and the client's address (TRUST_PROXY aware). */
export function signInContext(request: FastifyRequest): SignInContext {
  return { userAgent: request.headers['user-agent'] ?? null, address: request.ip || null }
}
