/**
 * Brute-force limits for the account calls (D34, D80). Counted by @fastify/rate-limit in the
 * database (rate-limit-store.ts): shared by every app instance, and no flood of junk keys can
 * evict a victim's count.
 *
 * Sign-in counts failures only (D80, superseding D34's count of every attempt): per source
 * address, per account *and* source address, and by a much higher ceiling per account from
 * anywhere. A stranger's wrong passwords use up their own address's allowance, not the owner's,
 * and a person who signs in twenty times a day is never locked out by their own successes.
 * Sign-up and the mailed-link calls count every attempt. Confirmation mails have an allowance per
 * address that leaves the mail out instead of refusing the call (D100).
 */
import { normalizeIP } from '@fastify/rate-limit'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { tooManyAttempts } from '../http/errors.ts'
import { accountScopedKey } from '../http/rate-limit-repository.ts'

export type RateLimit = { max: number; timeWindowMs: number }

export type AuthRateLimits = {
  /** Failed sign-ins from one address. */
  loginPerIp: RateLimit
  /** Failed sign-ins to one account from one address. */
  loginPerAccountAndIp: RateLimit
  /** Failed sign-ins to one account from any address. */
  loginFailuresPerAccount: RateLimit
  registerPerIp: RateLimit
  registerPerAccount: RateLimit
  /** 'Forgot password' asks, per address and per email (each ask may send a mail). */
  forgotPasswordPerIp: RateLimit
  forgotPasswordPerAccount: RateLimit
  /** Confirmation mails to one address (sign-up, then each refused sign-in), counted by email (D100). */
  confirmationMailPerAccount: RateLimit
  /** Using a mailed link (reset, confirm), per address; Sign in with Google starts, per address. */
  mailLinkPerIp: RateLimit
  /** Wrong current passwords (change password, delete the account), per account. */
  passwordCheckFailuresPerAccount: RateLimit
  /** 'Export my data' (reads everything the account holds), per signed-in person. */
  exportPerUser: RateLimit
}

const MINUTE = 60_000

export const DEFAULT_AUTH_RATE_LIMITS: AuthRateLimits = {
  loginPerIp: { max: 20, timeWindowMs: 15 * MINUTE },
  loginPerAccountAndIp: { max: 10, timeWindowMs: 15 * MINUTE },
  loginFailuresPerAccount: { max: 100, timeWindowMs: 15 * MINUTE },
  registerPerIp: { max: 10, timeWindowMs: 60 * MINUTE },
  registerPerAccount: { max: 5, timeWindowMs: 60 * MINUTE },
  forgotPasswordPerIp: { max: 10, timeWindowMs: 60 * MINUTE },
  forgotPasswordPerAccount: { max: 3, timeWindowMs: 60 * MINUTE },
  confirmationMailPerAccount: { max: 3, timeWindowMs: 60 * MINUTE },
  mailLinkPerIp: { max: 30, timeWindowMs: 15 * MINUTE },
  passwordCheckFailuresPerAccount: { max: 10, timeWindowMs: 15 * MINUTE },
  exportPerUser: { max: 10, timeWindowMs: 60 * MINUTE },
}

/** An onRequest hook counting every request from one address: counted before the body is parsed. */
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
  return everyAttemptLimit(app, limit, (request) =>
    options.perSource
      ? accountScopedKey(`${name}:account-ip:${sourceKey(request)}`, bodyEmail(request))
      : accountScopedKey(`${name}:account`, bodyEmail(request)),
  )
}

/**
 * An allowance per account (the request body's email) that refuses nothing: each call counts one
 * and says whether it was within the allowance, and the caller leaves out what it would have done
 * (a mail) without a different answer (D100). The same counters as every limit here.
 */
export function allowancePerAccount(app: FastifyInstance, name: string, limit: RateLimit) {
  const count = app.createRateLimit({
    max: limit.max,
    timeWindow: limit.timeWindowMs,
    keyGenerator: (request) => accountScopedKey(`${name}:account`, bodyEmail(request)),
  })
  return async (request: FastifyRequest): Promise<boolean> => {
    const result = await count(request)
    return result.isAllowed || !result.isExceeded
  }
}

/** A preHandler hook counting every call of the signed-in person (after `auth: 'user'`). */
export function limitPerUser(app: FastifyInstance, name: string, limit: RateLimit) {
  return everyAttemptLimit(app, limit, (request) =>
    accountScopedKey(`${name}:user`, request.user?.email ?? ''),
  )
}

function everyAttemptLimit(
  app: FastifyInstance,
  limit: RateLimit,
  keyGenerator: (request: FastifyRequest) => string,
) {
  const check = app.createRateLimit({ max: limit.max, timeWindow: limit.timeWindowMs, keyGenerator })
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const result = await check(request)
    if (result.isAllowed || !result.isExceeded) return
    refuse(reply, result.ttl)
  }
}

/** What a failure limit counts by: the address, the account (body email or signed-in user), or both. */
export type FailureScope = 'ip' | 'account' | 'account-ip' | 'user'

/**
 * Failed attempts only: `check` (a hook) refuses once the ceiling is reached without counting,
 * `recordFailure` counts one. Successes never count (D80).
 */
export function failureLimit(app: FastifyInstance, name: string, limit: RateLimit, scope: FailureScope) {
  const limiter = app.createRateLimit({
    max: limit.max,
    timeWindow: limit.timeWindowMs,
    keyGenerator: (request) => failureKey(name, scope, request),
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

function failureKey(name: string, scope: FailureScope, request: FastifyRequest): string {
  switch (scope) {
    case 'ip':
      return `${name}:failures-ip:${sourceKey(request)}`
    case 'account':
      return accountScopedKey(`${name}:account-failures`, bodyEmail(request))
    case 'account-ip':
      return accountScopedKey(`${name}:account-ip-failures:${sourceKey(request)}`, bodyEmail(request))
    case 'user':
      return accountScopedKey(`${name}:user-failures`, request.user?.email ?? '')
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

function bodyEmail(request: FastifyRequest): string {
  const body = request.body as { email?: unknown } | undefined
  return typeof body?.email === 'string' ? body.email.trim().toLowerCase() : ''
}
