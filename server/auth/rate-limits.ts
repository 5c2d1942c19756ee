/**
 * Brute-force limits for sign-in and sign-up, per client IP and per account (the email, lower-cased),
 * so neither many accounts from one address nor one account from many addresses gets far.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { tooManyAttempts } from '../http-errors.ts'

export type RateLimit = { max: number; timeWindowMs: number }

export type AuthRateLimits = {
  loginPerIp: RateLimit
  loginPerAccount: RateLimit
  registerPerIp: RateLimit
  registerPerAccount: RateLimit
}

const MINUTE = 60_000

export const DEFAULT_AUTH_RATE_LIMITS: AuthRateLimits = {
  loginPerIp: { max: 20, timeWindowMs: 15 * MINUTE },
  loginPerAccount: { max: 10, timeWindowMs: 15 * MINUTE },
  registerPerIp: { max: 10, timeWindowMs: 60 * MINUTE },
  registerPerAccount: { max: 5, timeWindowMs: 60 * MINUTE },
}

/** An onRequest hook: counted before the body is even parsed. */
export function limitPerIp(app: FastifyInstance, limit: RateLimit) {
  return app.rateLimit({ max: limit.max, timeWindow: limit.timeWindowMs })
}

/**
 * A preHandler hook (it needs the validated body). Built on `createRateLimit` because the
 * plugin's `rateLimit()` hooks run at most once per request: a second one on the same route
 * would be skipped.
 */
export function limitPerAccount(app: FastifyInstance, limit: RateLimit) {
  const check = app.createRateLimit({
    max: limit.max,
    timeWindow: limit.timeWindowMs,
    keyGenerator: (request) => accountKey(request),
  })
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const result = await check(request)
    if (result.isAllowed || !result.isExceeded) return
    reply.header('retry-after', result.ttlInSeconds)
    throw tooManyAttempts(result.ttl)
  }
}

function accountKey(request: FastifyRequest): string {
  const body = request.body as { email?: unknown } | undefined
  return typeof body?.email === 'string' ? body.email.trim().toLowerCase() : ''
}
