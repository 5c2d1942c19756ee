/**
 * Brute-force limits for sign-in and sign-up (D34, superseding D8's counting). Counted by
 * @fastify/rate-limit in the database (rate-limit-store.ts): shared by every app instance, and
 * no flood of junk keys can evict a victim's count.
 *
 * Sign-in is limited per source address, per account *and* source address, and by a much higher
 * ceiling of failed sign-ins per account from anywhere: a stranger's wrong passwords use up their
 * own address's allowance, not the owner's, so nobody is handed a lock-out button short of a
 * distributed attack on one account.
 */
import { normalizeIP } from '@fastify/rate-limit'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { tooManyAttempts } from '../http/errors.ts'

export type RateLimit = { max: number; timeWindowMs: number }

export type AuthRateLimits = {
  loginPerIp: RateLimit
  loginPerAccountAndIp: RateLimit
  /** Failed sign-ins to one account from any address. */
  loginFailuresPerAccount: RateLimit
  registerPerIp: RateLimit
  registerPerAccount: RateLimit
}

const MINUTE = 60_000

export const DEFAULT_AUTH_RATE_LIMITS: AuthRateLimits = {
  loginPerIp: { max: 20, timeWindowMs: 15 * MINUTE },
  loginPerAccountAndIp: { max: 10, timeWindowMs: 15 * MINUTE },
  loginFailuresPerAccount: { max: 100, timeWindowMs: 15 * MINUTE },
  registerPerIp: { max: 10, timeWindowMs: 60 * MINUTE },
  registerPerAccount: { max: 5, timeWindowMs: 60 * MINUTE },
}

/** An onRequest hook: counted before the body is even parsed. */
export function limitPerIp(app: FastifyInstance, name: string, limit: RateLimit) {
  return app.rateLimit({
    max: limit.max,
    timeWindow: limit.timeWindowMs,
    keyGenerator: (request) => `${name}:ip:${sourceKey(request)}`,
  })
}

/**
 * A preHandler hook (it needs the validated body) counting every attempt for one account, or for
 * one account from one address. Built on `createRateLimit` because the plugin's `rateLimit()`
 * hooks run at most once per request: a second one on the same route would be skipped.
 */
export function limitPerAccount(
  app: FastifyInstance,
  name: string,
  limit: RateLimit,
  options: { perSource: boolean },
) {
  const check = app.createRateLimit({
    max: limit.max,
    timeWindow: limit.timeWindowMs,
    keyGenerator: (request) =>
      options.perSource
        ? `${name}:account-ip:${accountKey(request)}|${sourceKey(request)}`
        : `${name}:account:${accountKey(request)}`,
  })
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const result = await check(request)
    if (result.isAllowed || !result.isExceeded) return
    refuse(reply, result.ttl)
  }
}

/**
 * Failed attempts for one account from anywhere: `check` (a preHandler) refuses once the
 * ceiling is reached, `recordFailure` counts a failed attempt. Successes never count.
 */
export function failureCeilingPerAccount(app: FastifyInstance, name: string, limit: RateLimit) {
  const limiter = app.createRateLimit({
    max: limit.max,
    timeWindow: limit.timeWindowMs,
    keyGenerator: (request) => `${name}:account-failures:${accountKey(request)}`,
  })
  return {
    async check(request: FastifyRequest, reply: FastifyReply): Promise<void> {
      const result = await limiter(request, { increment: false })
      if (result.isAllowed || result.remaining > 0) return
      refuse(reply, result.ttl)
    },
    async recordFailure(request: FastifyRequest): Promise<void> {
      await limiter(request)
    },
  }
}

function refuse(reply: FastifyReply, ttlMs: number): never {
  reply.header('retry-after', Math.ceil(ttlMs / 1000))
  throw tooManyAttempts(ttlMs)
}

/** The client's address as the library keys it: IPv6 by its /64, since one host holds a /64. */
function sourceKey(request: FastifyRequest): string {
  return normalizeIP(request.ip)
}

function accountKey(request: FastifyRequest): string {
  const body = request.body as { email?: unknown } | undefined
  return typeof body?.email === 'string' ? body.email.trim().toLowerCase() : ''
}
