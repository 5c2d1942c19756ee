/**
 * How old a conversation looks (product §2, §9): the sidebar's relative time ('Just now' under
 * 1 hour, 'Nh ago' under 24 hours, else the date) and History's group labels ('Today' under
 * 1 day, 'N days ago' under 7 days, else the date). Pure: `now` and the date format are passed in.
 */
export const HOUR_MS = 60 * 60 * 1000
export const DAY_MS = 24 * HOUR_MS
export const RECENT_HOURS = 24
export const RECENT_DAYS = 7

export type FormatDate = (date: Date) => string

/** The reader's own locale. */
export const localDate: FormatDate = (date) => date.toLocaleDateString()

/** A clock skewed into the future counts as "no time passed". */
function ageMs(timestamp: string, now: Date): number {
  return Math.max(0, now.getTime() - Date.parse(timestamp))
}

export function relativeTime(timestamp: string, now: Date, formatDate: FormatDate = localDate): string {
  const age = ageMs(timestamp, now)
  if (age < HOUR_MS) return 'Just now'
  if (age < RECENT_HOURS * HOUR_MS) return `${Math.floor(age / HOUR_MS)}h ago`
  return formatDate(new Date(timestamp))
}

/** 'N days ago' reads '1 day ago' for N = 1 (the spec's pattern, made grammatical). */
export function historyGroupLabel(timestamp: string, now: Date, formatDate: FormatDate = localDate): string {
  const days = Math.floor(ageMs(timestamp, now) / DAY_MS)
  if (days < 1) return 'Today'
  if (days < RECENT_DAYS) return days === 1 ? '1 day ago' : `${days} days ago`
  return formatDate(new Date(timestamp))
}

export type Group<T> = { label: string; items: T[] }

/** Items in their given order (newest first), under their group label; one group per label. */
export function groupByAge<T extends { timestamp: string }>(
  items: readonly T[],
  now: Date,
  formatDate: FormatDate = localDate,
): Group<T>[] {
  const groups = new Map<string, T[]>()
  for (const item of items) {
    const label = historyGroupLabel(item.timestamp, now, formatDate)
    const group = groups.get(label)
    if (group) group.push(item)
    else groups.set(label, [item])
  }
  return [...groups].map(([label, grouped]) => ({ label, items: grouped }))
}

// One formatter for every message: toLocaleTimeString with options builds a new one per call
// (~0.5 ms each), which a conversation of 60 messages paid on every render of its list.
let clockFormat: Intl.DateTimeFormat | null = null

/** A message's time of day, as the reader writes it (hours and minutes). */
export function clockTime(timestamp: string): string {
  const date = new Date(timestamp)
  // The formatter throws on an invalid date; toLocaleTimeString says 'Invalid Date', as before.
  if (Number.isNaN(date.getTime())) return date.toLocaleTimeString()
  clockFormat ??= new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' })
  return clockFormat.format(date)
}
