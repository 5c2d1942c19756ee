/**
 * Who may have an answer now through the API (issue 38, D130, D134): the key's model tokens per
 * UTC day (the key's own lower value, else API_KEY_TOKENS_PER_DAY), the person's own tokens a day
 * (USAGE_TOKENS_PER_DAY, across the app, published assistants and the API) and the person's
 * answers being written at once (LLM_CONCURRENCY_PER_USER, shared with the app's answers). Counted
 * in the database under the key's and the person's locks (api-quotas-repository.ts), so parallel
 * requests answer exactly as many as the quotas allow, on any number of instances. The key's
 * requests a minute are counted before, where every call with a key is (api-keys/key-rate.ts).
 */

import type { Db } from '../db/database.ts'
import { DAY_MS, dayStart, secondsUntil, utcDay } from '../usage/utc-windows.ts'
import {
  createQuotasRepository,
  type QuotaCounts,
  type QuotasRepository,
  type QuotaWindows,
} from './api-quotas-repository.ts'

/**
 * How long an API answer holds its place at most: as the app's claim on a conversation (D84), it
 * is given back as soon as the answer ends and only lapses when an instance dies mid-answer.
 */
export const API_ANSWER_LEASE_MS = 5 * 60_000
/** Seconds a caller refused for answers at once is told to wait: answers take seconds. */
export const ANSWERS_AT_ONCE_RETRY_AFTER_SECONDS = 5

export type QuotaReason = 'key-tokens' | 'person-tokens' | 'answers-at-once'

export type QuotaLimits = {
  tokensPerDay: number
  /** USAGE_TOKENS_PER_DAY; 0: no limit. */
  usageTokensPerDay: number
  /** LLM_CONCURRENCY_PER_USER. */
  answersAtOnce: number
}

export type ApiAdmission =
  | {
      kind: 'admitted'
      /** Records what the answer spent and gives its place back (call exactly once, also on failure: tokens 0). */
      finish(tokens: number): Promise<void>
    }
  | { kind: 'refused'; reason: QuotaReason; retryAfterSeconds: number }

export type ApiQuotas = {
  admit(input: {
    keyId: string
    userId: string
    assistantId: string | null
    limits: QuotaLimits
  }): Promise<ApiAdmission>
}

/** Which quota refuses, or null. Daily ones are named first, so the wait named is the longest. */
export function quotaRefusal(counts: QuotaCounts, limits: QuotaLimits): QuotaReason | null {
  if (limits.usageTokensPerDay > 0 && counts.personTokensToday >= limits.usageTokensPerDay)
    return 'person-tokens'
  if (counts.keyTokensToday >= limits.tokensPerDay) return 'key-tokens'
  if (counts.answersAtOnce >= limits.answersAtOnce) return 'answers-at-once'
  return null
}

export function quotaRetryAfter(reason: QuotaReason, at: Date): number {
  if (reason === 'answers-at-once') return ANSWERS_AT_ONCE_RETRY_AFTER_SECONDS
  return secondsUntil(at, new Date(dayStart(at).getTime() + DAY_MS))
}

export function createApiQuotas(deps: { db: Db; now: () => Date }): ApiQuotas {
  return apiQuotasOn(createQuotasRepository(deps.db), deps.now)
}

export function apiQuotasOn(repository: QuotasRepository, now: () => Date): ApiQuotas {
  return {
    async admit({ keyId, userId, assistantId, limits }) {
      const at = now()
      const windows: QuotaWindows = {
        keyId,
        userId,
        assistantId,
        day: utcDay(at),
        dayStart: dayStart(at),
        at,
        leaseUntil: new Date(at.getTime() + API_ANSWER_LEASE_MS),
      }
      const admitted = await repository.admit(windows, (counts) => quotaRefusal(counts, limits))
      if (admitted.refused !== null)
        return {
          kind: 'refused',
          reason: admitted.refused,
          retryAfterSeconds: quotaRetryAfter(admitted.refused, at),
        }
      const { leaseId } = admitted
      let finished = false
      return {
        kind: 'admitted',
        async finish(tokens) {
          if (finished) return
          finished = true
          const spent = Number.isFinite(tokens) ? Math.max(0, Math.round(tokens)) : 0
          await repository.finish(windows, leaseId, spent)
        },
      }
    },
  }
}
