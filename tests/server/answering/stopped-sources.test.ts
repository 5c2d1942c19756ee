/**
 * What a stopped answer keeps as its sources (issue 40, item 4): only the passages its text had
 * cited when it was stopped, never every passage it was given; an answer written without a
 * model keeps the passages of the quotations that had arrived.
 */
import type { FastifyBaseLogger } from 'fastify'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createAnswerer } from '#server/answering/answerer.ts'
import type { Analyse } from '#server/answering/extractive.ts'
import { createLlm } from '#server/answering/llm.ts'
import type { App } from '#server/app.ts'
import { runOnce, type StoreAnswer } from '#server/chat/answer-runs.ts'
import type { Passage } from '#server/documents/index/passages.ts'
import { analyseTexts } from '#server/documents/index/question-analysis-repository.ts'
import { type FakeLlm, startFakeLlm } from '#tests/fakes/openai-compatible.ts'
import { buildTestApp } from '../support/helper.ts'

const passage = (chunkId: string, text: string): Passage => ({
  chunkId,
  documentId: `doc-${chunkId}`,
  documentName: `${chunkId}.pdf`,
  page: 1,
  heading: null,
  link: null,
  language: 'english',
  rank: 1,
  text,
})
const passages = [
  passage('p1', 'Employees travel in economy class on flights under six hours.'),
  passage('p2', 'Managers travel in business class on flights over six hours.'),
  passage('p3', 'The daily meal allowance abroad is 45 euros per person.'),
]
const silent = { info() {}, warn() {}, error() {} } as unknown as FastifyBaseLogger

let llm: FakeLlm
let app: App
let analyse: Analyse
beforeAll(async () => {
  llm = await startFakeLlm()
  app = await buildTestApp()
  analyse = (items) => analyseTexts(app.db, items)
})
afterAll(async () => {
  await llm.close()
  await app.close()
})

/** Runs one streamed answer and presses Stop once `until` has arrived; what it stored. */
async function stopAfter(answerer: ReturnType<typeof createAnswerer>, until: (text: string) => boolean) {
  const controller = new AbortController()
  const question = 'How do employees and managers travel, and what is the meal allowance?'
  const draft = await answerer.draft({ userId: 'u1', question, history: [], signal: controller.signal })
  let arrived = ''
  let stored: { text: string; sources: Parameters<StoreAnswer>[1]; stopped: boolean } | null = null
  const run = runOnce({
    release: async () => {},
    log: silent,
    conversationId: 'c1',
    draft,
    store: async (text, sources, stopped) => {
      stored = { text, sources, stopped }
      return null
    },
    record: async () => {},
  })
  const sink = {
    token(text: string) {
      arrived += text
      if (until(arrived)) controller.abort()
    },
    sources() {},
  }
  await run(sink, controller.signal)
  return stored as unknown as { text: string; sources: Parameters<StoreAnswer>[1]; stopped: boolean }
}

test('a model answer stopped before its first marker keeps no sources, one stopped after [2] keeps that one', async () => {
  const model = createLlm({ baseUrl: llm.baseUrl, apiKey: 'k', model: 'm', timeoutMs: 5000 })
  const answerer = createAnswerer({ search: async () => found(passages), llm: model, analyse })

  llm.reply({ kind: 'stall', text: 'Employees fly economy' })
  const early = await stopAfter(answerer, (text) => text === 'Employees fly economy')
  expect(early.stopped).toBe(true)
  expect(early.text).toBe('Employees fly economy')
  expect(early.sources).toEqual([])

  llm.reply({ kind: 'stall', text: 'Managers fly business [2], and' })
  const later = await stopAfter(answerer, (text) => text === 'Managers fly business [2], and')
  expect(later.sources.map((s) => [s.chunkId, s.citation])).toEqual([['p2', 2]])
})

test('an answer without a model stopped after its first quotation keeps only the passage it quoted', async () => {
  const answerer = createAnswerer({ search: async () => found(passages, true), llm: null, analyse })

  const stopped = await stopAfter(answerer, (text) => text.includes('> —'))

  expect(stopped.text).toContain('economy class')
  expect(stopped.text).not.toContain('45 euros')
  expect(stopped.sources.map((s) => s.chunkId)).toEqual(['p1'])
})

/** Retrieval that found `passages`; `terms`: what it searched for (the extractive answer quotes by them). */
function found(list: Passage[], terms = false) {
  const searched = ['employe', 'travel', 'econom', 'meal', 'allow'].map((lexeme) => ({
    language: 'english',
    lexeme,
  }))
  return { passages: list, corrections: [], terms: terms ? searched : [], language: 'english' }
}
