/**
 * Who may have an answer now through the API (issue 38, D130): the key's requests per UTC minute
 * and model tokens per UTC day (the key's own lower values, else the operator's
 * API_KEY_REQUESTS_PER_MINUTE and API_KEY_TOKENS_PER_DAY), and the person's own tokens a day
 * (USAGE_TOKENS_PER_DAY, across the app, published assistants and the API). Counted in the
 * database under the key's lock (api-quotas-repository.ts), so 50 parallel requests at the edge
 * answer exactly as many as the quota allows, on any number of instances.
 */

import type { Db } from '../db/database.ts'
import { DAY_MS, dayStart, secondsUntil, utcDay } from '../usage/utc-windows.ts'
import {
  createQuotasRepository,
  type QuotaCounts,
  type QuotasRepository,
  type QuotaWindows,
} from './api-quotas-repository.ts'

export const MINUTE_MS = 60_000
/** How often (by the app's clock) ended windows are deleted, per instance. */
export const SWEEP_EVERY_MS = 60_000

export type QuotaReason = 'key-requests' | 'key-tokens' | 'person-tokens'

export type QuotaLimits = {
  requestsPerMinute: number
  tokensPerDay: number
  /** USAGE_TOKENS_PER_DAY; 0: no limit. */
  usageTokensPerDay: number
}

export type ApiAdmission =
  | {
      kind: 'admitted'
      /** Records what the answer spent (call exactly once, also on failure: tokens 0). */
      finish(tokens: number): Promise<void>
    }
  | { kind: 'refused'; reason: QuotaReason; retryAfterSeconds: number }

export type ApiQuotas = {
  admit(input: { keyId: string; userId: string; limits: QuotaLimits }): Promise<ApiAdmission>
}

export function minuteStart(at: Date): Date {
  return new Date(Math.floor(at.getTime() / MINUTE_MS) * MINUTE_MS)
}

/** Which quota refuses, or null. Daily ones are named first, so the wait named is the longest. */
export function quotaRefusal(counts: QuotaCounts, limits: QuotaLimits): QuotaReason | null {
  if (limits.usageTokensPerDay > 0 && counts.personTokensToday >= limits.usageTokensPerDay)
    return 'person-tokens'
  if (counts.keyTokensToday >= limits.tokensPerDay) return 'key-tokens'
  if (counts.keyRequestsThisMinute >= limits.requestsPerMinute) return 'key-requests'
  return null
}

export function quotaRetryAfter(reason: QuotaReason, at: Date): number {
  if (reason === 'key-requests') return secondsUntil(at, new Date(minuteStart(at).getTime() + MINUTE_MS))
  return secondsUntil(at, new Date(dayStart(at).getTime() + DAY_MS))
}

export function createApiQuotas(deps: { db: Db; now: () => Date }): ApiQuotas {
  return apiQuotasOn(createQuotasRepository(deps.db), deps.now)
}

export function apiQuotasOn(repository: QuotasRepository, now: () => Date): ApiQuotas {
  let lastSweep = Number.NEGATIVE_INFINITY
  return {
    async admit({ keyId, userId, limits }) {
      const at = now()
      if (at.getTime() - lastSweep >= SWEEP_EVERY_MS) {
        lastSweep = at.getTime()
        await repository.sweep(minuteStart(at), dayStart(at))
      }
      const windows: QuotaWindows = {
        keyId,
        userId,
        day: utcDay(at),
        dayStart: dayStart(at),
        minuteStart: minuteStart(at),
      }
      const { refused } = await repository.admit(windows, (counts) => quotaRefusal(counts, limits))
      if (refused !== null)
        return { kind: 'refused', reason: refused, retryAfterSeconds: quotaRetryAfter(refused, at) }
      let finished = false
      return {
        kind: 'admitted',
        async finish(tokens) {
          if (finished) return
          finished = true
          const spent = Number.isFinite(tokens) ? Math.max(0, Math.round(tokens)) : 0
          await repository.finish(windows, spent)
        },
      }
    },
  }
}
