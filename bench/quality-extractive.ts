/**
 * The answer without a model (server/answering/extractive.ts) on the judged questions of
 * bench/quality/ (issue 40, item 7): through the product's own answerer and search, with no
 * model configured, for each question it counts
 * - answers that quote a sentence of the answer page (a page judged 2): the quotation a person
 *   needs is there;
 * - answers whose first quotation is from the answer page;
 * - answers that quote one sentence twice or more (same text, ignoring case, spaces and
 *   punctuation): a wasted quotation;
 * - and the mean number of quotations.
 * Usage: node bench/quality-extractive.ts [--per-question] [questions.json, default quality/questions.json]
 */
import { createAnswerer } from '../server/answering/answerer.ts'
import { createSearch } from '../server/answering/retrieval.ts'
import { analyseTexts } from '../server/documents/index/question-analysis-repository.ts'
import { corpusOf, loadQualityCorpus, loadQuestions } from './quality-corpus.ts'

const PER_QUESTION = process.argv.includes('--per-question')
const file = process.argv.find((a) => a.endsWith('.json')) ?? 'quality/questions.json'
const questions = loadQuestions(file)
const { database, db, user } = await loadQualityCorpus(corpusOf(file))
const answerer = createAnswerer({
  search: createSearch(db),
  llm: null,
  analyse: (items) => analyseTexts(db, items),
})

const normalised = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
let answerPage = 0
let answerPageFirst = 0
let repeated = 0
let quotations = 0
for (const { question, relevant } of questions) {
  const answer = await answerer.answer({ userId: user.id, question, history: [] })
  const quoted = (answer.checks ?? []).map((c) => ({
    sentence: c.sentence,
    page: c.sourceIndex === null ? undefined : answer.sources[c.sourceIndex - 1]?.documentName,
  }))
  const onAnswerPage = quoted.map((q) => (q.page ? relevant[q.page] === 2 : false))
  if (onAnswerPage.some(Boolean)) answerPage += 1
  if (onAnswerPage[0]) answerPageFirst += 1
  if (new Set(quoted.map((q) => normalised(q.sentence))).size < quoted.length) repeated += 1
  quotations += quoted.length
  if (PER_QUESTION)
    console.log(
      `${question}\n${quoted.map((q, i) => `  ${onAnswerPage[i] ? '*' : ' '} ${q.page}: ${q.sentence.slice(0, 110)}`).join('\n')}`,
    )
}
await database.close()

const n = questions.length
const share = (k: number) => `${k}/${n} (${Math.round((k / n) * 100)} %)`
console.log(`${file}: ${n} questions, answered without a model`)
console.log(`quotes a sentence of the answer page: ${share(answerPage)}`)
console.log(`first quotation from the answer page: ${share(answerPageFirst)}`)
console.log(`quotes one sentence twice or more: ${share(repeated)}`)
console.log(`quotations per answer: ${(quotations / n).toFixed(2)}`)
