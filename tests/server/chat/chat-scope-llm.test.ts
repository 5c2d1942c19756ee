/**
 * Retrieval obeys a conversation's scope on every path the model sees (D70): send, the streamed
 * send, regenerate and a follow-up's rewrite, with ranked passages; and whole-document mode (D71),
 * chosen exactly when the chosen documents fit WHOLE_DOCUMENT_TOKEN_BUDGET. Nothing from outside
 * the scope ever reaches a prompt or the sources, although a better match exists outside. With
 * TEST_DATABASE_URL set the same file runs on PostgreSQL.
 */
import { afterAll, beforeAll, expect, test } from 'vitest'
import { chatEndpoints, type StreamEvent } from '#contracts/chat.ts'
import { parseEventStream } from '#contracts/event-stream.ts'
import { PASSAGES_PER_ANSWER } from '#server/answering/answer-shapes.ts'
import { SCOPED_CONTEXT, WHOLE_CONTEXT } from '#server/answering/prompt.ts'
import {
  createRetriever,
  createWholeDocumentReader,
  passageTokens,
  selectPassages,
} from '#server/answering/retrieval.ts'
import type { App } from '#server/app.ts'
import type { Passage } from '#server/documents/index/passages.ts'
import { type FakeLlm, startFakeLlm } from '#tests/fakes/openai-compatible.ts'
import { call, sendOk } from '../support/chat-helpers.ts'
import { newPerson, type Person } from '../support/drive-helpers.ts'
import { buildTestApp } from '../support/helper.ts'
import { addLibraryDocument, createScopedOk } from '../support/library-helpers.ts'

/** In the outside document only: no prompt may ever carry it. */
const OUTSIDE_MARK = 'KESTREL-4417'

let llm: FakeLlm
/** Ranked passages only (WHOLE_DOCUMENT_TOKEN_BUDGET=0), and whole documents (the default budget). */
let ranked: App
let whole: App

type Library = { person: Person; policy: string; outside: string; notes: string }

/**
 * The person's library: the travel policy (two pages, the one chosen), a memo that answers the
 * same questions better (outside the scope), and notes in which nothing matches.
 */
async function library(app: App): Promise<Library> {
  const person = await newPerson(app, 'scope-llm')
  const policy = await addLibraryDocument(app, person.id, {
    name: 'policy.pdf',
    text: [
      'Employees travel in economy class on flights under six hours.',
      'The daily meal allowance abroad is 45 euros per person.',
    ],
  })
  const outside = await addLibraryDocument(app, person.id, {
    name: 'memo.txt',
    text: `Memo ${OUTSIDE_MARK}: the daily meal allowance abroad is now 60 euros. The meal allowance abroad applies to every meal abroad.`,
  })
  const notes = await addLibraryDocument(app, person.id, {
    name: 'notes.txt',
    text: 'Remember to water the plants on Fridays.',
  })
  return { person, policy, outside, notes }
}

const requestsText = (from: number) => JSON.stringify(llm.requests.slice(from).map((r) => r.body))
const systemOf = (at = -1) => llm.requests.at(at)?.body.messages[0]?.content ?? ''

beforeAll(async () => {
  llm = await startFakeLlm()
  const env = { LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'test-model', LLM_TIMEOUT_MS: '5000' }
  ranked = await buildTestApp({ env: { ...env, WHOLE_DOCUMENT_TOKEN_BUDGET: '0' } })
  whole = await buildTestApp({ env })
}, 60_000)
afterAll(async () => {
  await ranked?.close()
  await whole?.close()
  await llm?.close()
})

test('send, stream, regenerate and a rewritten follow-up: ranked passages from the chosen document only', async () => {
  const { person, policy, outside } = await library(ranked)
  const question = 'What is the meal allowance abroad?'
  // Without a scope the memo answers: the better match lies outside what the conversation will search.
  const open = await createScopedOk(ranked, person.cookie, 'Open', [policy, outside])
  llm.reply({ kind: 'text', text: 'It is 60 euros [1].' })
  await sendOk(ranked, person.cookie, open._id, question)
  expect(systemOf()).toMatch(/\[1\] memo\.txt/)

  const conversation = await createScopedOk(ranked, person.cookie, 'Policy', [policy])
  const from = llm.requests.length
  llm.reply({ kind: 'text', text: 'It is 45 euros a day [1].' })
  const sent = await sendOk(ranked, person.cookie, conversation._id, question)
  expect(systemOf()).toContain(SCOPED_CONTEXT)
  expect(systemOf()).toContain(
    '[1] policy.pdf, p. 2\nThe daily meal allowance abroad is 45 euros per person.',
  )
  expect(systemOf()).not.toContain(WHOLE_CONTEXT)
  expect(sent.aiMessage.sources.map((s) => [s.documentId, s.page, s.mode])).toEqual([[policy, 2, 'ranked']])

  const streamed = await call(ranked, chatEndpoints.streamMessage, {
    cookie: person.cookie,
    params: { id: conversation._id },
    body: { content: 'Which class do employees fly in on short flights?', isUser: true, messageType: 'text' },
  })
  const done = parseEventStream(streamed.body).at(-1) as Extract<StreamEvent, { event: 'done' }>
  expect(done.event).toBe('done')
  expect(done.data.aiMessage.sources.every((s) => s.documentId === policy)).toBe(true)

  // A follow-up that points back is rewritten by the model first; the rewrite is searched in scope too.
  llm.reply({ kind: 'text', text: 'meal allowance abroad memo euros' })
  const requestsBefore = llm.requests.length
  const followUp = await sendOk(ranked, person.cookie, conversation._id, 'And what about it in that memo?')
  expect(llm.requests.length - requestsBefore).toBe(2)
  expect(followUp.aiMessage.sources.map((s) => s.documentId)).toEqual([policy])

  llm.reply({ kind: 'text', text: 'Again: 45 euros [1].' })
  const regenerated = await call(ranked, chatEndpoints.regenerateMessage, {
    cookie: person.cookie,
    params: { id: conversation._id, messageId: followUp.aiMessage._id },
  })
  const redone = parseEventStream(regenerated.body).at(-1) as Extract<StreamEvent, { event: 'done' }>
  expect(redone.data.aiMessage.sources.map((s) => s.documentId)).toEqual([policy])

  expect(requestsText(from)).not.toContain(OUTSIDE_MARK)
  expect(requestsText(from)).not.toContain('60 euros')
})

test('documents that fit their budget go into the prompt whole, in reading order; the sources say so', async () => {
  const { person, policy, notes, outside } = await library(whole)
  const conversation = await createScopedOk(whole, person.cookie, 'Read it all', [notes, policy])
  const from = llm.requests.length
  llm.reply({ kind: 'text', text: 'It says to water plants and travel economy [1] [3].' })

  // A question sharing no word with the documents: ranking would find nothing, the whole documents are there.
  const { aiMessage } = await sendOk(whole, person.cookie, conversation._id, 'Summarise these for me')

  const system = systemOf()
  expect(system).toContain(`${SCOPED_CONTEXT} ${WHOLE_CONTEXT}`)
  const order = [
    '[1] notes.txt\nRemember to water the plants on Fridays.',
    '[2] policy.pdf, p. 1\nEmployees travel in economy class on flights under six hours.',
    '[3] policy.pdf, p. 2\nThe daily meal allowance abroad is 45 euros per person.',
  ].map((passage) => system.indexOf(passage))
  expect(order.every((at) => at >= 0)).toBe(true)
  expect([...order].sort((a, b) => a - b)).toEqual(order)
  expect(aiMessage.sources.map((s) => [s.documentId, s.citation, s.mode])).toEqual([
    [notes, 1, 'whole-document'],
    [policy, 3, 'whole-document'],
  ])
  // Read whole, nothing to rank: a follow-up is not rewritten either (one model call per answer).
  const before = llm.requests.length
  await sendOk(whole, person.cookie, conversation._id, 'And what about that?')
  expect(llm.requests.length - before).toBe(1)
  expect(requestsText(from)).not.toContain(OUTSIDE_MARK)
  expect(outside).not.toBe(policy)
})

test('whole-document mode is chosen exactly when the chosen documents fit the budget', async () => {
  const { person, policy, notes } = await library(whole)
  const all = await createWholeDocumentReader(whole.db, 1_000_000)(person.id, [policy, notes])
  const size = (all ?? []).reduce((sum, p) => sum + passageTokens(p), 0)
  expect(all?.map((p) => p.documentName)).toEqual(['policy.pdf', 'policy.pdf', 'notes.txt'])

  expect(await createWholeDocumentReader(whole.db, size)(person.id, [policy, notes])).toHaveLength(3)
  expect(await createWholeDocumentReader(whole.db, size - 1)(person.id, [policy, notes])).toBeNull()
  // Another person's ids read nothing: the owner filter comes first.
  const stranger = await newPerson(whole, 'scope-stranger')
  expect(await createWholeDocumentReader(whole.db, size)(stranger.id, [policy, notes])).toBeNull()
})

test('ranked within a scope: only its documents, each one looked at, a silent one by its opening', async () => {
  const { person, policy, outside, notes } = await library(ranked)
  const retrieve = createRetriever(ranked.db)
  const question = 'What is the meal allowance abroad?'

  expect((await retrieve(person.id, question, PASSAGES_PER_ANSWER))[0]?.documentId).toBe(outside)
  const scoped = await retrieve(person.id, question, PASSAGES_PER_ANSWER, [policy, notes])
  expect(scoped.map((p) => [p.documentName, p.page])).toEqual([
    ['policy.pdf', 2],
    // Nothing in the notes matches: their first passage comes last, so a chosen document is never ignored.
    ['notes.txt', null],
  ])
  expect(await retrieve(person.id, question, PASSAGES_PER_ANSWER, [])).toEqual([])
})

test('with each document first, the best passage of every document goes in before a second of any', () => {
  const passage = (documentId: string, rank: number): Passage => ({
    chunkId: `${documentId}-${rank}`,
    documentId,
    documentName: `${documentId}.txt`,
    page: null,
    heading: null,
    link: null,
    text: 'x',
    language: 'english',
    rank,
  })
  const ranking = [passage('a', 10), passage('a', 9), passage('a', 8), passage('b', 1), passage('c', 0.5)]
  expect(selectPassages(ranking, 3, 2000).map((p) => p.chunkId)).toEqual(['a-10', 'a-9', 'a-8'])
  expect(selectPassages(ranking, 3, 2000, true).map((p) => p.chunkId)).toEqual(['a-10', 'b-1', 'c-0.5'])
})
