/**
 * The UTC hour and day a moment of the app's clock falls in (D119): budgets count per window
 * of the injected clock, never the machine's calendar or time zone.
 */
export const HOUR_MS = 60 * 60_000
export const DAY_MS = 24 * HOUR_MS

export function hourStart(at: Date): Date {
  return new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS)
}

export function dayStart(at: Date): Date {
  return new Date(Math.floor(at.getTime() / DAY_MS) * DAY_MS)
}

/** `YYYY-MM-DD` of the UTC day. */
export function utcDay(at: Date): string {
  return dayStart(at).toISOString().slice(0, 10)
}

/** Whole seconds from `at` until `end` (at least 1: a Retry-After of 0 invites a busy loop). */
export function secondsUntil(at: Date, end: Date): number {
  return Math.max(1, Math.ceil((end.getTime() - at.getTime()) / 1000))
}
