/**
 * Every call made with a key counts against the key's requests per UTC minute (issue 38, D134):
 * the library's calls as well as the OpenAI-compatible endpoint's, counted where the key is
 * verified (api-keys-service.ts), before the route runs. Windows are fixed UTC minutes of the
 * injected clock; a refusal names the seconds until the minute ends (Retry-After).
 */
import type { KeyRateRepository } from './key-rate-repository.ts'

export const MINUTE_MS = 60_000
const DAY_MS = 24 * 60 * MINUTE_MS
/** How often (by the app's clock) ended windows are deleted, per instance. */
export const SWEEP_EVERY_MS = 60_000

export type KeyRate = {
  /** Counts the request; null when admitted, else the seconds until the key's minute ends. */
  admit(input: { keyId: string; userId: string; requestsPerMinute: number; at: Date }): Promise<number | null>
}

export function minuteStart(at: Date): Date {
  return new Date(Math.floor(at.getTime() / MINUTE_MS) * MINUTE_MS)
}

/** Whole seconds until the minute of `at` ends (at least 1: a Retry-After of 0 invites a busy loop). */
export function secondsLeftInMinute(at: Date): number {
  return Math.max(1, Math.ceil((minuteStart(at).getTime() + MINUTE_MS - at.getTime()) / 1000))
}

export function createKeyRate(repository: KeyRateRepository): KeyRate {
  let lastSweep = Number.NEGATIVE_INFINITY
  return {
    async admit({ keyId, userId, requestsPerMinute, at }) {
      if (at.getTime() - lastSweep >= SWEEP_EVERY_MS) {
        lastSweep = at.getTime()
        const day = new Date(Math.floor(at.getTime() / DAY_MS) * DAY_MS)
        await repository.sweep(minuteStart(at), day)
      }
      const counted = await repository.countRequest(keyId, userId, minuteStart(at), requestsPerMinute)
      return counted ? null : secondsLeftInMinute(at)
    },
  }
}
