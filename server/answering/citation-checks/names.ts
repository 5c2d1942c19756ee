/**
 * Proper names: capitalised words that are not capitalised for being first in a sentence. In
 * English and French that is every other capitalised word (a few words are capitalised for
 * other reasons: "I", the days and months, German's formal "Sie"). German capitalises every noun,
 * so a capitalised German word is taken for a name only when it looks like one: an acronym or a
 * word with a capital inside (GNU, PostgreSQL), a word of a run of capitalised words (Richard
 * Stallman), or a word the given passages and question do not know in any form that has none of
 * the endings German common nouns are made with (-ung, -heit, -keit…). A common noun the answer
 * brings in that none of those catch is taken for a name: a false alarm the bench counts.
 */
import { comparableWords } from './normalise.ts'
import type { Span } from './spans.ts'

const WORD = /\p{L}[\p{L}\p{M}'-]*/gu
/** What may stand before a word that is then first, as if a sentence began there. */
const OPENS = /(?:^|[:;([{"“„«»‚‘*•#>–—]|^\s*-|\d\.)\s*$/u

const NOT_NAMES = new Set(
  [
    'i|i’m|i’ve|i’d|i’ll|monday|tuesday|wednesday|thursday|friday|saturday|sunday',
    'january|february|march|april|may|june|july|august|september|october|november|december',
    'sie|ihr|ihre|ihrer|ihren|ihrem|ihnen|du|dich|dir|dein|deine|euch|euer',
    'montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonntag',
    'januar|februar|märz|juni|juli|oktober|dezember',
  ]
    .join('|')
    .split('|'),
)

/** Words that begin a sentence without being a name, before a name ("The Fastify docs…"). */
const FUNCTION_WORDS = new Set(
  [
    'the|a|an|in|on|at|for|to|by|of|from|with|this|that|these|those|its|their|his|her|our|your|my|and|or|but|so|if|when|as|according|per|each|every|all|both|also|only|see|use|set|call',
    'der|die|das|den|dem|des|ein|eine|einen|einem|einer|im|am|an|auf|aus|bei|mit|nach|von|vom|zu|zum|zur|für|laut|gemäß|und|oder|aber|wenn|als|wie|auch|nur|jede|jeder|jedes|alle|dieser|diese|dieses',
    'le|la|les|l|un|une|des|du|de|d|dans|en|sur|pour|par|avec|selon|et|ou|mais|si|quand|comme|ce|cet|cette|ces|son|sa|ses|leur|leurs|chaque|tous|toutes|aussi',
  ]
    .join('|')
    .split('|'),
)

/** Endings German common nouns are made with: such a word is a noun, not a name. */
const GERMAN_NOUN_ENDING =
  /(?:ung|ungen|heit|heiten|keit|keiten|schaft|schaften|tion|tionen|sion|sionen|ität|itäten|nis|nisse|ismus|ment|mente|menten|chen|lein|tum|tümer|ei|eien|ie|ien|ik|iken|ur|uren|enz|enzen|anz|anzen|age|agen|ling|linge)$/u

const capitalised = (w: string) => /^\p{Lu}/u.test(w)
const looksLikeAcronym = (w: string) => /^\p{Lu}{2,}$/u.test(w) || /\p{Ll}\p{Lu}/u.test(w)

export type Name = { text: string; key: string }

/** What the check knows of the words a name could be found among. */
export type Known = { words: ReadonlySet<string>; joined: string }

/**
 * The names of a sentence (after quotations, dates, codes and figures were blanked out).
 * `known`: every word of the passages given and the question, for German's unknown words.
 */
export function names(text: string, language: string, known: Known): Span<Name>[] {
  const words = [...text.matchAll(WORD)].map((m) => {
    // French elision: the name is what follows l', d', qu'.
    const elided = /^\p{L}{1,2}'(?=\p{Lu})|^qu'(?=\p{Lu})/iu.exec(m[0])
    const word = elided ? m[0].slice(elided[0].length) : m[0]
    const start = m.index + (elided ? elided[0].length : 0)
    return { word: word.replace(/'s$|['-]+$/u, ''), start, initial: OPENS.test(text.slice(0, m.index)) }
  })
  const out: Span<Name>[] = []
  words.forEach(({ word, start, initial }, i) => {
    if (!capitalised(word) || word.length < 2) return
    const key = comparableWords(word).join('')
    if (NOT_NAMES.has(key) || key === '') return
    const next = words[i + 1]
    const previous = words[i - 1]
    const partner = (w: { word: string } | undefined) =>
      w !== undefined && capitalised(w.word) && !FUNCTION_WORDS.has(w.word.toLowerCase())
    const inRun = (partner(next) && !next?.initial) || (partner(previous) && !initial)
    if (initial && !(inRun && !FUNCTION_WORDS.has(key) && next !== undefined && capitalised(next.word)))
      return
    if (
      language === 'german' &&
      !looksLikeAcronym(word) &&
      (afterArticle(words, i) || (!inRun && !unknownGermanName(key, known)))
    )
      return
    out.push({ start, end: start + word.length, value: { text: word, key } })
  })
  return out
}

/** German determiners: a capitalised word after one (maybe past an adjective) is a common noun. */
const GERMAN_ARTICLES = new Set(
  'der|die|das|den|dem|des|ein|eine|einen|einem|einer|eines|kein|keine|keinen|keinem|keiner|im|am|vom|zum|zur|beim|ins|ans|jede|jeder|jedes|jeden|diese|dieser|dieses|diesen|alle|allen|mehrere|viele|einige|sein|seine|ihr|ihre|unser|unsere'.split(
    '|',
  ),
)

function afterArticle(words: readonly { word: string }[], i: number): boolean {
  const before = (k: number) => words[i - k]?.word.toLowerCase() ?? ''
  if (GERMAN_ARTICLES.has(before(1))) return true
  return /^\p{Ll}/u.test(words[i - 1]?.word ?? '') && GERMAN_ARTICLES.has(before(2))
}

function unknownGermanName(key: string, known: Known): boolean {
  if (known.words.has(key) || GERMAN_NOUN_ENDING.test(key)) return false
  // A compound ending in a word the passages hold ("Handbuchseite" beside "Seite") is a noun.
  for (let i = 1; i <= key.length - 4; i++) if (known.words.has(key.slice(i))) return false
  return !known.joined.includes(` ${key}`)
}

/**
 * Whether a passage holds the name: as a word, or (four letters or more) as the start of one
 * ("Debian" in "Debian-Paket"); `joined` is the passage's words, each after a space.
 */
export function holdsName(words: ReadonlySet<string>, joined: string, name: Name): boolean {
  return words.has(name.key) || (name.key.length >= 4 && joined.includes(` ${name.key}`))
}
