/**
 * Retrieval in a library of 1,500 passages where a few words are everywhere: BM25's term
 * statistics stay exact through index, re-index and removal; a rare word finds its passage; a
 * question of common words finds the passage holding most of them; a topic word held by many
 * passages is still searched (it used to be dropped from the candidates once in 1 % of them).
 */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createRetriever } from '#server/answering/retrieval.ts'
import type { App } from '#server/app.ts'
import { indexDocument } from '#server/documents/index/index-document.ts'
import { removeDocument } from '#server/documents/index/passage-writes-repository.ts'
import { indexText } from '../support/document-helpers.ts'
import { buildTestApp, register, uniqueEmail } from '../support/helper.ts'

let app: App
let userId: string
const retrieve = (question: string, limit = 6) => createRetriever(app.db)(userId, question, limit)

const FILLERS = ['harbour', 'lantern', 'meadow', 'orchard', 'quarry', 'summit', 'tundra', 'valley']

const note = (externalId: string, text: string) => indexText(app.db, userId, externalId, text)

beforeAll(async () => {
  app = await buildTestApp()
  userId = (await register(app, uniqueEmail('scale')))._id
  // 1,500 chunks (one per page) in which "policy" and "travel" are everywhere and a few words are rare;
  // one in 25 talks about the logbook (4 %, a topic word).
  const paragraphs = Array.from({ length: 1500 }, (_, i) => {
    const a = FILLERS[i % FILLERS.length]
    const b = FILLERS[(i * 3 + 1) % FILLERS.length]
    const topic = i % 25 === 0 ? ' The logbook is kept on board.' : ''
    return `Policy note ${i} on travel near the ${a} and the ${b}. The travel policy applies.${topic}`
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
}, 120_000)
afterAll(async () => {
  await app.close()
})

/** The statistics as a recount from the chunks gives them, beside the kept ones. */
async function statistics() {
  const kept = (await app.db.execute(sql`
    select lexeme, chunk_count, document_count from retrieval_terms where user_id = ${userId}
    order by lexeme`)) as unknown as { rows: unknown[] }
  const recount = (await app.db.execute(sql`
    select t.lexeme, count(*)::int as chunk_count, count(distinct c.document_id)::int as document_count
    from document_chunks c, unnest(c.tsv) as t where c.user_id = ${userId}
    group by t.lexeme order by t.lexeme`)) as unknown as { rows: unknown[] }
  const totals = (await app.db.execute(sql`
    select chunk_count, document_count, token_count::int as token_count from retrieval_totals
    where user_id = ${userId}`)) as unknown as { rows: unknown[] }
  const totalsRecount = (await app.db.execute(sql`
    select (select count(*)::int from document_chunks where user_id = ${userId}) as chunk_count,
      (select count(*)::int from documents where user_id = ${userId}) as document_count,
      (select coalesce(sum(token_count), 0)::int from document_chunks where user_id = ${userId}) as token_count`)) as unknown as {
    rows: unknown[]
  }
  return { kept: kept.rows, recount: recount.rows, totals: totals.rows, totalsRecount: totalsRecount.rows }
}

test('the BM25 statistics match a recount after indexing, re-indexing and removing documents', async () => {
  let s = await statistics()
  expect(s.kept).toEqual(s.recount)
  expect(s.totals).toEqual(s.totalsRecount)
  expect(s.kept).toContainEqual({ lexeme: 'polici', chunk_count: 1499, document_count: 1 })

  await note('extra', 'A short note on the harbour lantern and the zephyrine policy.')
  await note('extra', 'The re-indexed note mentions only the orchard.')
  await note('gone', 'Quarry summit policy, soon removed.')
  expect(await removeDocument(app.db, { userId, source: 'test', externalId: 'gone' })).toBe(true)
  s = await statistics()
  expect(s.kept).toEqual(s.recount)
  expect(s.totals).toEqual(s.totalsRecount)
  expect(await removeDocument(app.db, { userId, source: 'test', externalId: 'extra' })).toBe(true)
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

test('a topic word in 4 % of the passages is still searched beside a rarer off-topic word', async () => {
  // "logbook" is in 60 of 1,500 passages; "zephyrine" in one that does not mention it.
  const passages = await retrieve('zephyrine logbook', 10)
  const texts = passages.map((p) => p.text)
  expect(texts.some((t) => t.includes('zephyrine'))).toBe(true)
  expect(texts.filter((t) => t.includes('logbook')).length).toBeGreaterThanOrEqual(5)
})
