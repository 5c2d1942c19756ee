import { expect, test } from 'vitest'
import { CHUNK_MAX_CHARS, chunkDocument, chunkDocumentInTurns } from '#server/documents/reading/chunker.ts'

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
  const chunks = chunkDocument([{ text: md, page: null }], { markdown: true })
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

test('only markdown headings outside code fences are headings', () => {
  const md = [
    '# Install',
    '',
    'Run the script:',
    '',
    '```bash',
    '# download first',
    'curl -O https://example.com/x.sh',
    '',
    '## not a heading either',
    '```',
    '',
    'Then start it.',
    '',
    '~~~',
    '# still code',
    '~~~',
    '',
    '## Configure',
    '',
    'Edit the file.',
  ].join('\n')
  const chunks = chunkDocument([{ text: md, page: null }], { markdown: true })
  expect(chunks.map((c) => c.heading)).toEqual(['Install', 'Configure'])
  expect(chunks[0]?.text).toContain('# download first')
  expect(chunks[0]?.text).toContain('## not a heading either')
  expect(chunks[0]?.text).toContain('# still code')
})

test('plain text and PDF pages never get headings from lines starting with #', () => {
  const text = '# 1 Introduction\n\nHashtags like\n#travel appear.\n\n## Not markdown'
  expect(chunkDocument([{ text, page: null }]).map((c) => c.heading)).toEqual([null])
  expect(chunkDocument([{ text, page: 4 }], { markdown: false }).every((c) => c.heading === null)).toBe(true)
})

test('in the server, chunking takes turns with other work and gives the same passages (D94)', async () => {
  const paragraph = (n: number) => `Line ${n} of a long text about harbours and lanterns.`
  // One paragraph of many lines, then many paragraphs: both kinds of long text.
  const text = `${Array.from({ length: 30_000 }, (_, n) => paragraph(n)).join('\n')}\n\n${Array.from(
    { length: 30_000 },
    (_, n) => paragraph(n),
  ).join('\n\n')}`
  const sections = [{ text, page: null }]
  let turnsTaken = 0
  let counting = true
  const count = () => {
    if (!counting) return
    turnsTaken++
    setImmediate(count)
  }
  setImmediate(count)
  const inTurns = await chunkDocumentInTurns(sections, { markdown: true })
  counting = false
  expect(inTurns).toEqual(chunkDocument(sections, { markdown: true }))
  expect(inTurns.length).toBeGreaterThan(1000)
  // Other work ran while it chunked (a single synchronous pass lets it run once, at the end).
  expect(turnsTaken).toBeGreaterThan(3)
})
