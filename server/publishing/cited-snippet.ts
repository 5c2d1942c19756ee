/**
 * The snippet a visitor sees of a cited passage (issue 37, D123): at most
 * VISITOR_SNIPPET_MAX_LENGTH characters around the passage's sentence that best matches what the
 * answer said where it cited it, not the passage's first characters (which often hold a heading or
 * a previous topic). The answer's sentences carrying `[n]` are the claim; the passage's sentence
 * sharing most words with them is the evidence; the window grows around it on both sides, cut at
 * word boundaries, with an ellipsis wherever the passage goes on.
 */
import { VISITOR_SNIPPET_MAX_LENGTH } from '#contracts/publishing.ts'

const ELLIPSIS = '…'
/** Words this short ("a", "is", "of", "de") say little about which sentence is meant. */
const MIN_WORD_LENGTH = 3
const SENTENCE_END = /[.!?…。！？]/u

/** The words of `text` worth comparing, lower-cased. */
function wordsOf(text: string): Set<string> {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []
  return new Set(words.filter((w) => w.length >= MIN_WORD_LENGTH || /\d/.test(w)))
}

/**
 * What the answer said where it cited passage `citation`: each sentence ending in its marker
 * (the marker may follow the full stop, and sit among other markers). '' when it is not cited.
 */
export function citingSentences(answer: string, citation: number): string {
  const claims: string[] = []
  for (const marker of answer.matchAll(new RegExp(`\\[${citation}\\]`, 'g'))) {
    // Drop the sentence's own end and any neighbouring markers, then go back to the previous end.
    const head = answer.slice(0, marker.index).replace(/(\s*\[\d+\]|[\s.!?…。！？])+$/u, '')
    let start = head.length
    while (start > 0 && !(SENTENCE_END.test(head[start - 1] ?? '') || head[start - 1] === '\n')) start--
    // A marker right after the previous full stop belongs to that sentence.
    claims.push(
      head
        .slice(start)
        .replace(/^(\s*\[\d+\])+/, '')
        .trim(),
    )
  }
  return claims.join(' ')
}

/** The passage's sentences as [start, end) offsets of `line`. */
function sentencesOf(line: string): [number, number][] {
  const spans: [number, number][] = []
  const ends = /[.!?…。！？]+["'”’)\]]*(?=\s|$)/gu
  let start = 0
  for (const end of line.matchAll(ends)) {
    const stop = end.index + end[0].length
    spans.push([start, stop])
    start = stop + 1
  }
  if (start < line.length) spans.push([start, line.length])
  return spans
}

/** The sentence sharing the most words with `claim` (the first one when none shares any). */
function bestSentence(line: string, claim: string): [number, number] {
  const wanted = wordsOf(claim)
  let best: [number, number] = [0, line.length]
  let bestScore = -1
  for (const span of sentencesOf(line)) {
    let score = 0
    for (const word of wordsOf(line.slice(span[0], span[1]))) if (wanted.has(word)) score++
    if (score > bestScore) {
      best = span
      bestScore = score
    }
  }
  return best
}

/**
 * At most VISITOR_SNIPPET_MAX_LENGTH characters of `text` (on one line) around the sentence that
 * best matches `claim`; the whole passage when it fits.
 */
export function snippetAround(text: string, claim: string): string {
  const line = text.replace(/\s+/g, ' ').trim()
  const max = VISITOR_SNIPPET_MAX_LENGTH
  if ([...line].length <= max) return line
  const [from, to] = bestSentence(line, claim)
  // Room for an ellipsis at each end; the context left over is shared before and after.
  const room = max - 2
  let start = Math.max(0, from - Math.max(0, Math.floor((room - (to - from)) / 2)))
  let end = Math.min(line.length, start + room)
  start = Math.max(0, Math.min(start, end - room))
  if (start > 0 && line[start - 1] !== ' ') {
    const space = line.indexOf(' ', start)
    if (space !== -1 && space < from + 1) start = space + 1
  }
  if (end < line.length && line[end] !== ' ') {
    const space = line.lastIndexOf(' ', end)
    if (space > start) end = space
  }
  const body = line.slice(start, end).trim()
  const chars = [...`${start > 0 ? ELLIPSIS : ''}${body}`].slice(0, max - (end < line.length ? 1 : 0))
  return `${chars.join('')}${end < line.length ? ELLIPSIS : ''}`
}
