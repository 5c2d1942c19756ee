/**
 * Figures: numbers in their written forms (1,200 = 1200 = 1 200 = 1.2k; 3.5 = 3,5), with the unit
 * or currency written beside them (20 knots, 3.5 %, €4,250, 4.250 Euro). A form two conventions
 * read differently ("1,200": English twelve hundred, German one point two) keeps both readings:
 * a figure is found when any reading of it is in the passage, so no convention is guessed wrong,
 * and a changed digit still changes every reading.
 */
import { matches, type Span } from './spans.ts'

/** Written unit → one name per unit, in English, German and French. */
const UNITS: Record<string, string> = {}
function unit(name: string, spellings: string) {
  for (const s of spellings.split('|')) UNITS[s] = name
}
unit('%', '%|percent|per cent|prozent|pour cent|pourcent')
unit('eur', '€|eur|euro|euros')
unit('usd', '$|usd|dollar|dollars|us$')
unit('gbp', '£|gbp|pound|pounds|pfund')
unit('chf', 'chf|franken|francs suisses')
unit('knot', 'knots|knot|kn|kt|knoten|nœuds|noeuds|nœud')
unit('km', 'km|kilometres|kilometers|kilometer|kilomètres')
unit('m', 'm|metres|meters|meter|mètres')
unit('cm', 'cm')
unit('mm', 'mm')
unit('kg', 'kg|kilograms|kilogramm|kilogrammes')
unit('g', 'g|grams|gramm|grammes')
unit('t', 'tonnes|tons|tonnen')
unit('b', 'bytes|byte|octets|octet')
unit('kb', 'kb|kib|kilobytes|kilobyte')
unit('mb', 'mb|mib|megabytes|megabyte')
unit('gb', 'gb|gib|gigabytes|gigabyte')
unit('tb', 'tb|tib|terabytes|terabyte')
unit('ms', 'ms|milliseconds|millisecond|millisekunden|millisekunde|millisecondes|milliseconde')
unit('s', 's|sec|secs|seconds|second|sekunden|sekunde|secondes|seconde')
unit('min', 'min|mins|minutes|minute|minuten')
unit('h', 'h|hrs|hours|hour|stunden|stunde|heures|heure')
unit('d', 'days|day|tage|tagen|tag|jours|jour')
unit('°c', '°c|°|grad')
unit('x', '×')

const SCALES: Record<string, number> = {
  thousand: 1e3,
  tausend: 1e3,
  mille: 1e3,
  million: 1e6,
  millions: 1e6,
  millionen: 1e6,
  mio: 1e6,
  billion: 1e9,
  billions: 1e9,
  milliarde: 1e9,
  milliarden: 1e9,
  mrd: 1e9,
  milliard: 1e9,
  milliards: 1e9,
}

const UNIT_WORDS = Object.keys(UNITS)
  .sort((a, b) => b.length - a.length)
  .map((u) => u.replace(/[$.]/g, '\\$&'))
  .join('|')
const SCALE_WORDS = Object.keys(SCALES)
  .sort((a, b) => b.length - a.length)
  .join('|')
/**
 * A currency sign before the figure ($5, € 4,250, US$ 12): read from the text before a match, so
 * the figure pattern starts with a digit and the regex engine skips to the digits of a passage.
 */
const PREFIX = /(?:us\$|\$|€|£|eur|usd|gbp|chf)\s?$/i
/** Groups of three after 1–3 digits (with one kind of separator), then maybe decimals. */
const FIGURE =
  "(?<figure>\\d{1,3}(?:(?<sep>[,.\\u00a0\\u202f'])\\d{3})(?:\\k<sep>\\d{3})*(?:[.,]\\d+)?|\\d+(?:[.,]\\d+)?)"
const SUFFIX = `(?:(?<k>k)(?![\\p{L}])|\\s?(?<scale>${SCALE_WORDS})(?![\\p{L}])\\.?)?(?:\\s?(?<unit>${UNIT_WORDS})(?![\\p{L}\\d]))?`
const NUMBER = new RegExp(`(?<![\\p{L}\\d.,_-])${FIGURE}(?![\\d])${SUFFIX}(?![\\p{L}\\d])`, 'giu')
/** French writes thousands with a plain space too ("1 200 euros"): read so only in French. */
const FRENCH_GROUPS = /(?<![\p{L}\d.,])(\d{1,3})((?: \d{3})+)(?![\d])/gu

/** The numeric readings of a written figure (both when its separator could mean either). */
export function readings(figure: string): number[] {
  const plain = figure.replace(/[\u00a0\u202f' ]/g, '')
  const separators = plain.match(/[.,]/g) ?? []
  if (separators.length === 0) return [Number(plain)]
  const last = plain.search(/[.,][^.,]*$/)
  const decimals = plain.length - last - 1
  if (new Set(separators).size > 1)
    return [Number(`${plain.slice(0, last).replace(/[.,]/g, '')}.${plain.slice(last + 1)}`)]
  if (separators.length > 1) return [Number(plain.replace(/[.,]/g, ''))]
  const asDecimal = Number(plain.replace(',', '.'))
  // One separator before exactly three digits: a thousands group or a decimal part.
  return decimals === 3 ? [Number(plain.replace(/[.,]/, '')), asDecimal] : [asDecimal]
}

const canonical = (n: number) =>
  Number.isInteger(n) ? String(n) : String(Number.parseFloat(n.toPrecision(12)))

export type Figure = {
  text: string
  values: string[]
  unit: string | null /** Characters of currency before it. */
  prefix: number
}

function figureOf(m: RegExpExecArray): Figure | null {
  const g = m.groups ?? {}
  if (!g.figure) return null
  const scale = g.k ? 1e3 : g.scale ? (SCALES[g.scale.toLowerCase()] ?? 1) : 1
  const prefix = PREFIX.exec(m.input.slice(Math.max(0, m.index - 4), m.index))?.[0] ?? ''
  const written = (prefix.trim() || g.unit)?.toLowerCase()
  const unitName = written ? (UNITS[written] ?? null) : null
  const values = readings(g.figure).map((n) => canonical(n * scale))
  return { text: `${prefix}${m[0]}`.trim(), values, unit: unitName, prefix: prefix.length }
}

/** The figures of a text; `french`: its plain-space thousands ("1 200") are one figure. */
export function figures(text: string, french: boolean): Span<Figure>[] {
  const read = french
    ? text.replace(FRENCH_GROUPS, (_, head: string, groups: string) => head + groups.replace(/ /g, '\u00a0'))
    : text
  return matches(read, NUMBER, figureOf).map((s) => ({ ...s, start: s.start - s.value.prefix }))
}

/** Keys a passage's figure is known by: its value, and its value with its unit when it has one. */
export function passageFigureKeys(f: Figure): string[] {
  return f.values.flatMap((v) => [`n:${v}`, `n:${v}:${f.unit ?? ''}`])
}

/**
 * Keys an answer's figure is found by: a bare figure by its value; a figure with a unit by the
 * value with the same unit, or written bare in the passage (the unit said by the words around it).
 */
export function answerFigureKeys(f: Figure): string[] {
  if (!f.unit) return f.values.map((v) => `n:${v}`)
  return f.values.flatMap((v) => [`n:${v}:${f.unit}`, `n:${v}:`])
}

/** Number words a passage may write a small figure in ("three times" for an answer's "3 times"). */
const NUMBER_WORDS = new Map<string, number>()
;[
  'zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve',
  'null|eins|zwei|drei|vier|fünf|sechs|sieben|acht|neun|zehn|elf|zwölf',
  'zéro|un|deux|trois|quatre|cinq|six|sept|huit|neuf|dix|onze|douze',
].forEach((list) => {
  list.split('|').forEach((w, i) => {
    NUMBER_WORDS.set(w, i)
  })
})
NUMBER_WORDS.set('ein', 1)
NUMBER_WORDS.set('eine', 1)
NUMBER_WORDS.set('une', 1)
NUMBER_WORDS.set('hundred', 100)
NUMBER_WORDS.set('hundert', 100)
NUMBER_WORDS.set('cent', 100)

/** Adds the values of the number words among a passage's lower-case words to its keys. */
export function addNumberWordKeys(words: readonly string[], keys: Set<string>): void {
  for (const w of words) {
    const n = NUMBER_WORDS.get(w)
    if (n !== undefined) keys.add(`n:${n}`).add(`n:${n}:`)
  }
}
