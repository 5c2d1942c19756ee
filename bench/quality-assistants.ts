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
import { type AnswerSettings, createAnswerer } from '../server/answering/answerer.ts'
import type { Analyse } from '../server/answering/extractive.ts'
import type { Llm } from '../server/answering/llm.ts'
import { createSearch, createWholeDocumentReader } from '../server/answering/retrieval.ts'
import { DEFAULT_WHOLE_DOCUMENT_TOKEN_BUDGET } from '../server/config.ts'
import type { Db } from '../server/db/database.ts'
import { queryRows } from '../server/db/query-rows.ts'
import type { Judged } from './quality-corpus.ts'

const FOLDERS = 10
const FALLBACK = 'Not in my documents.'

export type AssistantQuality = {
  questions: number
  inPrompt: number
  outside: number
  withoutAnswer: number
  fellBack: number
  modelCalls: number
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
): Promise<AssistantQuality> {
  const rows = await queryRows<{ id: string; external_id: string }>(
    db,
    sql`select id, external_id from documents where user_id = ${userId} order by external_id`,
  )
  const folderOf = new Map(rows.map((r, i) => [r.external_id, i % FOLDERS]))
  const folders = Array.from({ length: FOLDERS }, (_, f) =>
    rows.filter((r) => folderOf.get(r.external_id) === f).map((r) => r.id),
  )
  const llm = recordingModel()
  const answerer = createAnswerer({
    search: createSearch(db),
    readWhole: createWholeDocumentReader(db, DEFAULT_WHOLE_DOCUMENT_TOKEN_BUDGET),
    analyse,
    llm,
  })
  const totals: AssistantQuality = {
    questions: 0,
    inPrompt: 0,
    outside: 0,
    withoutAnswer: 0,
    fellBack: 0,
    modelCalls: 0,
  }
  for (const { question, relevant } of questions) {
    const answerPage = Object.keys(relevant).find((page) => relevant[page] === 2)
    const home = answerPage === undefined ? undefined : folderOf.get(answerPage)
    if (home === undefined) continue
    totals.questions += 1
    const knowledge = folders[home] as string[]
    const draft = await answerer.draft({ userId, question, history: [], settings: settings(knowledge) })
    const handed = draft.candidates()
    if (handed.some((p) => p.documentName === answerPage)) totals.inPrompt += 1
    totals.outside += handed.filter((p) => !knowledge.includes(p.documentId)).length

    // A folder holding no page judged relevant to this question, if there is one.
    const judged = new Set(Object.keys(relevant).map((page) => folderOf.get(page)))
    const elsewhere = folders.findIndex((_, f) => !judged.has(f))
    if (elsewhere < 0) continue
    totals.withoutAnswer += 1
    const before = llm.calls
    const answer = await answerer.answer({
      userId,
      question,
      history: [],
      settings: settings(folders[elsewhere] as string[]),
    })
    const called = llm.calls - before
    totals.modelCalls += called
    if (answer.content === FALLBACK && called === 0) totals.fellBack += 1
  }
  return totals
}

export function printAssistantQuality(t: AssistantQuality): void {
  const pct = (a: number, b: number) => `${b === 0 ? '–' : ((100 * a) / b).toFixed(0)} %`
  console.log(
    `\nAssistants (knowledge: one of ${FOLDERS} folders of the corpus; "Only from its documents"; targets: answer page handed to the model 100 %, 0 passages outside the knowledge, fallback without a model call ≥ 90 %):`,
  )
  console.log(
    '| answer page handed to the model | passages outside the knowledge | fallback without a model call, answer in no document of the assistant | model calls for those |',
  )
  console.log('|---|---|---|---|')
  console.log(
    `| ${t.inPrompt}/${t.questions} (${pct(t.inPrompt, t.questions)}) | ${t.outside} | ${t.fellBack}/${t.withoutAnswer} (${pct(t.fellBack, t.withoutAnswer)}) | ${t.modelCalls} |`,
  )
}
