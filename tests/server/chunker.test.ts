import { expect, test } from 'vitest'
import { CHUNK_MAX_CHARS, chunkDocument } from '#server/ingest/chunker.ts'

test('short documents become one passage with their page', () => {
  expect(chunkDocument([{ text: 'Hello world.', page: 3 }])).toEqual([
    { ordinal: 0, text: 'Hello world.', page: 3, heading: null },
  ])
})

test('passages never cross a page and keep their page numbers', () => {
  const chunks = chunkDocument([
    { text: 'First page text.', page: 1 },
    { text: 'Second page text.', page: 2 },
  ])
  expect(chunks.map((c) => [c.page, c.text])).toEqual([
    [1, 'First page text.'],
    [2, 'Second page text.'],
  ])
})

test('markdown headings start passages and are remembered by the passages under them', () => {
  const md = '# Intro\n\nWelcome.\n\n## Pricing\n\nIt costs 10 euros.\n\nDiscounts exist.'
  const chunks = chunkDocument([{ text: md, page: null }])
  expect(chunks.map((c) => c.heading)).toEqual(['Intro', 'Pricing'])
  expect(chunks[1]?.text).toContain('It costs 10 euros.')
})

test('long text is cut into bounded passages without losing words', () => {
  const sentence = 'The quick brown fox jumps over the lazy dog. '
  const text = Array.from({ length: 200 }, (_, i) => `${sentence.trim()} ${i}.`).join(' ')
  const chunks = chunkDocument([{ text, page: null }])
  expect(chunks.length).toBeGreaterThan(5)
  for (const c of chunks) expect(c.text.length).toBeLessThanOrEqual(CHUNK_MAX_CHARS)
  const words = (s: string) => s.split(/\s+/).filter(Boolean)
  expect(chunks.flatMap((c) => words(c.text))).toEqual(words(text))
  expect(chunks.map((c) => c.ordinal)).toEqual(chunks.map((_, i) => i))
})

test('a single enormous word is still cut', () => {
  const chunks = chunkDocument([{ text: 'x'.repeat(5000), page: null }])
  for (const c of chunks) expect(c.text.length).toBeLessThanOrEqual(CHUNK_MAX_CHARS)
  expect(chunks.map((c) => c.text).join('')).toBe('x'.repeat(5000))
})
