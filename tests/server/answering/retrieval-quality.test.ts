/**
 * A small regression set for ranking quality, inside `npm test`: the pino documentation shipped in
 * node_modules (14 pages) indexed as a user's documents, and the benchmark's judged questions about
 * it (bench/quality/questions.json; the full benchmark is `npm run bench:quality`). Each answer
 * page must rank among the first three pages and reach the prompt.
 */
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { PASSAGES_PER_ANSWER } from '#server/answering/answer-shapes.ts'
import { createRetriever } from '#server/answering/retrieval.ts'
import type { App } from '#server/app.ts'
import { createDocumentsRepository } from '#server/documents/index/documents-repository.ts'
import { indexDocument } from '#server/documents/index/index-document.ts'
import { buildTestApp, register, uniqueEmail } from '../support/helper.ts'

const ROOT = path.resolve(import.meta.dirname, '../../..')
const DOCS = path.join(ROOT, 'node_modules/pino/docs')
const judged = (
  JSON.parse(readFileSync(path.join(ROOT, 'bench/quality/questions.json'), 'utf8')) as {
    question: string
    relevant: Record<string, number>
  }[]
)
  .map((q) => ({
    question: q.question,
    answers: Object.entries(q.relevant)
      .filter(([page, grade]) => grade === 2 && page.startsWith('pino/'))
      .map(([page]) => page),
  }))
  .filter((q) => q.answers.length > 0)

let app: App
let userId: string

beforeAll(async () => {
  app = await buildTestApp()
  userId = (await register(app, uniqueEmail('quality')))._id
  for (const file of readdirSync(DOCS).filter((f) => f.endsWith('.md')))
    await indexDocument(app.db, {
      userId,
      source: 'test',
      externalId: file,
      name: `pino/docs/${file}`,
      mimeType: 'text/markdown',
      sections: [{ page: null, text: readFileSync(path.join(DOCS, file), 'utf8') }],
    })
}, 120_000)
afterAll(async () => {
  await app.close()
})

test('the judged pino questions are at least eight', () => {
  expect(judged.length).toBeGreaterThanOrEqual(8)
})

test.each(judged.map((q) => [q.question, q.answers] as const))('%s', async (question, answers) => {
  const ranked = await createDocumentsRepository(app.db).search(userId, question, 40)
  const pages = [...new Set(ranked.map((p) => p.documentName))]
  expect(pages.slice(0, 3)).toEqual(expect.arrayContaining([answers[0]]))
  const prompt = await createRetriever(app.db)(userId, question, PASSAGES_PER_ANSWER)
  expect(prompt.map((p) => p.documentName)).toContain(answers[0])
})
