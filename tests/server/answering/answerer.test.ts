import { afterAll, beforeAll, expect, test } from 'vitest'
import { createAnswerer } from '#server/answering/answerer.ts'
import {
  type Analyse,
  extractiveAnswer,
  NO_MODEL_NOTE,
  NOTHING_FOUND_NO_DRIVE_REPLY,
  NOTHING_FOUND_REPLY,
} from '#server/answering/extractive.ts'
import { createLlm, LlmUnavailableError } from '#server/answering/llm.ts'
import { buildPrompt, MAX_HISTORY_TURNS } from '#server/answering/prompt.ts'
import type { App } from '#server/app.ts'
import type { Passage } from '#server/documents/index/passages.ts'
import { analyseTexts } from '#server/documents/index/question-analysis-repository.ts'
import { type FakeLlm, startFakeLlm } from '#tests/fakes/openai-compatible.ts'
import { buildTestApp } from '../support/helper.ts'

function passage(over: Partial<Passage> & Pick<Passage, 'text'>): Passage {
  return {
    chunkId: over.chunkId ?? crypto.randomUUID(),
    documentId: over.documentId ?? 'doc-1',
    documentName: over.documentName ?? 'Handbook.pdf',
    page: over.page ?? null,
    heading: over.heading ?? null,
    link: over.link ?? null,
    language: over.language ?? 'english',
    rank: over.rank ?? 1,
    text: over.text,
  }
}

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

/** What the search looks for in an English library: the question's English lexemes. */
async function searched(question: string) {
  const [lexemes = []] = await analyse([{ text: question, language: 'english' }])
  return lexemes.map((lexeme) => ({ language: 'english', lexeme }))
}

/** Retrieval that found `passages` and corrected nothing. */
const found = (passages: Passage[]) => ({ passages, corrections: [], terms: [], language: 'english' })

test('the extractive answer quotes the sentence that answers the question, with its document and page', async () => {
  const p = passage({
    documentName: 'Travel policy.pdf',
    page: 4,
    text: 'Employees travel in economy class. The daily meal allowance abroad is 45 euros. Receipts are kept for a year.',
  })
  const { content, used } = await extractiveAnswer(
    [p],
    await searched('What is the meal allowance abroad?'),
    analyse,
  )
  expect(content.startsWith(NO_MODEL_NOTE)).toBe(true)
  expect(content).toContain('The daily meal allowance abroad is 45 euros.')
  expect(content).toContain('Travel policy.pdf, p. 4')
  expect(content).not.toContain('economy class')
  expect(used).toEqual([p])
})

test('with no matching passage the extractive answer says so and how to configure a model', async () => {
  expect((await extractiveAnswer([], await searched('anything at all?'), analyse)).content).toBe(
    NOTHING_FOUND_REPLY,
  )
  expect(NOTHING_FOUND_REPLY).toContain('LLM_BASE_URL')
  const unrelated = passage({ text: 'Bananas are yellow.' })
  expect((await extractiveAnswer([unrelated], await searched('quarterly revenue'), analyse)).used).toEqual([])
})

test('on a server without Google Drive the reply of nothing says to upload, never to connect Drive', async () => {
  const { content } = await extractiveAnswer([], await searched('anything at all?'), analyse, {
    drive: false,
  })
  expect(content).toBe(NOTHING_FOUND_NO_DRIVE_REPLY)
  expect(content).toContain('upload them under Documents')
  expect(content).not.toContain('Google Drive')
})

test('the prompt numbers the passages with their documents and carries the recent turns', () => {
  const passages = [
    passage({ text: 'Alpha fact.', documentName: 'A.txt' }),
    passage({ text: 'Beta fact.', page: 2 }),
  ]
  const history = Array.from({ length: MAX_HISTORY_TURNS + 4 }, (_, i) => ({
    isUser: i % 2 === 0,
    content: `turn ${i}`,
  }))
  const messages = buildPrompt('Which fact?', passages, history)
  expect(messages[0]?.role).toBe('system')
  expect(messages[0]?.content).toContain('[1] A.txt\nAlpha fact.')
  expect(messages[0]?.content).toContain('[2] Handbook.pdf, p. 2\nBeta fact.')
  expect(messages).toHaveLength(1 + MAX_HISTORY_TURNS + 1)
  expect(messages[1]?.content).toBe('turn 4')
  expect(messages.at(-1)).toEqual({ role: 'user', content: 'Which fact?' })
})

test('with a model configured the assistant sends passages and history and returns its reply with cited sources', async () => {
  llm.reply({ kind: 'text', text: 'The allowance is 45 euros [2].' })
  const passages = [
    passage({ text: 'Unrelated.' }),
    passage({ text: 'The daily meal allowance is 45 euros.' }),
  ]
  const assistant = createAnswerer({
    search: async () => found(passages),
    llm: createLlm({ baseUrl: llm.baseUrl, apiKey: 'sk-test', model: 'test-model', timeoutMs: 5000 }),
    analyse,
  })
  const answer = await assistant.answer({
    userId: 'u1',
    question: 'How much is the meal allowance?',
    history: [
      { isUser: true, content: 'Hi' },
      { isUser: false, content: 'Hello! How can I help?' },
    ],
  })
  expect(answer.content).toBe('The allowance is 45 euros [2].')
  expect(answer.sources).toEqual([{ ...passages[1], citation: 2 }])
  const sent = llm.requests.at(-1)
  expect(sent?.authorization).toBe('Bearer sk-test')
  expect(sent?.body.model).toBe('test-model')
  expect(sent?.body.messages[0]?.content).toContain('The daily meal allowance is 45 euros.')
  expect(sent?.body.messages.slice(1).map((m) => m.content)).toEqual([
    'Hi',
    'Hello! How can I help?',
    'How much is the meal allowance?',
  ])
})

test('a provider error or a timeout becomes LlmUnavailableError with a clear message', async () => {
  const model = createLlm({ baseUrl: llm.baseUrl, apiKey: 'k', model: 'm', timeoutMs: 300 })
  llm.reply({ kind: 'status', status: 500 })
  await expect(model.complete([{ role: 'user', content: 'x' }])).rejects.toThrow(LlmUnavailableError)
  llm.reply({ kind: 'hang' })
  await expect(model.complete([{ role: 'user', content: 'x' }])).rejects.toThrow('did not answer in time')
  llm.reply({ kind: 'text', text: 'ok' })
})
