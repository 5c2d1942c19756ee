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
 * The German and French sets (quality/manpages-de*.json, manpages-fr*.json) run on the manuals
 * Debian translates (quality-corpus.ts); their baselines stem with that language's stemmer.
 * Then the same questions in conversations limited to their answer page, alone and with four
 * distractors (bench/quality-scope.ts, issue 20).
 * Usage: node bench/quality.ts [--per-question] [questions.json, default quality/questions.json]
 */
import { performance } from 'node:perf_hooks'
import { PASSAGES_PER_ANSWER } from '../server/answering/answer-shapes.ts'
import { createRetriever, passageTokens } from '../server/answering/retrieval.ts'
import { DEFAULT_RETRIEVAL_TOKEN_BUDGET } from '../server/config.ts'
import { createDocumentsRepository } from '../server/documents/index/documents-repository.ts'
import { searchPassages } from '../server/documents/index/passage-search.ts'
import { analyseTexts } from '../server/documents/index/question-analysis-repository.ts'
import { assistantQuality, printAssistantQuality } from './quality-assistants.ts'
import { corpusOf, loadQualityCorpus, loadQuestions, ndcg, referenceBm25, unique } from './quality-corpus.ts'
import { printScopedQuality, scopedQuality } from './quality-scope.ts'

const PER_QUESTION = process.argv.includes('--per-question')
const file = process.argv.find((a) => a.endsWith('.json')) ?? 'quality/questions.json'
const questions = loadQuestions(file)
const { database, db, user, pages, versions, ingestMs, chunks, analyse, languages, language } =
  await loadQualityCorpus(corpusOf(file))
const reference = referenceBm25(chunks)

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
const retrieve = createRetriever(db)
let productMs = 0
/** The typo sets: the product's nDCG@10 on the questions as misspelled and as spelled right. */
const typos = { asTyped: 0, spelledRight: 0, corrected: 0 }
for (const { question, relevant, spelledRight } of questions) {
  if (spelledRight !== undefined) {
    const right = await searchPassages(db, user.id, spelledRight, 100)
    typos.spelledRight += ndcg(unique(right.passages.map((p) => p.documentName)), relevant)
  }
  const started = performance.now()
  const found = await searchPassages(db, user.id, question, 100)
  const ranked = found.passages
  if (spelledRight !== undefined) {
    typos.asTyped += ndcg(unique(ranked.map((p) => p.documentName)), relevant)
    if (found.corrections.length > 0) typos.corrected++
  }
  const prompt = await retrieve(user.id, question, PASSAGES_PER_ANSWER)
  productMs += performance.now() - started
  const terms = await analyse(question)
  const passageHits = reference.passages(terms)
  let budget = 0
  const passagePrompt: string[] = []
  for (const c of passageHits.slice(0, PASSAGES_PER_ANSWER)) {
    budget += passageTokens({ text: c.text, heading: c.heading, documentName: c.page })
    if (passagePrompt.length > 0 && budget > DEFAULT_RETRIEVAL_TOKEN_BUDGET) break
    passagePrompt.push(c.page)
  }
  const pageHits = reference.pages(terms)
  const rankings = {
    product: { ranked: unique(ranked.map((p) => p.documentName)), prompt: prompt.map((p) => p.documentName) },
    'passage BM25': { ranked: unique(passageHits.map((c) => c.page)), prompt: passagePrompt },
    'page BM25': { ranked: pageHits, prompt: pageHits.slice(0, 3) },
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
      `${question}\n  ${line.join(' | ')}\n  product top 3: ${rankings.product.ranked.slice(0, 3).join(', ')}${
        found.corrections.length > 0
          ? `; corrected: ${found.corrections.map((c) => `${c.from} → ${c.to}`).join(', ')}`
          : ''
      }`,
    )
}
const scoped = await scopedQuality(db, user.id, questions, createDocumentsRepository(db), (items) =>
  analyseTexts(db, items),
)
const assistants = [
  await assistantQuality(db, user.id, questions, (items) => analyseTexts(db, items), 'directories'),
  await assistantQuality(db, user.id, questions, (items) => analyseTexts(db, items), 'round robin'),
]
await database.close()

const n = questions.length
console.log(
  `corpus: ${pages.length} pages (${versions.join(', ')}), ${chunks.length} passages, indexed in ${(ingestMs / 1000).toFixed(1)} s; ${n} questions; baselines stemmed as ${language}`,
)
console.log(`passages by detected language: ${[...languages].map(([l, k]) => `${l} ${k}`).join(', ')}`)
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
  `product nDCG@10 / best BM25 baseline: ${(totals.product.ndcg / best).toFixed(3)}; product search + prompt selection: ${(productMs / n).toFixed(1)} ms per question`,
)
if (questions.some((q) => q.spelledRight !== undefined))
  console.log(
    `typos: product nDCG@10 ${(typos.asTyped / n).toFixed(3)} as typed, ${(typos.spelledRight / n).toFixed(3)} spelled right: ${(typos.asTyped / typos.spelledRight).toFixed(3)}× (target >= 0.9); a correction reported for ${typos.corrected} of ${n}`,
  )
printScopedQuality(scoped, n)
printAssistantQuality(assistants)
