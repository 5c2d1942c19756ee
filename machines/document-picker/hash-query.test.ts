import { expect, test } from 'vitest'
import { hashQueryAt, withoutHashQuery } from './hash-query.ts'

test('a # at the start or after a space opens a query up to the caret', () => {
  expect(hashQueryAt('#', 1)).toEqual({ at: 0, query: '' })
  expect(hashQueryAt('compare #quart', 14)).toEqual({ at: 8, query: 'quart' })
  expect(hashQueryAt('compare #quart and', 14)).toEqual({ at: 8, query: 'quart' })
  expect(hashQueryAt('line one\n#min', 13)).toEqual({ at: 9, query: 'min' })
})

test('no query inside a word, after a space, or before the caret reaches the #', () => {
  expect(hashQueryAt('issue#12', 8)).toBeNull()
  expect(hashQueryAt('#quart ', 7)).toBeNull()
  expect(hashQueryAt('say #x', 3)).toBeNull()
  expect(hashQueryAt('plain text', 10)).toBeNull()
})

test('the chosen document takes the place of its #query, without a double space', () => {
  expect(withoutHashQuery('compare #quart and', 8, 'quart')).toBe('compare and')
  expect(withoutHashQuery('#quart', 0, 'quart')).toBe('')
  expect(withoutHashQuery('what does #rep', 10, 'rep')).toBe('what does ')
})
