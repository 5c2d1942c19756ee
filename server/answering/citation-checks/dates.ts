/**
 * Dates in the common forms of English, German and French: 2024-03-03, 03/03/2024, 03.03.2024,
 * 3 March 2024, March 3, 2024, 3. März 2024, 1er mars 2024, and without a day or a year
 * (March 2024, 3 March). A numeric date two conventions read differently (03/04/2024: 3 April
 * or March 4) keeps both readings, as figures do.
 */
import { matches, type Span } from './spans.ts'

const MONTH_NAMES: string[] = [
  'january|jan|januar|jänner|janvier|janv',
  'february|feb|februar|feber|février|fevrier|févr|fevr',
  'march|mar|märz|maerz|mars',
  'april|apr|avril|avr',
  'may|mai',
  'june|jun|juni|juin',
  'july|jul|juli|juillet|juil',
  'august|aug|août|aout',
  'september|sep|sept|septembre',
  'october|oct|oktober|okt|octobre',
  'november|nov|novembre',
  'december|dec|dezember|dez|décembre|decembre|déc',
]
const MONTHS = new Map<string, number>()
MONTH_NAMES.forEach((names, i) => {
  for (const n of names.split('|')) MONTHS.set(n, i + 1)
})
const MONTH = `(?<month>${[...MONTHS.keys()].sort((a, b) => b.length - a.length).join('|')})\\.?`
const DAY = '(?<day>[0-3]?\\d)(?:st|nd|rd|th|er|\\.)?'
const YEAR = '(?<year>\\d{4})'

const ISO = /(?<![\d.])(?<year>\d{4})-(?<month>\d{1,2})-(?<day>\d{1,2})(?![\d])/gu
const NUMERIC = /(?<![\d.,/])(?<a>[0-3]?\d)(?<sep>[./])(?<b>[0-3]?\d)\k<sep>(?<year>\d{4})(?![\d])/gu
const DAY_MONTH_YEAR = new RegExp(`(?<![\\p{L}\\d])${DAY}\\s+${MONTH}(?:\\s+${YEAR})?(?![\\p{L}\\d])`, 'giu')
const MONTH_DAY_YEAR = new RegExp(`(?<![\\p{L}\\d])${MONTH}\\s+${DAY},?\\s+${YEAR}(?![\\p{L}\\d])`, 'giu')
const MONTH_YEAR = new RegExp(`(?<![\\p{L}\\d])${MONTH}\\s+${YEAR}(?![\\p{L}\\d])`, 'giu')

export type DateValue = { text: string; keys: string[] }

const pad = (n: number) => String(n).padStart(2, '0')
const valid = (month: number, day: number) => month >= 1 && month <= 12 && day >= 1 && day <= 31

function dateKeys(year: string | undefined, month: number, day: number | undefined): string[] {
  if (day !== undefined && !valid(month, day)) return []
  if (year === undefined) return day === undefined ? [] : [`md:${pad(month)}-${pad(day)}`]
  return day === undefined ? [`ym:${year}-${pad(month)}`] : [`d:${year}-${pad(month)}-${pad(day)}`]
}

function named(m: RegExpExecArray, withDay: boolean): DateValue | null {
  const g = m.groups ?? {}
  const month = MONTHS.get((g.month ?? '').toLowerCase())
  // "may" and "mar" are English words too: only a capitalised English month stands alone.
  if (!month || (!g.year && /^(may|mar|jun|jul|dec|sep|oct|nov|aug|apr|jan|feb)$/.test(g.month ?? '')))
    return null
  const keys = dateKeys(g.year, month, withDay ? Number(g.day) : undefined)
  return keys.length > 0 ? { text: m[0].trim(), keys } : null
}

/** The dates of a text, each with its readings as keys (d:YYYY-MM-DD, ym:YYYY-MM, md:MM-DD). */
export function dates(text: string): Span<DateValue>[] {
  const found: Span<DateValue>[] = []
  const add = (spans: Span<DateValue>[]) => {
    for (const s of spans) if (!found.some((f) => s.start < f.end && f.start < s.end)) found.push(s)
  }
  add(
    matches(text, ISO, (m) => {
      const g = m.groups ?? {}
      const keys = dateKeys(g.year, Number(g.month), Number(g.day))
      return keys.length > 0 ? { text: m[0], keys } : null
    }),
  )
  add(
    matches(text, NUMERIC, (m) => {
      const g = m.groups ?? {}
      const a = Number(g.a)
      const b = Number(g.b)
      // Day first (Europe, dots always); month first too with slashes (the United States).
      const keys = [...dateKeys(g.year, b, a), ...(g.sep === '/' ? dateKeys(g.year, a, b) : [])]
      return keys.length > 0 ? { text: m[0], keys: [...new Set(keys)] } : null
    }),
  )
  add(matches(text, MONTH_DAY_YEAR, (m) => named(m, true)))
  add(matches(text, DAY_MONTH_YEAR, (m) => named(m, true)))
  add(matches(text, MONTH_YEAR, (m) => named(m, false)))
  return found
}

/** The shorter keys a passage's full date also answers to: its month, its day, its year. */
export function passageDateKeys(keys: readonly string[]): string[] {
  return keys.flatMap((k) => {
    const full = /^d:(\d{4})-(\d\d)-(\d\d)$/.exec(k)
    if (full) return [k, `ym:${full[1]}-${full[2]}`, `md:${full[2]}-${full[3]}`, `n:${full[1]}`]
    const month = /^ym:(\d{4})-\d\d$/.exec(k)
    return month ? [k, `n:${month[1]}`] : [k]
  })
}
