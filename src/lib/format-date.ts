/** Dates as a person reads them, in their own locale. */
const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' })

/** An RFC 3339 time (Drive's modifiedTime, ours) as a date in the reader's locale; anything unparsable as it came. */
export function formatModified(modifiedTime: string): string {
  const date = new Date(modifiedTime)
  return Number.isNaN(date.getTime()) ? modifiedTime : dateFormat.format(date)
}

const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' })

/** A moment as a person reads it: the date and the time to the minute, in their own locale (no seconds). */
export function formatDateTime(time: string): string {
  const date = new Date(time)
  return Number.isNaN(date.getTime()) ? time : dateTimeFormat.format(date)
}
