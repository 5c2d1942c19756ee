/**
 * The scores-only search bench/quality-judge.ts compares an assistant's knowledge with the whole
 * library by: the best passage's and best document's raw scores, within a scope or the library,
 * weighed the same way, and never another person's.
 */
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { App } from '#server/app.ts'
import { bestMatch } from '#server/documents/index/passage-search.ts'
import { indexText } from '../support/document-helpers.ts'
import { buildTestApp, register, uniqueEmail } from '../support/helper.ts'

let app: App

beforeAll(async () => {
  app = await buildTestApp()
})
afterAll(async () => {
  await app.close()
})

const QUESTION = 'What is the meal allowance abroad?'

test("a scope's best match equals the library's when it holds the best passage, and scores lower when it does not", async () => {
  const user = (await register(app, uniqueEmail('best-match')))._id
  const meals = await indexText(
    app.db,
    user,
    'meals',
    'While abroad, the meal allowance is 45 euros per day.',
  )
  const office = await indexText(app.db, user, 'office', 'The allowance for office chairs is paid once.')
  await indexText(app.db, user, 'parking', 'The parking garage closes at midnight.')

  const library = await bestMatch(app.db, user, QUESTION, null)
  const answering = await bestMatch(app.db, user, QUESTION, [meals.documentId])
  const other = await bestMatch(app.db, user, QUESTION, [office.documentId])

  expect(library?.passage).toBeGreaterThan(0)
  expect(answering).toEqual(library)
  expect(other?.passage).toBeLessThan(library?.passage ?? 0)
  expect(other?.document).toBeLessThan(library?.document ?? 0)
})

test("another person's documents are never scored, not even when named in the scope", async () => {
  const alice = (await register(app, uniqueEmail('best-match')))._id
  const bob = (await register(app, uniqueEmail('best-match')))._id
  await indexText(app.db, alice, 'office', 'The allowance for office chairs is paid once.')
  const before = await bestMatch(app.db, alice, QUESTION, null)
  const bobs = await indexText(app.db, bob, 'meals', 'Abroad, the meal allowance: meal allowance abroad.')

  expect(await bestMatch(app.db, alice, QUESTION, null)).toEqual(before)
  expect(await bestMatch(app.db, alice, QUESTION, [bobs.documentId])).toBeNull()
})
