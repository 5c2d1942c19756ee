/**
 * bench/quality.ts's assistant run (issue 36, D114): the corpus's pages split into ten "folders"
 * (by name, round robin), and for each judged question an assistant whose knowledge is the
 * folder holding its answer page, then one whose knowledge is a folder holding no page judged
 * relevant at all. Through the product's own answerer (the same search, whole-document reader and
 * settings the chat hands it), it counts: the answer page among the passages handed to the model
 * (target: every question), passages from outside the knowledge (target: none), and, for the
 * assistant without the answer, how often "Only from its documents" answers with its fallback
 * and makes no model call (target: ≥ 90 %).
 *
 * The model is a recorder: it counts its calls and writes "[1]". What is measured is what reaches
 * the model and whether it is called, never what a model would write.
 */
import { sql } from 'drizzle-orm'
import type { AnswerSettings } from '../server/answering/answer-shapes.ts'
import { createAnswerer } from '../server/answering/answerer.ts'
import type { Analyse } from '../server/answering/extractive.ts'
import type { Llm } from '../server/answering/llm.ts'
import { createSearch, createWholeDocumentReader } from '../server/answering/retrieval.ts'
import { DEFAULT_WHOLE_DOCUMENT_TOKEN_BUDGET } from '../server/config.ts'
import type { Db } from '../server/db/database.ts'
import { queryRows } from '../server/db/query-rows.ts'
import type { Judged } from './quality-corpus.ts'

const ROUND_ROBIN_FOLDERS = 10
const FALLBACK = 'Not in my documents.'

/** How a person's library is split into folders: the corpus's own directories, or round robin by name. */
export type FolderLayout = 'directories' | 'round robin'

export type AssistantQuality = {
  layout: FolderLayout
  folders: number
  questions: number
  inPrompt: number
  outside: number
  /** Asks of an assistant whose folder holds no judged page: of another package's folder, of a sibling. */
  elsewhere: Asks
  sibling: Asks
}

type Asks = { asks: number; fellBack: number; modelCalls: number }

/** The first path segment: the npm package (fastify, undici, pino) or `extra`. */
function packageOf(folder: string): string {
  return folder.split('/')[0] ?? folder
}

/** Each document's folder under `layout`, by its name. */
export function layoutFolders(layout: FolderLayout, names: string[]): Map<string, string> {
  if (layout === 'directories') return new Map(names.map((n) => [n, n.slice(0, n.lastIndexOf('/'))]))
  return new Map(names.map((n, i) => [n, `folder ${i % ROUND_ROBIN_FOLDERS}`]))
}

function recordingModel(): Llm & { calls: number } {
  const model = {
    model: 'recorder',
    maxTokens: 500,
    calls: 0,
    async complete() {
      model.calls += 1
      return { text: 'See [1].', cut: false }
    },
    async *stream() {
      model.calls += 1
      yield 'See [1].'
      return { cut: false }
    },
  }
  return model
}

function settings(knowledge: string[]): AnswerSettings {
  return {
    knowledge,
    instructions: '',
    policy: 'documents-only',
    fallback: FALLBACK,
    temperature: null,
    maxTokens: null,
    model: null,
  }
}

export async function assistantQuality(
  db: Db,
  userId: string,
  questions: Judged[],
  analyse: Analyse,
  layout: FolderLayout,
): Promise<AssistantQuality> {
  const rows = await queryRows<{ id: string; external_id: string }>(
    db,
    sql`select id, external_id from documents where user_id = ${userId} order by external_id`,
  )
  const folderOf = layoutFolders(
    layout,
    rows.map((r) => r.external_id),
  )
  const folders = new Map<string, string[]>()
  for (const r of rows) {
    const f = folderOf.get(r.external_id) as string
    folders.set(f, [...(folders.get(f) ?? []), r.id])
  }
  const llm = recordingModel()
  const answerer = createAnswerer({
    search: createSearch(db),
    readWhole: createWholeDocumentReader(db, DEFAULT_WHOLE_DOCUMENT_TOKEN_BUDGET),
    analyse,
    llm,
  })
  const asks = (): Asks => ({ asks: 0, fellBack: 0, modelCalls: 0 })
  const totals: AssistantQuality = {
    layout,
    folders: folders.size,
    questions: 0,
    inPrompt: 0,
    outside: 0,
    elsewhere: asks(),
    sibling: asks(),
  }
  for (const { question, relevant } of questions) {
    const answerPage = Object.keys(relevant).find((page) => relevant[page] === 2)
    const home = answerPage === undefined ? undefined : folderOf.get(answerPage)
    if (home === undefined) continue
    totals.questions += 1
    const knowledge = folders.get(home) as string[]
    const draft = await answerer.draft({ userId, question, history: [], settings: settings(knowledge) })
    const handed = draft.candidates()
    if (handed.some((p) => p.documentName === answerPage)) totals.inPrompt += 1
    totals.outside += handed.filter((p) => !knowledge.includes(p.documentId)).length

    // Every folder holding no page judged relevant to this question: its answer is in none of them.
    const judged = new Set(Object.keys(relevant).map((page) => folderOf.get(page)))
    for (const [folder, ids] of folders) {
      if (judged.has(folder)) continue
      const tally = packageOf(folder) === packageOf(home) ? totals.sibling : totals.elsewhere
      tally.asks += 1
      const before = llm.calls
      const answer = await answerer.answer({ userId, question, history: [], settings: settings(ids) })
      const called = llm.calls - before
      tally.modelCalls += called
      if (answer.content === FALLBACK && called === 0) tally.fellBack += 1
    }
  }
  return totals
}

export function printAssistantQuality(results: AssistantQuality[]): void {
  const pct = (a: number, b: number) => `${b === 0 ? '–' : ((100 * a) / b).toFixed(0)} %`
  const asked = (a: Asks) => `${a.fellBack}/${a.asks} (${pct(a.fellBack, a.asks)})`
  console.log(
    '\nAssistants ("Only from its documents"; knowledge: the folder of the answer page; targets: answer page handed to the model 100 %, 0 passages outside the knowledge, fallback without a model call ≥ 90 % when the answer is in none of its documents):',
  )
  console.log(
    "| folders | answer page handed to the model | passages outside the knowledge | fallback, asked of another package's folder | fallback, asked of a sibling folder (same package) | all | model calls for those |",
  )
  console.log('|---|---|---|---|---|---|---|')
  for (const t of results) {
    const all = {
      asks: t.elsewhere.asks + t.sibling.asks,
      fellBack: t.elsewhere.fellBack + t.sibling.fellBack,
      modelCalls: t.elsewhere.modelCalls + t.sibling.modelCalls,
    }
    console.log(
      `| ${t.folders}, ${t.layout} | ${t.inPrompt}/${t.questions} (${pct(t.inPrompt, t.questions)}) | ${t.outside} | ${asked(t.elsewhere)} | ${asked(t.sibling)} | ${asked(all)} | ${all.modelCalls} |`,
    )
  }
}
