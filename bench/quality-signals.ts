/**
 * How far lexical signals can take the ranking on the quality benchmark: nine page features
 * computed from the same lexemes as the product (best passage BM25, page BM25 at b 0.9 and 0.75
 * and k1 3, question words in the page's name, in the best passage's heading, share of the
 * question's idf in one passage, word-pair proximity, the best three passages summed), each
 * normalised to the question's best page, combined linearly. The weights are learned by
 * coordinate ascent on nDCG@10: on the tuning set and scored on the held-out sets, with 5-fold
 * cross-validation over all judged questions (three shuffles), and, as an upper bound nobody
 * should ship, fitted and scored on the same questions. "product-like" is the product's own
 * combination (best passage + 2 × page + names) re-computed here, a check that the features
 * reproduce the product. Not a product code path: an experiment kept so its figures can be rerun.
 * Usage: node bench/quality-signals.ts
 */
import { seededRandom } from './corpus.ts'
import {
  type AnalysedChunk,
  type Judged,
  loadQualityCorpus,
  loadQuestions,
  ndcg,
  referenceBm25,
  unique,
} from './quality-corpus.ts'

const SETS = ['questions', 'holdout', 'holdout2']
const FEATURES = [
  'passage',
  'page',
  'name',
  'heading',
  'coverage',
  'proximity',
  'top3',
  'page b.75',
  'page k1 3',
]
const PRODUCT_LIKE = [1, 2, 0.3, 0, 0, 0, 0, 0, 0]

const { database, chunks, analyse } = await loadQualityCorpus()
const reference = referenceBm25(chunks)

type Indexed = AnalysedChunk & {
  tf: Map<string, number>
  positions: Map<string, number[]>
  head: Set<string>
}
const indexed: Indexed[] = chunks.map((c) => {
  const tf = new Map<string, number>()
  const positions = new Map<string, number[]>()
  c.terms.forEach((t, i) => {
    tf.set(t, (tf.get(t) ?? 0) + 1)
    positions.set(t, [...(positions.get(t) ?? []), i])
  })
  return { ...c, tf, positions, head: new Set(c.headingTerms) }
})
const byPage = new Map<string, Indexed[]>()
for (const c of indexed) byPage.set(c.page, [...(byPage.get(c.page) ?? []), c])
const pageTf = new Map<string, Map<string, number>>()
const pageLength = new Map<string, number>()
for (const [page, cs] of byPage) {
  const tf = new Map<string, number>()
  for (const c of cs) for (const [t, n] of c.tf) tf.set(t, (tf.get(t) ?? 0) + n)
  pageTf.set(page, tf)
  pageLength.set(
    page,
    cs.reduce((s, c) => s + c.terms.length, 0),
  )
}
const names = new Map<string, Set<string>>()
for (const page of byPage.keys()) names.set(page, new Set(await analyse(page.replace(/[-_./]+/g, ' '))))

const count = (sets: Iterable<Iterable<string>>) => {
  const df = new Map<string, number>()
  for (const s of sets) for (const t of s) df.set(t, (df.get(t) ?? 0) + 1)
  return df
}
const chunkDf = count(indexed.map((c) => c.tf.keys()))
const pageDf = count([...pageTf.values()].map((m) => m.keys()))
const averageChunk = indexed.reduce((s, c) => s + c.terms.length, 0) / indexed.length
const averagePage = [...pageLength.values()].reduce((a, b) => a + b, 0) / byPage.size
const idf = (n: number, df: number) => Math.log(1 + (n - df + 0.5) / (df + 0.5))
const chunkIdf = (t: string) => idf(indexed.length, chunkDf.get(t) ?? 0)
const pageIdf = (t: string) => idf(byPage.size, pageDf.get(t) ?? 0)
function bm25(
  q: string[],
  tf: Map<string, number>,
  length: number,
  average: number,
  w: (t: string) => number,
  k1: number,
  b: number,
) {
  return q.reduce((s, t) => {
    const f = tf.get(t) ?? 0
    return f ? s + (w(t) * f * (k1 + 1)) / (f + k1 * (1 - b + (b * length) / average)) : s
  }, 0)
}
function proximity(q: string[], c: Indexed): number {
  let score = 0
  for (let i = 0; i < q.length; i++)
    for (let j = i + 1; j < q.length; j++) {
      const a = c.positions.get(q[i] as string)
      const b = c.positions.get(q[j] as string)
      if (!a || !b) continue
      const d = Math.min(...a.flatMap((x) => b.map((y) => Math.abs(x - y))))
      if (d <= 5) score += Math.min(chunkIdf(q[i] as string), chunkIdf(q[j] as string)) / (d * d)
    }
  return score
}

type Candidate = { page: string; f: number[] }
async function candidates(question: string): Promise<Candidate[]> {
  const q = unique(await analyse(question)).filter((t) => chunkDf.has(t))
  const total = q.reduce((s, t) => s + chunkIdf(t), 0) || 1
  const share = (has: (t: string) => boolean) => q.filter(has).reduce((s, t) => s + chunkIdf(t), 0) / total
  const out: Candidate[] = []
  for (const [page, cs] of byPage) {
    const tf = pageTf.get(page) as Map<string, number>
    if (!q.some((t) => tf.has(t))) continue
    const passages = cs
      .map((c) => bm25(q, c.tf, c.terms.length, averageChunk, chunkIdf, 1.2, 0.75))
      .sort((a, b) => b - a)
    const length = pageLength.get(page) ?? 0
    out.push({
      page,
      f: [
        passages[0] ?? 0,
        bm25(q, tf, length, averagePage, pageIdf, 1.2, 0.9),
        q.filter((t) => names.get(page)?.has(t)).reduce((s, t) => s + pageIdf(t), 0),
        Math.max(...cs.map((c) => share((t) => c.head.has(t)))),
        Math.max(...cs.map((c) => share((t) => c.tf.has(t)))),
        Math.max(...cs.map((c) => proximity(q, c) / total)),
        passages.slice(0, 3).reduce((a, b) => a + b, 0),
        bm25(q, tf, length, averagePage, pageIdf, 1.2, 0.75),
        bm25(q, tf, length, averagePage, pageIdf, 3, 0.9),
      ],
    })
  }
  for (let k = 0; k < FEATURES.length; k++) {
    const best = Math.max(0, ...out.map((r) => r.f[k] as number)) || 1
    for (const r of out) r.f[k] = (r.f[k] as number) / best
  }
  return out
}

type Question = {
  set: string
  candidates: Candidate[]
  relevant: Judged['relevant']
  passage: number
  page: number
}
const questions: Question[] = []
for (const set of SETS)
  for (const { question, relevant } of loadQuestions(`quality/${set}.json`)) {
    const terms = await analyse(question)
    questions.push({
      set,
      candidates: await candidates(question),
      relevant,
      passage: ndcg(unique(reference.passages(terms).map((c) => c.page)), relevant),
      page: ndcg(reference.pages(terms), relevant),
    })
  }
await database.close()

const dot = (w: number[], f: number[]) => w.reduce((s, x, i) => s + x * (f[i] as number), 0)
const mean = (qs: Question[], value: (q: Question) => number) =>
  qs.reduce((s, q) => s + value(q), 0) / qs.length
const score = (w: number[], qs: Question[]) =>
  mean(qs, (q) =>
    ndcg(
      [...q.candidates].sort((a, b) => dot(w, b.f) - dot(w, a.f)).map((c) => c.page),
      q.relevant,
    ),
  )
const baseline = (qs: Question[]) =>
  Math.max(
    mean(qs, (q) => q.passage),
    mean(qs, (q) => q.page),
  )

/** Coordinate ascent on mean nDCG@10, weights kept ≥ 0, from the product's own weights. */
function learn(qs: Question[]): number[] {
  let w = [...PRODUCT_LIKE]
  let best = score(w, qs)
  for (let round = 0; round < 4; round++) {
    let improved = false
    for (let k = 0; k < w.length; k++)
      for (const step of [-1, -0.5, -0.2, -0.1, 0.1, 0.2, 0.5, 1]) {
        const next = w.map((x, i) => (i === k ? Math.max(0, x + step) : x))
        const value = score(next, qs)
        if (value > best + 1e-9) [best, w, improved] = [value, next, true]
      }
    if (!improved) break
  }
  return w
}
const weights = (w: number[]) => FEATURES.map((f, i) => `${f} ${(w[i] as number).toFixed(1)}`).join(', ')
const line = (label: string, w: number[], qs: Question[]) =>
  console.log(`| ${label} | ${score(w, qs).toFixed(3)} | ${(score(w, qs) / baseline(qs)).toFixed(3)} |`)

const tuning = questions.filter((q) => q.set === 'questions')
const heldOut = questions.filter((q) => q.set !== 'questions')
console.log(
  `${questions.length} questions (${SETS.join(', ')}); best BM25 baseline nDCG@10 ${baseline(questions).toFixed(3)}`,
)
console.log('| ranking | nDCG@10 | / best BM25 |\n|---|---|---|')
line('product-like weights, all questions', PRODUCT_LIKE, questions)
line('product-like weights, held-out questions', PRODUCT_LIKE, heldOut)
const fromTuning = learn(tuning)
line('learned on the tuning set, scored on the held-out questions', fromTuning, heldOut)
const { random } = seededRandom(7)
for (let shuffle = 0; shuffle < 3; shuffle++) {
  const order = questions
    .map((q) => ({ q, key: random() }))
    .sort((a, b) => a.key - b.key)
    .map((x) => x.q)
  let total = 0
  for (let fold = 0; fold < 5; fold++) {
    const test = order.filter((_, i) => i % 5 === fold)
    total += score(learn(order.filter((_, i) => i % 5 !== fold)), test) * test.length
  }
  const cv = total / questions.length
  console.log(
    `| 5-fold cross-validation, shuffle ${shuffle + 1} | ${cv.toFixed(3)} | ${(cv / baseline(questions)).toFixed(3)} |`,
  )
}
const fitted = learn(questions)
line('upper bound: fitted and scored on all questions', fitted, questions)
console.log(`weights learned on the tuning set: ${weights(fromTuning)}`)
console.log(`weights fitted on all questions: ${weights(fitted)}`)
