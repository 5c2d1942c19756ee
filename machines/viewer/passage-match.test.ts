import { expect, test } from 'vitest'
import { itemsHolding } from './passage-match.ts'

const page = ['Zephyr Project Brief', 'Launch', ' ', 'The launch code is', 'AURORA-7731.', 'Budget follows.']

test('the items holding the passage, whatever the whitespace between them', () => {
  expect(itemsHolding(page, 'The launch code is AURORA-7731.')).toEqual([3, 4])
  expect(itemsHolding(page, 'The launch\n\ncode is  AURORA-7731.')).toEqual([3, 4])
})

test('a passage that starts inside an item marks that item', () => {
  expect(itemsHolding(['Lead: The launch code', 'is AURORA-7731.'], 'code is AURORA')).toEqual([0, 1])
})

test('a passage re-flowed beyond recognition in its middle is bracketed by its ends', () => {
  const long = `${'a'.repeat(70)}MIDDLE${'b'.repeat(70)}`
  const items = ['x', 'a'.repeat(70), 'DIFFERENT', 'b'.repeat(70), 'y']
  expect(itemsHolding(items, long)).toEqual([1, 2, 3])
})

test('a ligature matches its letters; a passage from elsewhere marks nothing', () => {
  expect(itemsHolding(['The ﬁle is here'], 'The file is here')).toEqual([0])
  expect(itemsHolding(page, 'Nothing of the sort appears on this page at all.')).toEqual([])
  expect(itemsHolding(page, '   ')).toEqual([])
})

test('a passage whose words were joined across a hyphenated line end still marks its items', () => {
  const items = ['Pump maintenance', 'The procedure is docu-', 'mented in the blue binder.', 'Next page.']

  expect(itemsHolding(items, 'The procedure is documented in the blue binder.')).toEqual([1, 2])
})
