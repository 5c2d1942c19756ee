/**
 * A feature study for "Only from its documents" (issue 36): does the knowledge hold the
 * answer, judged against the person's whole library? For every judged question (the tuning set
 * and both holdouts) and both folder layouts of bench/quality-assistants.ts, the folder holding
 * its answer page ("home", must pass) and every folder holding no judged page ("none", should
 * fall back) are scored on:
 * - coverage: the best of the knowledge's five best passages' share of the searched words (the
 *   rule kept so far, ≥ 0.25);
 * - passage and document ratios: the knowledge's best passage BM25 and best document score over
 *   the library's (bestMatch: raw scores, the same words weighed by the same library statistics);
 * - library share: the knowledge's best rank in ONE library-wide ranking of the same statement
 *   (top L passages; only document ids and ranks read) over the library's best rank;
 * - library position: where the knowledge's first passage stands in that ranking;
 * - missing rarity: the share of the question's idf (library-wide) held by words found somewhere
 *   in the library but nowhere in the knowledge.
 * Each rule is "coverage ≥ 0.25 and feature passes"; reported per threshold: home asks kept and
 * none-asks that fall back. Not a product code path: an experiment kept so it can be rerun.
 * Figures in bench/RESULTS.md ("judged against the whole library").
 * Usage: node bench/quality-judge.ts (JUDGE_DUMP=asks.json also writes every ask, for exploring)
 */
import { writeFileSync } from 'node:fs'
import { sql } from 'drizzle-orm'
import { bestCoverage, RELEVANT_COVERAGE } from '../server/answering/relevance.ts'
import type { Db } from '../server/db/database.ts'
import { queryRows } from '../server/db/query-rows.ts'
import { bestMatch, searchPassages } from '../server/documents/index/passage-search.ts'
import { analyseTexts } from '../server/documents/index/question-analysis-repository.ts'
import { type BestMatch, idf } from '../server/documents/index/search-terms.ts'
import { type FolderLayout, layoutFolders } from './quality-assistants.ts'
import { loadQualityCorpus, loadQuestions } from './quality-corpus.ts'

const SETS = ['questions', 'holdout', 'holdout2']
const PROBE = 40
const LIBRARY_LIMITS = [PROBE]

const { database, db, user, chunks } = await loadQualityCorpus()

type Ask = {
  set: string
  layout: FolderLayout
  home: boolean
  coverage: number
  share: Record<number, number>
  position: Record<number, number>
  missing: number
  /** For offline exploration: the library's ranking (document, rank), the question's words. */
  ranking: [string, number][]
  words: [string, number, boolean][]
  question: string
  /** Raw best passage and document scores within the knowledge and in the whole library. */
  knowledgeBest: BestMatch | null
  libraryBest: BestMatch | null
}

const documents = await queryRows<{ id: string; external_id: string }>(
  db as Db,
  sql`select id, external_id from documents where user_id = ${user.id} order by external_id`,
)
const idOf = new Map(documents.map((d) => [d.external_id, d.id]))
const chunkCount = chunks.length
const lexemesOfPage = new Map<string, Set<string>>()
for (const c of chunks) {
  const set = lexemesOfPage.get(c.page) ?? new Set<string>()
  for (const t of c.terms) set.add(t)
  lexemesOfPage.set(c.page, set)
}
const chunkDf = new Map<string, number>()
for (const c of chunks) for (const t of new Set(c.terms)) chunkDf.set(t, (chunkDf.get(t) ?? 0) + 1)

const asks: Ask[] = []
const started = performance.now()
let librarySearches = 0
let libraryMs = 0
for (const layout of ['directories', 'round robin'] as FolderLayout[]) {
  const names = documents.map((d) => d.external_id)
  const folderOf = layoutFolders(layout, names)
  const folders = new Map<string, string[]>()
  for (const n of names) {
    const f = folderOf.get(n) as string
    folders.set(f, [...(folders.get(f) ?? []), n])
  }
  for (const set of SETS)
    for (const { question, relevant } of loadQuestions(`quality/${set}.json`)) {
      const answerPage = Object.keys(relevant).find((p) => relevant[p] === 2)
      const home = answerPage === undefined ? undefined : folderOf.get(answerPage)
      if (home === undefined) continue
      const judged = new Set(Object.keys(relevant).map((p) => folderOf.get(p)))
      const library = await searchPassages(db, user.id, question, Math.max(...LIBRARY_LIMITS))
      const t0 = performance.now()
      const libraryBest = await bestMatch(db, user.id, question, null)
      libraryMs += performance.now() - t0
      librarySearches += 1
      const top = library.passages[0]?.rank ?? 0
      const words = [...new Set(library.terms.filter((t) => t.language === 'english').map((t) => t.lexeme))]
      const weight = (w: string) => idf(chunkCount, chunkDf.get(w) ?? 0)
      const totalIdf = words.reduce((s, w) => s + weight(w), 0) || 1
      for (const [folder, pages] of folders) {
        const isHome = folder === home
        if (!isHome && judged.has(folder)) continue
        const scope = pages.map((p) => idOf.get(p) as string)
        const within = await searchPassages(db, user.id, question, PROBE, scope)
        const coverage =
          within.passages.length === 0
            ? 0
            : await bestCoverage((items) => analyseTexts(db, items), within.passages, within.terms)
        const inside = new Set(scope)
        const share: Record<number, number> = {}
        const position: Record<number, number> = {}
        for (const limit of LIBRARY_LIMITS) {
          const ranked = library.passages.slice(0, limit)
          const i = ranked.findIndex((p) => inside.has(p.documentId))
          position[limit] = i < 0 ? Number.POSITIVE_INFINITY : i
          share[limit] = i < 0 || top === 0 ? 0 : (ranked[i]?.rank ?? 0) / top
        }
        const held = new Set<string>()
        for (const p of pages) for (const t of lexemesOfPage.get(p) ?? []) held.add(t)
        const missing =
          words.filter((w) => (chunkDf.get(w) ?? 0) > 0 && !held.has(w)).reduce((s, w) => s + weight(w), 0) /
          totalIdf
        asks.push({
          set,
          layout,
          home: isHome,
          coverage,
          share,
          position,
          missing,
          question,
          knowledgeBest: await bestMatch(db, user.id, question, scope),
          libraryBest,
          ranking: library.passages.map((p) => [inside.has(p.documentId) ? 'in' : p.documentName, p.rank]),
          words: words.map((w) => [w, weight(w), held.has(w)]),
        })
      }
    }
}
await database.close()
if (process.env.JUDGE_DUMP) writeFileSync(process.env.JUDGE_DUMP, JSON.stringify(asks))

const pct = (a: number, b: number) => `${a}/${b} (${b === 0 ? '–' : ((100 * a) / b).toFixed(0)} %)`
const GROUPS: [string, (a: Ask) => boolean][] = [
  ['tuning, directories', (a) => a.set === 'questions' && a.layout === 'directories'],
  ['tuning, round robin', (a) => a.set === 'questions' && a.layout === 'round robin'],
  ['holdouts, directories', (a) => a.set !== 'questions' && a.layout === 'directories'],
  ['holdouts, round robin', (a) => a.set !== 'questions' && a.layout === 'round robin'],
]
function report(label: string, passes: (a: Ask) => boolean) {
  const cells = GROUPS.map(([, group]) => {
    const mine = asks.filter(group)
    const home = mine.filter((a) => a.home)
    const none = mine.filter((a) => !a.home)
    const kept = home.filter((a) => a.coverage >= RELEVANT_COVERAGE && passes(a)).length
    const fell = none.filter((a) => !(a.coverage >= RELEVANT_COVERAGE && passes(a))).length
    return `${pct(kept, home.length)} | ${pct(fell, none.length)}`
  })
  console.log(`| ${label} | ${cells.join(' | ')} |`)
}
/** The knowledge's best over the library's best, passage (BM25) or document score; 0 when nothing matched. */
const ratio = (a: Ask, key: keyof BestMatch) =>
  a.knowledgeBest && a.libraryBest && a.libraryBest[key] > 0 ? a.knowledgeBest[key] / a.libraryBest[key] : 0
const rarestHeld = (a: Ask) =>
  [...a.words].filter((w) => w[1] > 0).sort((x, y) => y[1] - x[1])[0]?.[2] ?? true

console.log(
  `${asks.length} asks; the library's best match (scores only, analysis included): ${librarySearches} in ${(libraryMs / librarySearches).toFixed(1)} ms each; study ${((performance.now() - started) / 1000).toFixed(0)} s`,
)
console.log(
  `| rule (with coverage ≥ 0.25) | ${GROUPS.map(([g]) => `${g}: answer's folder kept | folders without it fell back`).join(' | ')} |`,
)
console.log(`|---|${GROUPS.map(() => '---|---|').join('')}`)
report('coverage alone (today)', () => true)
for (const floor of [0.5, 0.6, 0.7, 0.8])
  report(`library share ≥ ${floor}`, (a) => (a.share[PROBE] ?? 0) >= floor)
for (const within of [3, 10]) report(`library position < ${within}`, (a) => (a.position[PROBE] ?? 0) < within)
for (const most of [0.1, 0.3, 0.5]) report(`missing rarity ≤ ${most}`, (a) => a.missing <= most)
report('the rarest word held', rarestHeld)
for (const floor of [0.5, 0.6, 0.7, 0.8])
  report(`best passage ratio ≥ ${floor}`, (a) => ratio(a, 'passage') >= floor)
for (const floor of [0.5, 0.7, 0.8])
  report(`best document ratio ≥ ${floor}`, (a) => ratio(a, 'document') >= floor)
for (const [p, d] of [
  [0.3, 0.3],
  [0.5, 0.5],
  [0.6, 0.5],
  [0.7, 0.5],
])
  report(
    `passage ratio ≥ ${p} and document ratio ≥ ${d}`,
    (a) => ratio(a, 'passage') >= (p as number) && ratio(a, 'document') >= (d as number),
  )
report(
  'passage ≥ 0.7, document ≥ 0.5, share ≥ 0.6, missing ≤ 0.4 (fitted to the tuning directories)',
  (a) =>
    ratio(a, 'passage') >= 0.7 &&
    ratio(a, 'document') >= 0.5 &&
    (a.share[PROBE] ?? 0) >= 0.6 &&
    a.missing <= 0.4,
)
