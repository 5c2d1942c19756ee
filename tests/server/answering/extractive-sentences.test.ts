/**
 * Which sentences the answer without a model quotes (issue 40, item 7): each sentence once,
 * however often a file repeats it, so a repeated sentence can no longer crowd out the one that
 * answers.
 */
import { afterAll, beforeAll, expect, test } from 'vitest'
import { type Analyse, extractiveAnswer } from '#server/answering/extractive.ts'
import type { App } from '#server/app.ts'
import type { Passage } from '#server/documents/index/passages.ts'
import { analyseTexts } from '#server/documents/index/question-analysis-repository.ts'
import { buildTestApp } from '../support/helper.ts'

const passage = (chunkId: string, text: string, page: number): Passage => ({
  chunkId,
  documentId: 'doc-1',
  documentName: 'Village notes.pdf',
  page,
  heading: null,
  link: null,
  language: 'english',
  rank: 1,
  text,
})

let app: App
let analyse: Analyse
beforeAll(async () => {
  app = await buildTestApp()
  analyse = (items) => analyseTexts(app.db, items)
})
afterAll(async () => {
  await app.close()
})

async function terms(question: string) {
  const [lexemes = []] = await analyse([{ text: question, language: 'english' }])
  return lexemes.map((lexeme) => ({ language: 'english', lexeme }))
}

const quotations = (content: string) =>
  content.split('\n').filter((l) => l.startsWith('> ') && !l.startsWith('> —'))

test('a sentence a file repeats is quoted once', async () => {
  const notice = 'Bookings for the village hall go through the parish office.'
  const passages = [
    passage('p1', `${notice} The parish office opens on Mondays.`, 1),
    passage('p2', `${notice} Parking is behind the church.`, 2),
    passage('p3', `${notice.toUpperCase()} The bins go out on Thursdays.`, 3),
  ]

  const { content } = await extractiveAnswer(
    passages,
    await terms('How do I book the village hall?'),
    analyse,
  )

  expect(quotations(content).filter((q) => q.toLowerCase() === `> ${notice.toLowerCase()}`)).toHaveLength(1)
})

test('"Who holds the village hall key" quotes the sentence saying who has the hall key, even in a file that repeats its footer', async () => {
  const footer = 'The village hall committee meets on Tuesdays. The village shop keeps a spare key.'
  const passages = [
    passage('p1', `Key register. The church key is kept by the vicar. ${footer}`, 1),
    passage('p2', `The school key is with the caretaker. ${footer}`, 2),
    passage('p3', `The hall key is with the chairwoman, Mrs Ellis, at 4 Mill Lane. ${footer}`, 3),
  ]

  const { content } = await extractiveAnswer(
    passages,
    await terms('Who holds the village hall key?'),
    analyse,
  )

  expect(quotations(content)).toContain('> The hall key is with the chairwoman, Mrs Ellis, at 4 Mill Lane.')
  expect(new Set(quotations(content)).size).toBe(quotations(content).length)
})
