/**
 * A visitor's snippet of a cited passage (issue 37, D123): at most 300 characters around the
 * passage's sentence that best matches the answer's sentence carrying the marker, cut at word
 * boundaries, with an ellipsis wherever the passage goes on.
 */
import { expect, test } from 'vitest'
import { VISITOR_SNIPPET_MAX_LENGTH } from '#contracts/publishing.ts'
import { citingSentences, snippetAround } from '#server/publishing/cited-snippet.ts'

const filler = (topic: string, n: number) =>
  Array.from({ length: n }, (_, i) => `The ${topic} rule number ${i + 1} applies to everyone here.`).join(' ')
const KEY = 'Parental leave lasts sixteen weeks at full pay for either parent.'
const PASSAGE = `${filler('holiday', 8)} ${KEY} ${filler('expenses', 8)}`

test('the snippet is the cited sentence with words around it, not the passage’s start', () => {
  const snippet = snippetAround(PASSAGE, 'Either parent gets sixteen weeks of parental leave')
  expect(snippet).toContain(KEY)
  expect([...snippet].length).toBeLessThanOrEqual(VISITOR_SNIPPET_MAX_LENGTH)
  expect(snippet.startsWith('…')).toBe(true)
  expect(snippet.endsWith('…')).toBe(true)
  // Cut between words: what follows the leading ellipsis and precedes the trailing one are whole words.
  const inner = snippet.slice(1, -1)
  expect(PASSAGE).toContain(inner)
  const at = PASSAGE.indexOf(inner)
  expect(PASSAGE[at - 1]).toBe(' ')
  expect(PASSAGE[at + inner.length]).toBe(' ')
})

test('a passage that fits is shown whole, on one line, without an ellipsis', () => {
  expect(snippetAround('Staff get\n25 days   of leave.', 'leave')).toBe('Staff get 25 days of leave.')
})

test('a cited sentence near the start keeps the start; one near the end keeps the end', () => {
  const first = snippetAround(PASSAGE, 'holiday rule number 1')
  expect(first.startsWith('The holiday rule number 1 applies')).toBe(true)
  expect(first.endsWith('…')).toBe(true)
  const last = snippetAround(PASSAGE, 'expenses rule number 8')
  expect(last.endsWith('The expenses rule number 8 applies to everyone here.')).toBe(true)
  expect(last.startsWith('…')).toBe(true)
})

test('a cited sentence longer than the snippet is shown from its start', () => {
  const long = `Intro sentence here. ${'Leave '.repeat(80)}ends. Outro.`
  const snippet = snippetAround(long, 'leave')
  expect(snippet.startsWith('…Leave Leave')).toBe(true)
  expect([...snippet].length).toBeLessThanOrEqual(VISITOR_SNIPPET_MAX_LENGTH)
})

test('the answer’s claim for [n] is each sentence carrying it, with the marker before or after its full stop', () => {
  const answer = 'Leave is 25 days [1]. Parental leave is sixteen weeks.[2] Pay comes monthly [1][3].'
  expect(citingSentences(answer, 2)).toBe('Parental leave is sixteen weeks')
  expect(citingSentences(answer, 1)).toBe('Leave is 25 days Pay comes monthly')
  expect(citingSentences(answer, 3)).toBe('Pay comes monthly')
  expect(citingSentences(answer, 4)).toBe('')
})
