/**
 * bench/quality.ts's second part (issue 20, D70/D71): each judged question asked again in a
 * conversation limited to its answer page, and to that page plus the four pages the product ranks
 * highest that are not judged at all (the hardest distractors). Through the product's own pieces
 * (the whole-document reader, then the scoped retriever, as the assistant gathers; the assistant
 * without a model for the extractive answer), it counts: the answer page in the prompt (target:
 * every question), passages from outside the scope (target: none), how many prompts were the
 * documents whole, and how often the extractive answer quotes an answer page, with and without
 * a scope.
 */
import { sql } from 'drizzle-orm'
import { PASSAGES_PER_ANSWER, type Scope } from '../server/answering/answer-shapes.ts'
import { createAnswerer } from '../server/answering/answerer.ts'
import type { Analyse } from '../server/answering/extractive.ts'
import { createRetriever, createSearch, createWholeDocumentReader } from '../server/answering/retrieval.ts'
import { DEFAULT_WHOLE_DOCUMENT_TOKEN_BUDGET } from '../server/config.ts'
import type { Db } from '../server/db/database.ts'
import { queryRows } from '../server/db/query-rows.ts'
import type { createDocumentsRepository } from '../server/documents/index/documents-repository.ts'
import type { Judged } from './quality-corpus.ts'

type Row = { scope: string; inPrompt: number; outside: number; whole: number; extractive: number }

export async function scopedQuality(
  db: Db,
  userId: string,
  questions: Judged[],
  documents: ReturnType<typeof createDocumentsRepository>,
  analyse: Analyse,
): Promise<Row[]> {
  const rows = await queryRows<{ id: string; external_id: string; name: string }>(
    db,
    sql`select id, external_id, name from documents where user_id = ${userId}`,
  )
  // Judged pages are named by the corpus's ids, distractors by the names retrieval shows: both resolve.
  const idOf = new Map(rows.flatMap((r) => [[r.name, r.id] as const, [r.external_id, r.id] as const]))
  const retrieve = createRetriever(db)
  const search = createSearch(db)
  const readWhole = createWholeDocumentReader(db, DEFAULT_WHOLE_DOCUMENT_TOKEN_BUDGET)
  const assistant = createAnswerer({ search, readWhole, llm: null, analyse })
  const kinds = ['none', 'answer page', 'answer page + 4 distractors'] as const
  const totals = new Map(kinds.map((k) => [k, { inPrompt: 0, outside: 0, whole: 0, extractive: 0 }]))

  for (const { question, relevant } of questions) {
    const answerPages = Object.keys(relevant).filter((page) => relevant[page] === 2)
    const answer = answerPages[0] as string
    // A judged page this machine's corpus lacks (a manual its Debian packages no longer ship) is no scope to test.
    if (!idOf.has(answer)) continue
    const ranked = await documents.search(userId, question, 100)
    const distractors = [...new Set(ranked.map((p) => p.documentName))]
      .filter((page) => !(page in relevant))
      .slice(0, 4)
    const scopes: Record<(typeof kinds)[number], string[] | null> = {
      none: null,
      'answer page': [answer],
      'answer page + 4 distractors': [answer, ...distractors],
    }
    for (const kind of kinds) {
      const pages = scopes[kind]
      const scope: Scope = pages ? pages.flatMap((page) => idOf.get(page) ?? []) : null
      // What the assistant puts into the prompt: the documents whole when they fit, else ranked passages.
      const whole = scope ? await readWhole(userId, scope) : null
      const prompt = whole ?? (await retrieve(userId, question, PASSAGES_PER_ANSWER, scope))
      const t = totals.get(kind) as Omit<Row, 'scope'>
      if (prompt.some((p) => answerPages.includes(p.documentName))) t.inPrompt += 1
      if (scope) t.outside += prompt.filter((p) => !scope.includes(p.documentId)).length
      if (whole) t.whole += 1
      const { sources } = await assistant.answer({ userId, question, history: [], scope })
      if (sources.some((s) => answerPages.includes(s.documentName))) t.extractive += 1
    }
  }
  return kinds.map((scope) => ({ scope, ...(totals.get(scope) as Omit<Row, 'scope'>) }))
}

export function printScopedQuality(rows: Row[], n: number): void {
  console.log(
    `\nScoped conversations (whole-document budget ${DEFAULT_WHOLE_DOCUMENT_TOKEN_BUDGET} tokens; targets: answer page in prompt ${n}/${n}, 0 passages outside the scope):`,
  )
  console.log(
    '| scope | answer page in prompt | passages outside the scope | prompts of whole documents | extractive answer quotes an answer page |',
  )
  console.log('|---|---|---|---|---|')
  for (const r of rows)
    console.log(
      `| ${r.scope} | ${r.inPrompt}/${n} | ${r.scope === 'none' ? '–' : r.outside} | ${r.scope === 'none' ? '–' : `${r.whole}/${n}`} | ${r.extractive}/${n} |`,
    )
}
