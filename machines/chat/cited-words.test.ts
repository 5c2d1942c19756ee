import { expect, test } from 'vitest'
import { citedSpans, citingText, markedPieces } from './cited-words.ts'

const passage =
  'Travel is booked through the portal. The daily meal allowance abroad is 45 euros per person. ' +
  'Taxis are reimbursed with a receipt.'

test('the sentence the answer cites is marked, not the rest of the passage', () => {
  const answer = 'Meals abroad are paid at 45 euros a day [1]. Taxis need a receipt [2].'

  const spans = citedSpans(answer, 1, passage)

  expect(spans.map(({ start, end }) => passage.slice(start, end))).toEqual([
    'The daily meal allowance abroad is 45 euros per person.',
  ])
})

test('only the sentences carrying the marker count as what the answer says about it', () => {
  expect(citingText('One thing [1]. Another thing [2].\nA third [1].', 1)).toBe('One thing [1]. A third [1].')
  expect(citingText('No markers here.', 1)).toBe('No markers here.')
  expect(citingText('Whole answer.', null)).toBe('Whole answer.')
})

test('a quoted sentence of an answer with no numbers is marked in its passage', () => {
  const answer = '> Taxis are reimbursed with a receipt.\n> — Travel policy.pdf'

  const spans = citedSpans(answer, null, passage)

  expect(spans.map(({ start, end }) => passage.slice(start, end))).toEqual([
    'Taxis are reimbursed with a receipt.',
  ])
})

test('nothing is marked when the answer shares no more than a word with the passage', () => {
  expect(citedSpans('The portal is down [1].', 1, passage)).toEqual([])
  expect(citedSpans('', 1, passage)).toEqual([])
})

test('the pieces put the passage back together exactly, marked where the spans say', () => {
  const spans = citedSpans('The meal allowance is 45 euros [1].', 1, passage)
  const pieces = markedPieces(passage, spans)

  expect(pieces.map((p) => p.text).join('')).toBe(passage)
  expect(pieces.filter((p) => p.marked).map((p) => p.text)).toEqual([
    'The daily meal allowance abroad is 45 euros per person.',
  ])
})
