/**
 * The cases bench/citations.ts measures, made from real passages without a model: a faithful
 * cited sentence restates a passage's sentence (a frame of other words around it, its first
 * figure written in another form, markdown links dropped) or quotes a stretch of it verbatim
 * (sometimes with an ellipsis or a word left out); a corrupted one changes one figure, date,
 * code or name, or one word of a quotation, or cites the faithful sentence to another passage
 * among those given. The source passage's place among the given ones is drawn at random.
 */
import { sentences } from '../server/answering/extractive.ts'

export type Language = 'english' | 'german' | 'french'
export type Kind = 'restated' | 'quote' | 'number' | 'date' | 'code' | 'name' | 'quote-word' | 'wrong-passage'
export type Case = {
  language: Language
  kind: Kind
  faithful: boolean
  answer: string
  passages: { text: string; language: string }[]
  /** 1-based index of the passage the sentence comes from. */
  source: number
  /** Which half: 'tuning' (looked at while building the check) or 'held-out'. */
  half: 'tuning' | 'held-out'
}

/** A small seeded generator (mulberry32): the same cases on every run. */
export function random(seed: number): () => number {
  let a = seed
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const FRAMES: Record<Language, string[]> = {
  english: [
    'According to the documentation, {s}',
    'The page explains that {s}',
    'In short, {s}',
    '{S}, as the document notes',
  ],
  german: [
    'Laut der Dokumentation gilt: {S}',
    'Die Seite erklärt es so: {S}',
    'Kurz gesagt: {S}',
    'Im Text heißt es: {S}',
  ],
  french: [
    'Selon la documentation, {s}',
    'La page explique que {s}',
    'En bref : {s}',
    '{S}, comme le précise le document',
  ],
}
const QUOTE_FRAMES: Record<Language, string> = {
  english: 'The page says “{q}”',
  german: 'Dort steht „{q}“',
  french: 'Le texte indique « {q} »',
}
/** Names a corrupted sentence puts in place of one of the passage's (none is in the corpora's passages given). */
const NAME_POOL: Record<Language, string[]> = {
  english: ['Contoso', 'Fabrikam', 'Wingtip', 'Tailspin', 'Northwind', 'Litware'],
  german: ['Ostwind', 'Brandauer', 'Kleinschmidt', 'Wernigerode', 'Rautenberg', 'Falkenhorst'],
  french: ['Beaumarchais', 'Montreuil', 'Lavallière', 'Roquefort', 'Villeneuve', 'Dufresne'],
}

/** Acronyms none of the corpora writes, for an acronym changed (the new German generator). */
const ACRONYMS = ['QSF', 'ZRT', 'KMW', 'VXB', 'JTQ', 'WQP']

const words = (s: string) => s.split(/\s+/).filter(Boolean)

function clean(sentence: string): string {
  return sentence
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\*\*|__/g, '')
    .replace(/^#+\s*/, '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[.:;!?]+$/, '')
}

/** A sentence worth citing: 6–40 words of prose with a digit or a capitalised word inside. */
function citable(sentence: string): boolean {
  const n = words(sentence).length
  if (n < 6 || n > 40 || /[|{}<>=]|```/.test(sentence)) return false
  return /\d/.test(sentence) || /\s\p{Lu}\p{L}+/u.test(sentence)
}

/**
 * The first plain figure of four or more digits (not a year) written in the language's other form;
 * never one inside an address, a port or a path (localhost:8080, /v1/2048), which no writer regroups.
 */
function reformatFigure(s: string, language: Language): string {
  return s.replace(
    /(?<![\d.,\p{L}:/_-])(\d{1,3})(?:[,.](\d{3}))(?![\d.,])|(?<![\d.,\p{L}:/_-])(\d{4,6})(?![\d.,\p{L}/_])/u,
    (m, a, b, plain) => {
      if (plain) {
        if (/^(19|20)\d\d$/.test(plain)) return m
        const grouped = plain.replace(
          /\B(?=(\d{3})+$)/g,
          language === 'english' ? ',' : language === 'german' ? '.' : '\u00a0',
        )
        return grouped
      }
      return language === 'english' ? (`${a},${b}` === m ? `${a}${b}` : m) : m
    },
  )
}

function frame(s: string, language: Language, pick: <T>(xs: T[]) => T): string {
  const lowered = /^\p{Lu}\p{Ll}/u.test(s) && language !== 'german' ? s[0]?.toLowerCase() + s.slice(1) : s
  return pick(FRAMES[language]).replace('{s}', lowered).replace('{S}', s)
}

type Source = { text: string; id: number }

/** Cases from one language's passages: faithful ones and each kind of corruption. */
/**
 * `names`: the only words a "name" corruption may change (germanNames for German, whose nouns
 * are all capitalised); without it, any capitalised word inside a sentence (English, French).
 */
export function makeCases(
  passages: Source[],
  language: Language,
  count: number,
  seed: number,
  names?: ReadonlySet<string>,
): Case[] {
  const next = random(seed)
  const pick = <T>(xs: T[]): T => xs[Math.floor(next() * xs.length)] as T
  const out: Case[] = []
  for (let tries = 0; out.length < count * 8 && tries < count * 20; tries++) {
    const source = pick(passages)
    const candidates = sentences(source.text, language).map(clean).filter(citable)
    if (candidates.length === 0) continue
    const sentence = pick(candidates)
    const others = new Set<Source>()
    while (others.size < 4) {
      const o = pick(passages)
      if (o.id !== source.id) others.add(o)
    }
    const given = [...others]
    const at = Math.floor(next() * 5)
    given.splice(at, 0, source)
    const base = {
      language,
      passages: given.map((p) => ({ text: p.text, language })),
      source: at + 1,
      half: source.id % 2 === 0 ? ('tuning' as const) : ('held-out' as const),
    }
    const cite = (s: string, n = at + 1) => `${s} [${n}].`
    const restated = frame(reformatFigure(sentence, language), language, pick)
    out.push({ ...base, kind: 'restated', faithful: true, answer: cite(restated) })
    const ws = words(sentence)
    const span = ws.slice(0, Math.min(ws.length, 4 + Math.floor(next() * 6)))
    const start = Math.floor(next() * Math.max(1, ws.length - span.length))
    const stretch = ws.slice(start, start + span.length).map((w) => w.replace(/[“”„«»"]/g, ''))
    let quoted = stretch.join(' ').replace(/^[,;:(]+|[,;:)]+$/g, '')
    const variant = next()
    if (stretch.length >= 7 && variant < 0.3)
      quoted = `${stretch.slice(0, 3).join(' ')} … ${stretch.slice(5).join(' ')}`
    else if (stretch.length >= 6 && variant < 0.6)
      quoted = [...stretch.slice(0, 2), ...stretch.slice(3)].join(' ')
    out.push({
      ...base,
      kind: 'quote',
      faithful: true,
      answer: cite(QUOTE_FRAMES[language].replace('{q}', quoted)),
    })
    const corrupt = (kind: Kind, changed: string | null) => {
      if (changed === null || changed === restated) return
      out.push({ ...base, kind, faithful: false, answer: cite(changed) })
    }
    corrupt(...changeFigure(restated, source.text, next))
    const renamed = changeName(sentence, source.text, language, pick, names)
    corrupt('name', renamed && frame(reformatFigure(renamed, language), language, pick))
    const changedQuote = changeWord(stretch, source.text, next)
    if (changedQuote)
      out.push({
        ...base,
        kind: 'quote-word',
        faithful: false,
        answer: cite(QUOTE_FRAMES[language].replace('{q}', changedQuote)),
      })
    const wrong = (at + 1 + Math.floor(next() * 4)) % 5
    out.push({ ...base, kind: 'wrong-passage', faithful: false, answer: cite(restated, wrong + 1) })
  }
  return out
}

const DATE_LIKE =
  /\d{4}-\d\d-\d\d|\d{1,2}[./]\d{1,2}[./]\d{4}|\d{1,2}\.?\s+\p{L}+\.?\s+\d{4}|\p{L}+\s+\d{1,2},?\s+\d{4}/u

/** One digit changed in the sentence: a figure, a date's or a code's, as the token holding it is. */
function changeFigure(s: string, passage: string, next: () => number): [Kind, string | null] {
  const tokens = [...s.matchAll(/[\p{L}\d§][\p{L}\d._/-]*\d[\p{L}\d._/-]*|\d+/gu)]
  if (tokens.length === 0) return ['number', null]
  const token = tokens[Math.floor(next() * tokens.length)] as RegExpExecArray
  const text = token[0]
  const digits = [...text.matchAll(/\d/g)]
  const d = digits[Math.floor(next() * digits.length)] as RegExpExecArray
  const value = Number(d[0])
  const changedDigit = String((value + 1 + Math.floor(next() * 8)) % 10)
  const changed = text.slice(0, d.index) + changedDigit + text.slice(d.index + 1)
  if (/^0\d/.test(changed) && !/^0\d/.test(text)) return ['number', null]
  if (passage.includes(changed)) return ['number', null]
  const around = s.slice(Math.max(0, token.index - 12), token.index + text.length + 12)
  const kind: Kind = /\p{L}|§/u.test(text) ? 'code' : DATE_LIKE.test(around) ? 'date' : 'number'
  return [kind, s.slice(0, token.index) + changed + s.slice(token.index + text.length)]
}

/** German articles and determiners (with one adjective between): the noun after them is no name. */
const GERMAN_DETERMINER =
  /(?:^|\s)(?:der|die|das|den|dem|des|ein|eine|einen|einem|einer|eines|im|am|vom|zum|zur|beim|ins|dies\p{Ll}*|jed\p{Ll}*|all\p{Ll}*|kein\p{Ll}*|ihr\p{Ll}*|sein\p{Ll}*|mein\p{Ll}*|unser\p{Ll}*|welch\p{Ll}*|manch\p{Ll}*)\s+(?:\p{Ll}+\s+)?$/u
const GERMAN_DETERMINER_ANY_CASE = new RegExp(GERMAN_DETERMINER.source, 'iu')
/** A capitalised word after a lower-case word or a comma: not capitalised for opening a sentence. */
const INSIDE_CAPITALISED = /(?<=[\p{Ll},]\s)\p{Lu}[\p{Ll}\p{Lu}]+/gu

/**
 * The words of the German manuals that are names (GNU, Debian, SELinux, Moolenaar), told without
 * the check's own rule: capitalised inside a sentence of the French translation of the same
 * manuals (French capitalises names, not nouns), never a French noun (after le, la, un…), and
 * never written after a German article or determiner (a German noun: "das System").
 */
export function germanNames(german: readonly Source[], french: readonly Source[]): Set<string> {
  const capitalisedInFrench = new Set(
    french.flatMap((p) => [...p.text.matchAll(INSIDE_CAPITALISED)].map((m) => m[0])),
  )
  const frenchNouns = new Set(
    french.flatMap((p) =>
      [...p.text.matchAll(/\b(?:le|la|les|un|une|des|du|de|l')\s*(\p{Ll}+)/gu)].map((m) => m[1]),
    ),
  )
  const germanNouns = new Set<string>()
  for (const p of german)
    for (const m of p.text.matchAll(/(?<=\s)\p{Lu}\p{L}+(?![-\p{L}])/gu))
      if (GERMAN_DETERMINER.test(p.text.slice(Math.max(0, m.index - 40), m.index))) germanNouns.add(m[0])
  return new Set(
    [...capitalisedInFrench].filter((w) => !frenchNouns.has(w.toLowerCase()) && !germanNouns.has(w)),
  )
}

/**
 * A capitalised word inside the sentence, after a lower-case word or a comma, replaced by a name
 * from the pool; with `names`, only one of those. The draws are the same with or without `names`
 * (two when the sentence has a capitalised word at all), so the other cases stay the same.
 */
function changeName(
  s: string,
  passage: string,
  language: Language,
  pick: <T>(xs: T[]) => T,
  names?: ReadonlySet<string>,
): string | null {
  const found = [...s.matchAll(INSIDE_CAPITALISED)].filter((m) => m.index > 0)
  // Not a word the passage also writes in lower case; in German (nouns are capitalised) not one after an article either.
  const article =
    /(?:^|\s)(?:der|die|das|den|dem|des|ein|eine|einen|einem|einer|eines|im|am|vom|zum|zur)\s+(?:\p{Ll}+\s+)?$/u
  const capitalised = found.filter(
    (m) =>
      !passage.includes(m[0].toLowerCase()) && !(language === 'german' && article.test(s.slice(0, m.index))),
  )
  if (capitalised.length === 0) return null
  const candidates = names
    ? capitalised.filter((m) => names.has(m[0]) && !GERMAN_DETERMINER_ANY_CASE.test(s.slice(0, m.index)))
    : capitalised
  const m = pick(candidates.length > 0 ? candidates : capitalised)
  const replacement = pick(NAME_POOL[language].filter((n) => !passage.includes(n)))
  if (candidates.length === 0) return null
  // A name is changed into one of its kind: an acronym into another acronym (LZMA → QSF).
  const acronym = names !== undefined && /^\p{Lu}{2,}$/u.test(m[0])
  const changed = acronym ? (ACRONYMS[replacement.length % ACRONYMS.length] as string) : replacement
  return s.slice(0, m.index) + changed + s.slice(m.index + m[0].length)
}

/** One word of at least three letters inside the quotation replaced by another word of the passage. */
function changeWord(stretch: string[], passage: string, next: () => number): string | null {
  const inner = stretch
    .map((w, i) => ({ w, i }))
    .filter(({ w, i }) => i > 0 && i < stretch.length - 1 && /^\p{L}{3,}$/u.test(w))
  if (inner.length === 0) return null
  const { i, w } = inner[Math.floor(next() * inner.length)] as { w: string; i: number }
  const vocabulary = passage.match(/\p{L}{3,}/gu) ?? []
  const other = vocabulary.filter((v) => v.toLowerCase() !== w.toLowerCase())
  if (other.length === 0) return null
  const changed = [...stretch]
  changed[i] = other[Math.floor(next() * other.length)] as string
  return changed.join(' ').replace(/^[,;:(]+|[,;:)]+$/g, '')
}
