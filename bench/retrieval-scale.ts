/**
 * Retrieval as the database grows (issue 24): one person's search timed while their library grows
 * from 10,000 to 100,000 passages and the database around it to 2,000,000 passages of 1,000
 * people. Stages: the person alone with 10,000 passages; with 100,000; others added until the
 * database holds 500,000; then 2,000,000 (each other person ~1,900 passages). At each stage the
 * real search (createSearch, 10 passages for the prompt) answers the same questions: 80 % built
 * from a real passage's words, some with a code, common words, and one in ten with a misspelled
 * word (typo tolerance at work). A tenth of every person's documents is indexed as German, so
 * every question is analysed in two languages. Baselines in the same run: `SELECT 1`, and an
 * indexed count of the person's passages. Target: p95 <= 50 ms at 100,000 passages in 2,000,000.
 *
 * Usage: node bench/retrieval-scale.ts [questions, default 300] [total passages, default 2000000]
 * BENCH_DATABASE_URL=postgres://… runs it on a PostgreSQL server (a migrated database it may
 * empty and fill), otherwise embedded PGlite on a scratch directory (BENCH_DATA_DIR names one to
 * keep). BENCH_STAGES=10000,100000 measures only those stages. BENCH_REUSE=1 measures a database
 * an earlier run filled (BENCH_DATA_DIR or BENCH_DATABASE_URL) as it is, loading nothing: the
 * loads of two databases may then overlap, and each be measured later on a quiet machine.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { sql } from 'drizzle-orm'
import { PASSAGES_PER_ANSWER } from '../server/answering/answer-shapes.ts'
import { createSearch } from '../server/answering/retrieval.ts'
import { loadConfig } from '../server/config.ts'
import { openDatabase } from '../server/db/database.ts'
import { queryRows } from '../server/db/query-rows.ts'
import { createDocumentWriter, type DocumentWriter } from '../server/documents/index/document-writer.ts'
import { refreshChunkStatistics } from '../server/documents/index/documents-repository.ts'
import { benchChunks, benchDocument, benchQuestion, createCorpus, insertBenchUsers, timed } from './corpus.ts'

const QUESTIONS = Number(process.argv[2] ?? 300)
const TOTAL = Number(process.argv[3] ?? 2_000_000)
const PEOPLE = 1000
const MAIN = 100_000
const PER_DOCUMENT = 200
const CHUNK_CHARS = 800
const STAGES = (process.env.BENCH_STAGES ?? `10000,100000,500000,${TOTAL}`)
  .split(',')
  .map(Number)
  .filter((n) => n <= TOTAL)

const corpus = createCorpus({ seed: 0x27d4eb2f, tailSize: 6000, codeRate: 0.025 })
const { pick, random } = corpus

/** Misspells one word of six letters or more of a question: a letter dropped or two swapped. */
function misspell(question: string): string {
  const words = question.split(' ')
  const long = words.map((w, i) => [w, i] as const).filter(([w]) => /^[a-z]{6,}$/.test(w))
  if (long.length === 0) return question
  const [word, at] = pick(long)
  const i = 1 + Math.floor(random() * (word.length - 2))
  words[at] =
    random() < 0.5
      ? word.slice(0, i) + word.slice(i + 1)
      : word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2)
  return words.join(' ')
}

async function addDocuments(
  writer: DocumentWriter,
  userId: string,
  from: number,
  count: number,
  samples?: string[],
) {
  for (let d = from; d < from + Math.ceil(count / PER_DOCUMENT); d++) {
    const chunks = benchChunks(corpus, PER_DOCUMENT, CHUNK_CHARS, d % 10 === 9 ? 'german' : 'english')
    if (samples) samples.push(pick(chunks).text, pick(chunks).text)
    await writer.write({ document: benchDocument(userId, d), chunks })
  }
}

const ms = (n: number) => n.toFixed(1)
const url = process.env.BENCH_DATABASE_URL
const keptDir = process.env.BENCH_DATA_DIR
const dir = url ? null : (keptDir ?? mkdtempSync(path.join(tmpdir(), 'docchat-bench-scale-')))
const database = await openDatabase(
  loadConfig({
    APP_SECRET: 'bench-secret-that-is-long-enough-0123456789',
    ...(url ? { DATABASE_URL: url } : { DATA_DIR: dir as string }),
  }),
)
const { db } = database
try {
  const reuse = process.env.BENCH_REUSE === '1'
  if (!reuse) await db.execute(sql`truncate users cascade`)
  const people = reuse
    ? (
        await queryRows<{ id: string }>(
          db,
          sql`select id from users where email like 'bench-%' order by email = 'bench-0@example.com' desc, id`,
        )
      ).map((r) => r.id)
    : await insertBenchUsers(db, PEOPLE)
  const [main, ...others] = people as [string, ...string[]]
  const samples: string[] = []
  let loaded = 0
  let mainLoaded = 0
  let othersLoaded = 0
  if (reuse) {
    // Two passages of each of the person's documents, as the load picks them (by ordinal here).
    const rows = await queryRows<{ text: string }>(
      db,
      sql`select text from document_chunks where user_id = ${main} and ordinal in (7, 61) order by document_id, ordinal`,
    )
    for (const r of rows) samples.push(r.text)
    const [counts] = await queryRows<{ mine: number; everyone: number }>(
      db,
      sql`select count(*) filter (where user_id = ${main})::int as mine, count(*)::int as everyone from document_chunks`,
    )
    STAGES.splice(0, STAGES.length, counts?.everyone ?? 0)
    mainLoaded = counts?.mine ?? 0
    othersLoaded = (counts?.everyone ?? 0) - mainLoaded
  }
  const search = createSearch(db)
  // One writer for the whole load, as the server has: a writer made per document chains every
  // transaction in promise callbacks, the event loop never turns, and PGlite's checkpoints (D96,
  // on a timer) never run.
  const writer = createDocumentWriter({ db })
  console.log(
    `node ${process.version}; ${url ? 'PostgreSQL' : `PGlite in ${dir}`}; load average at start ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  )
  console.log(
    '| passages in the database | the person’s passages | load s | SELECT 1 p50 | count of the person’s passages p50 | search p50 ms | p95 ms | max ms | with a typo p95 ms | load average |',
  )
  console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|')
  for (const stage of STAGES) {
    const started = performance.now()
    const mainTarget = Math.min(MAIN, stage)
    if (mainTarget > mainLoaded) {
      await addDocuments(writer, main, mainLoaded / PER_DOCUMENT, mainTarget - mainLoaded, samples)
      mainLoaded = mainTarget
    }
    const othersTarget = stage - mainLoaded
    while (othersLoaded < othersTarget) {
      const person = others[Math.floor(othersLoaded / PER_DOCUMENT) % others.length] as string
      const round = Math.floor(othersLoaded / PER_DOCUMENT / others.length)
      await addDocuments(writer, person, round, PER_DOCUMENT)
      othersLoaded += PER_DOCUMENT
    }
    loaded = mainLoaded + othersLoaded
    if (!reuse) {
      await refreshChunkStatistics(db)
      if (url) await db.execute(sql`analyze`)
    }
    const loadSeconds = (performance.now() - started) / 1000
    const questions = Array.from({ length: QUESTIONS }, (_, i) =>
      i % 10 === 9 ? misspell(benchQuestion(corpus, samples)) : benchQuestion(corpus, samples),
    )
    for (const q of questions.slice(0, 30)) await search(main, q, PASSAGES_PER_ANSWER)
    const trivial = await timed(QUESTIONS, () => db.execute(sql`select 1`))
    const counted = await timed(Math.min(QUESTIONS, 50), () =>
      db.execute(sql`select count(*) from document_chunks where user_id = ${main}`),
    )
    const all = await timed(QUESTIONS, (i) => search(main, questions[i] ?? '', PASSAGES_PER_ANSWER))
    const typos = questions.filter((_, i) => i % 10 === 9)
    const typo = await timed(typos.length, (i) => search(main, typos[i] ?? '', PASSAGES_PER_ANSWER))
    console.log(
      `| ${loaded.toLocaleString('en')} | ${mainLoaded.toLocaleString('en')} | ${loadSeconds.toFixed(0)} | ${ms(trivial.p50)} | ${ms(counted.p50)} | ${ms(all.p50)} | ${ms(all.p95)} | ${ms(all.max)} | ${ms(typo.p95)} | ${loadavg()[0]?.toFixed(1)} |`,
    )
  }
} finally {
  await database.close()
  if (dir && !keptDir) rmSync(dir, { recursive: true, force: true })
}
