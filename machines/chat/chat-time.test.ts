import { expect, test } from 'vitest'
import { DAY_MS, groupByAge, HOUR_MS, historyGroupLabel, relativeTime } from './chat-time.ts'

const now = new Date('2026-03-20T12:00:00.000Z')
const ago = (ms: number) => new Date(now.getTime() - ms).toISOString()
const isoDate = (date: Date) => date.toISOString().slice(0, 10)

test.each([
  [0, 'Just now'],
  [HOUR_MS - 1, 'Just now'],
  [HOUR_MS, '1h ago'],
  [2 * HOUR_MS + 59 * 60 * 1000, '2h ago'],
  [24 * HOUR_MS - 1, '23h ago'],
  [24 * HOUR_MS, '2026-03-19'],
  [-5 * HOUR_MS, 'Just now'],
])('the sidebar calls a conversation %i ms old %j', (age, expected) => {
  expect(relativeTime(ago(age), now, isoDate)).toBe(expected)
})

test.each([
  [0, 'Today'],
  [DAY_MS - 1, 'Today'],
  [DAY_MS, '1 day ago'],
  [2 * DAY_MS, '2 days ago'],
  [7 * DAY_MS - 1, '6 days ago'],
  [7 * DAY_MS, '2026-03-13'],
])('History files a conversation %i ms old under %j', (age, expected) => {
  expect(historyGroupLabel(ago(age), now, isoDate)).toBe(expected)
})

test('groups keep the given order and gather items with the same label', () => {
  const items = [
    { id: 'a', timestamp: ago(HOUR_MS) },
    { id: 'b', timestamp: ago(3 * HOUR_MS) },
    { id: 'c', timestamp: ago(3 * DAY_MS) },
    { id: 'd', timestamp: ago(30 * DAY_MS) },
  ]

  const groups = groupByAge(items, now, isoDate)

  expect(groups.map((g) => [g.label, g.items.map((i) => i.id)])).toEqual([
    ['Today', ['a', 'b']],
    ['3 days ago', ['c']],
    ['2026-02-18', ['d']],
  ])
})
