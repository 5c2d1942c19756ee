/** Dates as a person reads them, in their own locale. */
const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' })

/** An RFC 3339 time (Drive's modifiedTime, ours) as a date in the reader's locale; anything unparsable as it came. */
export function formatModified(modifiedTime: string): string {
  const date = new Date(modifiedTime)
  return Number.isNaN(date.getTime()) ? modifiedTime : dateFormat.format(date)
}
