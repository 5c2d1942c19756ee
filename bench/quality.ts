/**
 * Retrieval quality on a public corpus: the markdown documentation that ships inside three npm
 * packages of this project's lockfile (fastify's docs/, undici's docs/docs/, pino's docs/; 101
 * pages), indexed as a user's documents, and the hand-written questions of
 * bench/quality/questions.json with graded judgments per page (2: the page that answers, 1: a
 * page that helps). The product (DocumentsRepository.search, then the prompt's selection) against
 * reference BM25 (minisearch) over the very same chunks (passage level) and over whole pages
 * (page level), given the same text analysis as the product (PostgreSQL's english lexemes, so
 * the baselines stem and drop stopwords too).
 *
 * Metrics, at page level (a passage ranking counts each page at its first passage): nDCG@10 with
 * gains 2^grade - 1, Recall@5 (share of the judged pages in the first five), MRR (first judged
 * page), and "in prompt": a grade-2 page among the passages the product puts into the prompt
 * (passage BM25: its top passages in order under the same token budget and count; page BM25: its
 * first three pages, since whole pages do not fit a prompt).
 * Usage: node bench/quality.ts [--per-question] [questions.json, default quality/questions.json]
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { sql } from 'drizzle-orm'
import MiniSearch from 'minisearch'
import { PASSAGES_PER_ANSWER } from '../server/assistant/assistant.ts'
import { createRetriever, passageTokens } from '../server/assistant/retrieval.ts'
import { DEFAULT_RETRIEVAL_TOKEN_BUDGET } from '../server/config.ts'
import { openDatabase } from '../server/db/database.ts'
import { users } from '../server/db/schema.ts'
import { createDocumentsRepository } from '../server/documents/documents-repository.ts'
import { indexDocument } from '../server/documents/index-document.ts'

const ROOT = path.resolve(import.meta.dirname, '..')
const MODULES = path.join(ROOT, 'node_modules')
const CORPUS = ['fastify/docs', 'undici/docs/docs', 'pino/docs']
const PER_QUESTION = process.argv.includes('--per-question')

type Judged = { question: string; relevant: Record<string, number> }
const questionsFile = process.argv.find((a) => a.endsWith('.json')) ?? 'quality/questions.json'
const questions = JSON.parse(
  readFileSync(path.resolve(import.meta.dirname, questionsFile), 'utf8'),
) as Judged[]

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name)
    if (statSync(full).isDirectory()) return markdownFiles(full)
    return name.endsWith('.md') ? [full] : []
  })
}
const pages = CORPUS.flatMap((d) => markdownFiles(path.join(MODULES, d))).map((file) => ({
  id: path.relative(MODULES, file),
  text: readFileSync(file, 'utf8'),
}))
const versions = ['fastify', 'undici', 'pino'].map(
  (p) => `${p} ${JSON.parse(readFileSync(path.join(MODULES, p, 'package.json'), 'utf8')).version}`,
)

const database = await openDatabase({ database: { kind: 'memory' }, dataDir: '/nonexistent' })
const { db } = database
const [user] = await db.insert(users).values({ email: 'bench@example.com', passwordHash: 'x' }).returning()
if (!user) throw new Error('no user')
let started = performance.now()
for (const page of pages)
  await indexDocument(db, {
    userId: user.id,
    source: 'bench',
    externalId: page.id,
    name: page.id,
    mimeType: 'text/markdown',
    sections: [{ page: null, text: page.text }],
  })
const ingestMs = performance.now() - started

// The chunks as PostgreSQL analysed them (lexemes in text order), for the baselines.
const { rows: chunkRows } = (await db.execute(sql`
  select c.id, d.external_id as page, c.ordinal, c.text, c.heading,
    (select string_agg(x.lexeme, ' ' order by x.p)
     from (select t.lexeme, unnest(t.positions) as p from unnest(c.tsv) as t) as x) as terms
  from document_chunks c join documents d on d.id = c.document_id
  order by d.external_id, c.ordinal`)) as unknown as {
  rows: {
    id: string
    page: string
    ordinal: number
    text: string
    heading: string | null
    terms: string | null
  }[]
}
const analyse = async (text: string) => {
  const { rows } = (await db.execute(sql`
    select coalesce(string_agg(t.lexeme, ' '), '') as terms from unnest(to_tsvector('english', ${text})) as t`)) as unknown as {
    rows: { terms: string }[]
  }
  return rows[0]?.terms ?? ''
}
const bm25 = () =>
  new MiniSearch<{ id: string; terms: string }>({
    fields: ['terms'],
    idField: 'id',
    tokenize: (s) => s.split(' ').filter(Boolean),
    processTerm: (t) => t,
  })
const passageIndex = bm25()
passageIndex.addAll(chunkRows.map((c) => ({ id: c.id, terms: c.terms ?? '' })))
const pageTerms = new Map<string, string[]>()
for (const c of chunkRows) pageTerms.set(c.page, [...(pageTerms.get(c.page) ?? []), c.terms ?? ''])
const pageIndex = bm25()
pageIndex.addAll([...pageTerms].map(([id, t]) => ({ id, terms: t.join(' ') })))
const chunkById = new Map(chunkRows.map((c) => [c.id, c]))

const unique = (ids: string[]) => [...new Set(ids)]
function ndcg(ranked: string[], relevant: Record<string, number>, k = 10): number {
  const dcg = ranked
    .slice(0, k)
    .reduce((s, id, i) => s + (2 ** (relevant[id] ?? 0) - 1) / Math.log2(i + 2), 0)
  const ideal = Object.values(relevant)
    .sort((a, b) => b - a)
    .slice(0, k)
    .reduce((s, g, i) => s + (2 ** g - 1) / Math.log2(i + 2), 0)
  return ideal === 0 ? 0 : dcg / ideal
}
const recall = (ranked: string[], relevant: Record<string, number>, k = 5) =>
  ranked.slice(0, k).filter((id) => (relevant[id] ?? 0) > 0).length / Object.keys(relevant).length
const mrr = (ranked: string[], relevant: Record<string, number>) => {
  const i = ranked.findIndex((id) => (relevant[id] ?? 0) > 0)
  return i < 0 ? 0 : 1 / (i + 1)
}
const answers = (inPrompt: string[], relevant: Record<string, number>) =>
  inPrompt.some((id) => relevant[id] === 2) ? 1 : 0

type Totals = { ndcg: number; recall: number; mrr: number; prompt: number; promptPages: number }
const systems = ['product', 'passage BM25', 'page BM25'] as const
const totals = Object.fromEntries(
  systems.map((s) => [s, { ndcg: 0, recall: 0, mrr: 0, prompt: 0, promptPages: 0 }]),
) as Record<(typeof systems)[number], Totals>
const documents = createDocumentsRepository(db)
const retrieve = createRetriever(db)
let productMs = 0
for (const { question, relevant } of questions) {
  started = performance.now()
  const ranked = await documents.search(user.id, question, 100)
  const prompt = await retrieve(user.id, question, PASSAGES_PER_ANSWER)
  productMs += performance.now() - started
  const terms = await analyse(question)
  const passageHits = passageIndex.search(terms)
  let budget = 0
  const passagePrompt: string[] = []
  for (const hit of passageHits.slice(0, PASSAGES_PER_ANSWER)) {
    const c = chunkById.get(String(hit.id))
    if (!c) continue
    budget += passageTokens({ text: c.text, heading: c.heading, documentName: c.page })
    if (passagePrompt.length > 0 && budget > DEFAULT_RETRIEVAL_TOKEN_BUDGET) break
    passagePrompt.push(c.page)
  }
  const rankings = {
    product: { ranked: unique(ranked.map((p) => p.documentName)), prompt: prompt.map((p) => p.documentName) },
    'passage BM25': {
      ranked: unique(passageHits.map((h) => chunkById.get(String(h.id))?.page ?? '')),
      prompt: passagePrompt,
    },
    'page BM25': {
      ranked: pageIndex.search(terms).map((h) => String(h.id)),
      prompt: pageIndex
        .search(terms)
        .slice(0, 3)
        .map((h) => String(h.id)),
    },
  }
  const line: string[] = []
  for (const s of systems) {
    const r = rankings[s]
    const t = totals[s]
    t.ndcg += ndcg(r.ranked, relevant)
    t.recall += recall(r.ranked, relevant)
    t.mrr += mrr(r.ranked, relevant)
    t.prompt += answers(r.prompt, relevant)
    t.promptPages += unique(r.prompt).length
    line.push(
      `${s}: ${ndcg(r.ranked, relevant).toFixed(2)}${answers(r.prompt, relevant) ? '' : ' (not in prompt)'}`,
    )
  }
  if (PER_QUESTION)
    console.log(
      `${question}\n  ${line.join(' | ')}\n  product top 3: ${rankings.product.ranked.slice(0, 3).join(', ')}`,
    )
}
await database.close()

const n = questions.length
console.log(
  `corpus: ${pages.length} pages (${versions.join(', ')}), ${chunkRows.length} passages, indexed in ${(ingestMs / 1000).toFixed(1)} s; ${n} questions`,
)
console.log('| ranking | nDCG@10 | Recall@5 | MRR | answer page in prompt | pages in prompt |')
console.log('|---|---|---|---|---|---|')
for (const s of systems) {
  const t = totals[s]
  console.log(
    `| ${s} | ${(t.ndcg / n).toFixed(3)} | ${(t.recall / n).toFixed(3)} | ${(t.mrr / n).toFixed(3)} | ${t.prompt}/${n} | ${(t.promptPages / n).toFixed(1)} |`,
  )
}
const best = Math.max(totals['passage BM25'].ndcg, totals['page BM25'].ndcg)
console.log(
  `product nDCG@10 / best BM25 baseline: ${(totals.product.ndcg / best).toFixed(3)} (target >= 1.1); product search + prompt selection: ${(productMs / n).toFixed(1)} ms per question`,
)
