/**
 * What upgrading an existing library costs (D82): a PGlite database migrated to 0017 (before
 * languages) holding one person's passages indexed as English — the German, French and English
 * manuals of the quality benchmark, repeated until there are [passages] of them, a third in each
 * language — then the server's start: migration 0018 (the words column re-created, the statistics
 * per language), and the language pass that detects every document's passages and re-indexes
 * those not in English. Times of each step, and what the pass changed; then a German question
 * stemmed as German finds what it could not before.
 * Needs `apt-get install manpages-de manpages-fr` (the quality benchmark's manuals).
 * Usage: node bench/language-upgrade.ts [passages, default 100000]
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { PGlite } from '@electric-sql/pglite'
import { sql } from 'drizzle-orm'
import { drizzle } from 'drizzle-orm/pglite'
import { migrate } from 'drizzle-orm/pglite/migrator'
import { loadConfig } from '../server/config.ts'
import { openDatabase } from '../server/db/database.ts'
import { MIGRATIONS_FOLDER } from '../server/db/migrations-folder.ts'
import { PGLITE_EXTENSIONS } from '../server/db/pglite-extensions.ts'
import { createDocumentWriter } from '../server/documents/index/document-writer.ts'
import { detectPendingLanguages } from '../server/documents/index/language-pass.ts'
import { searchPassages } from '../server/documents/index/passage-search.ts'
import { chunkDocument } from '../server/documents/reading/chunker.ts'
import { loadQualityCorpus } from './quality-corpus.ts'

const PASSAGES = Number(process.argv[2] ?? 100_000)
const BEFORE = '0017_chat_shares'

/** The migrations up to 0017, as a release before D82 shipped them. */
function migrationsBefore(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'docchat-migrations-'))
  cpSync(MIGRATIONS_FOLDER, dir, { recursive: true })
  const journalFile = path.join(dir, 'meta', '_journal.json')
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: { tag: string; idx: number }[] }
  const last = journal.entries.findIndex((e) => e.tag === BEFORE)
  journal.entries = journal.entries.slice(0, last + 1)
  writeFileSync(journalFile, JSON.stringify(journal))
  return dir
}

const seconds = (from: number) => ((performance.now() - from) / 1000).toFixed(1)

// The manuals' sections as their chunks: a third German, a third French, a third English (the
// English ones are the docs corpus's pages).
const texts: string[] = []
for (const corpus of ['manpages-de', 'manpages-fr', 'docs'] as const) {
  const loaded = await loadQualityCorpus(corpus)
  texts.push(...loaded.pages.map((p) => p.text))
  await loaded.database.close()
}
const documents = texts.map((text) => chunkDocument([{ page: null, text }], { markdown: true }))
const perRound = documents.reduce((n, d) => n + d.length, 0)

const dataDir = mkdtempSync(path.join(tmpdir(), 'docchat-bench-upgrade-'))
const oldMigrations = migrationsBefore()
try {
  let started = performance.now()
  // Where the server keeps its embedded database in DATA_DIR.
  const client = new PGlite({ dataDir: path.join(dataDir, 'pglite'), extensions: PGLITE_EXTENSIONS })
  const old = drizzle(client)
  await migrate(old, { migrationsFolder: oldMigrations })
  const inserted = (await old.execute(
    sql`insert into users (email, password_hash) values ('upgrade@example.com', 'x') returning id`,
  )) as unknown as { rows: { id: string }[] }
  const userId = { id: inserted.rows[0]?.id ?? '' }
  let loaded = 0
  for (let round = 0; loaded < PASSAGES; round++)
    for (const [i, chunks] of documents.entries()) {
      if (loaded >= PASSAGES) break
      const take = chunks.slice(0, PASSAGES - loaded)
      const { rows } = (await old.execute(sql`
        insert into documents (user_id, source, external_id, name, mime_type)
        values (${userId.id}, 'bench', ${`${round}-${i}`}, ${`manual-${round}-${i}.md`}, 'text/markdown')
        returning id`)) as unknown as { rows: { id: string }[] }
      const documentId = rows[0]?.id
      await old.execute(sql`
        insert into document_chunks (document_id, user_id, ordinal, heading, text)
        select ${documentId}, ${userId.id}, o, h, t
        from unnest(${sql.param(take.map((c) => c.ordinal))}::int[], ${sql.param(take.map((c) => c.heading))}::text[],
          ${sql.param(take.map((c) => c.text))}::text[]) as x(o, h, t)`)
      loaded += take.length
    }
  // Statistics as migration 0006 computes them (what an existing library has).
  const backfill = readFileSync(path.join(MIGRATIONS_FOLDER, '0006_retrieval_bm25_backfill.sql'), 'utf8')
  for (const statement of backfill.split('--> statement-breakpoint'))
    await old.execute(sql.raw(statement.replace(/^--.*$/gm, '')))
  await client.close()
  console.log(
    `node ${process.version}; PGlite; ${loaded.toLocaleString('en')} passages of one person (${documents.length} manuals of ${perRound.toLocaleString('en')} passages, repeated), loaded as before 0018 in ${seconds(started)} s; load average ${loadavg()[0]?.toFixed(1)}`,
  )

  started = performance.now()
  const database = await openDatabase(
    loadConfig({ APP_SECRET: 'bench-secret-that-is-long-enough-0123456789', DATA_DIR: dataDir }),
  )
  console.log(`| migration 0018 (words column re-created, statistics per language) | ${seconds(started)} s |`)
  const { db } = database
  const before = await searchPassages(db, userId.id, 'Wie zeige ich die Verzeichnisse an?', 10)
  started = performance.now()
  const result = await detectPendingLanguages(db, createDocumentWriter({ db }))
  console.log(
    `| language pass: ${result.documents} documents, ${result.passages.toLocaleString('en')} passages re-indexed | ${seconds(started)} s |`,
  )
  const after = await searchPassages(db, userId.id, 'Wie zeige ich die Verzeichnisse an?', 10)
  const { rows } = (await db.execute(
    sql`select language::text, count(*)::int as n from document_chunks group by 1 order by 2 desc`,
  )) as unknown as { rows: { language: string; n: number }[] }
  console.log(`passages by language after the pass: ${rows.map((r) => `${r.language} ${r.n}`).join(', ')}`)
  console.log(
    `"Wie zeige ich die Verzeichnisse an?": ${before.passages.filter((p) => p.language === 'german').length} German passages of 10 before the pass, ${after.passages.filter((p) => p.language === 'german').length} after; load average ${loadavg()[0]?.toFixed(1)}`,
  )
  await database.close()
} finally {
  rmSync(dataDir, { recursive: true, force: true })
  rmSync(oldMigrations, { recursive: true, force: true })
}
