/**
 * Retrieval once a large ingest has refreshed the chunks' statistics: words PostgreSQL counts as
 * common no longer flood the candidates, yet a question of common words still finds the passage
 * that holds most of them together, and the statistics are refreshed only after many changes.
 */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { App } from '#server/app.ts'
import { createRetriever } from '#server/assistant/retrieval.ts'
import { indexDocument } from '#server/ingest/index-document.ts'
import { refreshChunkStatistics } from '#server/repositories/documents-repository.ts'
import { buildTestApp, register, uniqueEmail } from './helper.ts'

let app: App
let userId: string
const retrieve = (question: string) => createRetriever(app.db)(userId, question, 6)

const FILLERS = ['harbour', 'lantern', 'meadow', 'orchard', 'quarry', 'summit', 'tundra', 'valley']

beforeAll(async () => {
  app = await buildTestApp()
  userId = (await register(app, uniqueEmail('scale')))._id
  // 1,500 chunks (one per page) in which "policy" and "travel" are everywhere and a few words are rare.
  const paragraphs = Array.from({ length: 1500 }, (_, i) => {
    const a = FILLERS[i % FILLERS.length]
    const b = FILLERS[(i * 3 + 1) % FILLERS.length]
    return `Policy note ${i} on travel near the ${a} and the ${b}. The travel policy applies.`
  })
  paragraphs[700] = 'The travel policy for the zephyrine expedition allows a meal budget of 40 credits.'
  paragraphs[1200] = 'Overtime claims need a manager signature and a timesheet before payroll closes.'
  await indexDocument(app.db, {
    userId,
    source: 'test',
    externalId: 'handbook',
    name: 'handbook.txt',
    mimeType: 'text/plain',
    sections: paragraphs.map((text, i) => ({ text, page: i + 1 })),
  })
  expect(await refreshChunkStatistics(app.db)).toBe(true)
})
afterAll(async () => {
  await app.close()
})

test('after the refresh, PostgreSQL counts the everywhere-words as common', async () => {
  const { rows } = (await app.db.execute(sql`
    select most_common_elems::text::text[] as elems from pg_stats
    where tablename = 'document_chunks' and attname = 'tsv'`)) as unknown as { rows: { elems: string[] }[] }
  expect(rows[0]?.elems).toEqual(expect.arrayContaining(['polici', 'travel']))
  expect(rows[0]?.elems).not.toContain('zephyrin')
})

test('a rare word finds its passage among thousands that share the common words', async () => {
  const [first] = await retrieve('What does the travel policy say about the zephyrine expedition?')
  expect(first?.text).toContain('zephyrine expedition')
})

test('a question of common words finds the passage holding most of them together', async () => {
  const [first] = await retrieve('manager signature for overtime claims payroll')
  expect(first?.text).toContain('Overtime claims need a manager signature')
})

test('a question whose words are all common still answers passages', async () => {
  const passages = await retrieve('travel policy')
  expect(passages).toHaveLength(6)
  for (const p of passages) expect(p.text.toLowerCase()).toMatch(/travel policy|policy .* travel/)
})

test('the statistics are refreshed only after many changes', async () => {
  await indexDocument(app.db, {
    userId,
    source: 'test',
    externalId: 'small',
    name: 'small.txt',
    mimeType: 'text/plain',
    sections: [{ page: null, text: 'A small note.' }],
  })
  expect(await refreshChunkStatistics(app.db)).toBe(false)
})
