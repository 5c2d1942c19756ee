import { expect, test } from 'vitest'
import type { VisitorSnippet } from '#server/db/schema.ts'
import { leftOutNote, withoutUnverified } from '#server/publishing/unverified-sentences.ts'

const check = (at: number, marker: number, sentence: string, outcome: 'checked' | 'unverified') => ({
  at,
  marker,
  sentence,
  outcome,
  sourceIndex: marker,
  missing: outcome === 'unverified' ? ['x'] : [],
})
const snippet = (citation: number, checks: VisitorSnippet['checks']): VisitorSnippet => ({
  citation,
  documentName: 'Doc.pdf',
  page: 1,
  snippet: `passage ${citation}`,
  checks,
})

test('a list item left with nothing but its bullet goes, the other items and the markers after a full stop stay', () => {
  const content = [
    'Allowances:',
    '',
    '- Meals are **45 euros** a day [1].',
    '- A taxi is 300 euros. [2]',
    '- Hotels are 120 euros [1].',
  ].join('\n')
  const sources = [
    snippet(1, [
      check(0, 1, 'Meals are 45 euros a day.', 'checked'),
      check(2, 1, 'Hotels are 120 euros.', 'checked'),
    ]),
    snippet(2, [check(1, 2, 'A taxi is 300 euros.', 'unverified')]),
  ]

  const shown = withoutUnverified({ content, sources })

  expect(shown.content).toBe(
    [
      'Allowances:',
      '',
      '- Meals are **45 euros** a day [1].',
      '- Hotels are 120 euros [1].',
      '',
      leftOutNote(1),
    ].join('\n'),
  )
  expect(shown.sources.map((s) => s.citation)).toEqual([1])
})

test('two sentences cut from the middle and the end of a paragraph leave its other words as written, and the note counts them', () => {
  const content = 'First 45 euros [1]. Then 9 trains [1]. Last 45 euros [1]. And 7 ships [1].'
  const sources = [
    snippet(1, [
      check(0, 1, 'First 45 euros.', 'checked'),
      check(1, 1, 'Then 9 trains.', 'unverified'),
      check(2, 1, 'Last 45 euros.', 'checked'),
      check(3, 1, 'And 7 ships.', 'unverified'),
    ]),
  ]

  const shown = withoutUnverified({ content, sources })

  expect(shown.content).toBe(`First 45 euros [1]. Last 45 euros [1].\n\n${leftOutNote(2)}`)
  expect(leftOutNote(2)).toBe("(2 sentences were left out: the assistant's documents do not support them.)")
  expect(shown.sources[0]?.checks?.map((c) => c.at)).toEqual([0, 2])
})

test('an answer without unverified sentences is given back as it is', () => {
  const answer = {
    content: 'First 45 euros [1].',
    sources: [snippet(1, [check(0, 1, 'First 45 euros.', 'checked')])],
  }

  expect(withoutUnverified(answer)).toEqual(answer)
})
