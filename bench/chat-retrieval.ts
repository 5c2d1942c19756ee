/**
 * The work a send does before the language model is called: retrieval over the user's chunks
 * (DocumentsRepository.search) plus prompt building, timed per send on the embedded database as
 * `npm start` runs it (PGlite persisted in a scratch directory, migrated). One user owns 10,000
 * chunks of ~800 characters, ten others 2,000 each; 200 sends with varied questions. A
 * `SELECT 1` round trip measured in the same run is the baseline. Target: p95 <= 50 ms.
 * The same sends in a conversation limited to five of the user's documents (issue 20: reading
 * the conversation's scope, trying the documents whole, then ranking within them) are measured in
 * the same run, against the unscoped send.
 * Usage: node bench/chat-retrieval.ts [sends]
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { sql } from 'drizzle-orm'
import { PASSAGES_PER_ANSWER } from '../server/answering/answer-shapes.ts'
import { buildPrompt } from '../server/answering/prompt.ts'
import { createRetriever, createWholeDocumentReader } from '../server/answering/retrieval.ts'
import { createChatRepository } from '../server/chat/chat-repository.ts'
import { DEFAULT_WHOLE_DOCUMENT_TOKEN_BUDGET, loadConfig } from '../server/config.ts'
import { openDatabase } from '../server/db/database.ts'
import { indexDocument } from '../server/documents/index/index-document.ts'
import type { Turn } from '../server/documents/index/passages.ts'
import { createCorpus, FUNCTION_WORDS, insertBenchUsers, percentile, QUESTION_TEMPLATES } from './corpus.ts'

const SENDS = Number(process.argv[2] ?? 200)
const MAIN_CHUNKS = 10_000
const OTHER_USERS = 10
const OTHER_CHUNKS = 2_000
const CHUNKS_PER_DOCUMENT = 100
const CHUNK_CHARS = 800

// The chat benchmark's corpus: a wider office vocabulary, no codes.
const corpus = createCorpus({
  seed: 0x2545f491,
  tailSize: 4000,
  extraWords: (
    'design research interview candidate hiring offer probation termination notice overtime shift ' +
    'abroad daily weekly monthly limit rate tax currency exchange card cash advance mileage car rental'
  ).split(' '),
})
const { random, pick } = corpus
const WORDS = corpus.words
const paragraph = () => corpus.paragraph(CHUNK_CHARS)

async function indexUser(db: Parameters<typeof indexDocument>[0], userId: string, chunks: number) {
  const samples: string[] = []
  for (let d = 0; d < chunks / CHUNKS_PER_DOCUMENT; d++) {
    const paragraphs = Array.from({ length: CHUNKS_PER_DOCUMENT }, paragraph)
    samples.push(pick(paragraphs))
    await indexDocument(db, {
      userId,
      source: 'bench',
      externalId: `doc-${d}`,
      name: `Document ${d}.txt`,
      mimeType: 'text/plain',
      sections: [{ page: null, text: paragraphs.join('\n\n') }],
    })
  }
  return samples
}

/** Questions a person might ask: words from a real passage (so there is an answer), or common ones. */
function question(samples: string[]): string {
  const source =
    random() < 0.7
      ? (pick(samples)
          .toLowerCase()
          .match(/[a-z]+/g) ?? [])
      : []
  const content = source.filter((w) => !FUNCTION_WORDS.includes(w))
  const words = Array.from({ length: 4 }, () => (content.length > 0 ? pick(content) : pick(WORDS)))
  return pick(QUESTION_TEMPLATES)(words)
}

const ms = (n: number) => n.toFixed(2)

const dir = mkdtempSync(path.join(tmpdir(), 'docchat-bench-chat-'))
const config = loadConfig({ DATA_DIR: dir, APP_SECRET: 'bench-secret-that-is-long-enough-0123456789' })
const database = await openDatabase(config)
try {
  const { db } = database
  const started = performance.now()
  const [mainUser, ...others] = await insertBenchUsers(db, OTHER_USERS + 1)
  if (!mainUser) throw new Error('no user')
  const samples = await indexUser(db, mainUser, MAIN_CHUNKS)
  for (const other of others) await indexUser(db, other, OTHER_CHUNKS)
  await db.execute(sql`analyze`)
  const loadSeconds = (performance.now() - started) / 1000

  const count = async (where: ReturnType<typeof sql>) => {
    const { rows } = (await db.execute(
      sql`select count(*)::int as n, coalesce(avg(length(text)), 0)::int as chars from document_chunks ${where}`,
    )) as unknown as { rows: { n: number; chars: number }[] }
    return rows[0] ?? { n: 0, chars: 0 }
  }
  const all = await count(sql``)
  const mine = await count(sql`where user_id = ${mainUser}`)

  const retrieve = createRetriever(db)
  const history: Turn[] = Array.from({ length: 10 }, (_, i) => ({
    isUser: i % 2 === 0,
    content: i % 2 === 0 ? question(samples) : paragraph(),
  }))
  const questions = Array.from({ length: SENDS }, () => question(samples))

  // Warm-up: the JIT, PGlite's caches and the planner, as in a server that has been running.
  for (const q of questions.slice(0, 20)) await retrieve(mainUser, q, PASSAGES_PER_ANSWER)
  const baseline: number[] = []
  for (let i = 0; i < SENDS; i++) {
    const t = performance.now()
    await db.execute(sql`select 1`)
    baseline.push(performance.now() - t)
  }

  const times: number[] = []
  let passages = 0
  let empty = 0
  for (const q of questions) {
    const t = performance.now()
    const found = await retrieve(mainUser, q, PASSAGES_PER_ANSWER)
    buildPrompt(q, found, history)
    times.push(performance.now() - t)
    passages += found.length
    if (found.length === 0) empty++
  }

  // A conversation limited to five documents: its scope read, the documents tried whole (too
  // large here: 100 passages each), then ranked within them, as a scoped send does.
  const { rows: chosen } = (await db.execute(sql`
    insert into library_documents (id, user_id, source, external_id, name, mime_type, status)
    select id, user_id, source, external_id, name, mime_type, 'ready' from documents
    where user_id = ${mainUser} order by external_id limit 5
    returning id`)) as unknown as { rows: { id: string }[] }
  const chats = createChatRepository(db)
  const conversation = await chats.createConversation({
    userId: mainUser,
    title: 'Five documents',
    now: new Date(),
    scope: chosen.map((r) => r.id),
  })
  if (!('id' in conversation)) throw new Error('the scope was refused')
  const readWhole = createWholeDocumentReader(db, DEFAULT_WHOLE_DOCUMENT_TOKEN_BUDGET)
  const scoped: number[] = []
  const scopeReads: number[] = []
  let scopedOutside = 0
  for (const q of questions) {
    const t = performance.now()
    const scope = (await chats.answeringSetup(mainUser, conversation.id)).scope ?? []
    scopeReads.push(performance.now() - t)
    const found =
      (await readWhole(mainUser, scope)) ?? (await retrieve(mainUser, q, PASSAGES_PER_ANSWER, scope))
    buildPrompt(q, found, history, { scoped: true })
    scoped.push(performance.now() - t)
    scopedOutside += found.filter((p) => !scope.includes(p.documentId)).length
  }
  scoped.sort((a, b) => a - b)
  scopeReads.sort((a, b) => a - b)

  times.sort((a, b) => a - b)
  baseline.sort((a, b) => a - b)
  const base = percentile(baseline, 50)
  console.log(`\nnode ${process.version}, PGlite in ${dir}, loaded in ${loadSeconds.toFixed(1)} s`)
  console.log(
    `rows: ${all.n} chunks (avg ${all.chars} chars), ${mine.n} of them the searching user's; ${OTHER_USERS} other users`,
  )
  console.log(
    `sends: ${SENDS}, ${PASSAGES_PER_ANSWER} passages asked each, ${(passages / SENDS).toFixed(1)} returned on average, ${empty} with none\n`,
  )
  console.log('| measure | p50 ms | p95 ms | max ms | p50 / baseline |')
  console.log('|---|---:|---:|---:|---:|')
  console.log(
    `| SELECT 1 round trip (baseline) | ${ms(base)} | ${ms(percentile(baseline, 95))} | ${ms(baseline.at(-1) ?? 0)} | 1 |`,
  )
  const p50 = percentile(times, 50)
  const p95 = percentile(times, 95)
  console.log(
    `| retrieval + prompt per send | ${ms(p50)} | ${ms(p95)} | ${ms(times.at(-1) ?? 0)} | ${(p50 / base).toFixed(0)} |`,
  )
  console.log(
    `| scoped send: scope read + whole-document try + retrieval + prompt | ${ms(percentile(scoped, 50))} | ${ms(percentile(scoped, 95))} | ${ms(scoped.at(-1) ?? 0)} | ${(percentile(scoped, 50) / base).toFixed(0)} |`,
  )
  console.log(
    `| of which the scope read | ${ms(percentile(scopeReads, 50))} | ${ms(percentile(scopeReads, 95))} | ${ms(scopeReads.at(-1) ?? 0)} | ${(percentile(scopeReads, 50) / base).toFixed(0)} |`,
  )
  console.log(
    `\nscoped p50 / unscoped p50: ${(percentile(scoped, 50) / p50).toFixed(2)}; passages from outside the scope: ${scopedOutside}`,
  )
  console.log(`\ntarget p95 <= 50 ms: ${p95 <= 50 ? 'met' : 'NOT met'}`)
} finally {
  await database.close()
  rmSync(dir, { recursive: true, force: true })
}
