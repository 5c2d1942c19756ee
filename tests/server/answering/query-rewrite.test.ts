/**
 * Follow-up questions retrieve on their own: with a model configured, the question is rewritten
 * from the conversation (the fake OpenAI-compatible endpoint plays the model) and retrieval
 * searches the rewrite, so the prompt carries the passage the follow-up is about.
 */
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createAnswerer } from '#server/answering/answerer.ts'
import { createLlm } from '#server/answering/llm.ts'
import { REWRITE_PROMPT, searchQuery, standsAlone } from '#server/answering/query-rewrite.ts'
import { createRetriever, createSearch } from '#server/answering/retrieval.ts'
import type { App } from '#server/app.ts'
import { indexDocument } from '#server/documents/index/index-document.ts'
import { analyseTexts } from '#server/documents/index/question-analysis-repository.ts'
import { type FakeLlm, startFakeLlm } from '#tests/fakes/openai-compatible.ts'
import { buildTestApp, register, uniqueEmail } from '../support/helper.ts'

let app: App
let llm: FakeLlm
let userId: string
const model = () => createLlm({ baseUrl: llm.baseUrl, apiKey: 'k', model: 'm', timeoutMs: 5000 })

beforeAll(async () => {
  app = await buildTestApp()
  llm = await startFakeLlm()
  userId = (await register(app, uniqueEmail('rewrite')))._id
  const note = (externalId: string, text: string) =>
    indexDocument(app.db, {
      userId,
      source: 'test',
      externalId,
      name: `${externalId}.md`,
      mimeType: 'text/markdown',
      sections: [{ page: null, text }],
    })
  await note(
    'commit',
    '# Committing\n\nStage files with git add, then record them with git commit -m "message".',
  )
  await note(
    'undo',
    '# Undoing a commit\n\nTo undo the last commit and keep its changes, run git reset --soft HEAD~1.',
  )
  await note('branches', '# Branches\n\nCreate a branch with git switch -c name.')
})
afterAll(async () => {
  await llm.close()
  await app.close()
})

const history = [
  { isUser: true, content: 'How do I make a git commit?' },
  { isUser: false, content: 'Stage the files with git add, then run git commit -m "message" [1].' },
]

test('a follow-up is rewritten from the conversation and retrieves the passage it is about', async () => {
  const retrieve = createRetriever(app.db)
  // On its own the follow-up finds nothing: none of its words is in the documents.
  expect(await retrieve(userId, 'and how would I reverse that?', 10)).toEqual([])

  llm.reply({ kind: 'text', text: 'undo the last git commit' })
  const assistant = createAnswerer({
    search: createSearch(app.db),
    llm: model(),
    analyse: (items) => analyseTexts(app.db, items),
  })
  const answer = await assistant.answer({ userId, question: 'and how would I reverse that?', history })

  const [rewrite, completion] = llm.requests.slice(-2)
  expect(rewrite?.body.messages[0]?.content).toBe(REWRITE_PROMPT)
  expect(rewrite?.body.messages[1]?.content).toContain('Person: How do I make a git commit?')
  expect(rewrite?.body.messages[1]?.content).toContain('Last question: and how would I reverse that?')
  // The prompt's first passage is the one about undoing a commit.
  expect(completion?.body.messages[0]?.content).toContain('[1] undo.md — Undoing a commit')
  expect(answer.sources[0]?.documentName).toBe('undo.md')
})

test('the streamed answer rewrites a follow-up too: its prompt carries the passage the follow-up is about', async () => {
  llm.reply({ kind: 'text', text: 'undo the last git commit' })
  const assistant = createAnswerer({
    search: createSearch(app.db),
    llm: model(),
    analyse: (items) => analyseTexts(app.db, items),
  })
  const stages: string[] = []
  const draft = await assistant.draft(
    { userId, question: 'and how would I reverse that?', history: Promise.resolve(history) },
    (stage) => stages.push(stage),
  )
  llm.reply({ kind: 'text', text: 'Run git reset --soft HEAD~1 [1].' })
  let text = ''
  for await (const token of draft.tokens()) text += token

  const [rewrite, completion] = llm.requests.slice(-2)
  expect(rewrite?.body.messages[0]?.content).toBe(REWRITE_PROMPT)
  expect(completion?.body.messages[0]?.content).toContain('[1] undo.md — Undoing a commit')
  expect(draft.sourcesFor(text)[0]?.documentName).toBe('undo.md')
  expect(stages).toEqual(['rewrite', 'retrieve'])
})

test.each([
  'What is the meal allowance abroad?',
  'Question 3: what is the meal allowance?',
  'How do I undo the last git commit?',
  'Why do employees fly economy class?',
])('%j stands alone: searched as asked', (question) => {
  expect(standsAlone(question)).toBe(true)
})

test.each([
  'and how would I reverse that?',
  'What about managers?',
  'How much is it?',
  'Can you explain the second one?',
  'in 2023?',
  'Why?',
  'Does the same apply to contractors?',
  'What else does the policy say?',
  'Tell me more about them',
])('%j refers back: rewritten from the conversation', (question) => {
  expect(standsAlone(question)).toBe(false)
})

test('a question that stands alone is not rewritten, even in a conversation: no model call before retrieval', async () => {
  const before = llm.requests.length
  expect(await searchQuery(model(), 'How do I undo the last git commit?', history)).toBe(
    'How do I undo the last git commit?',
  )
  expect(llm.requests.length).toBe(before)
})

test('without a model or without earlier turns the question is searched as asked', async () => {
  expect(await searchQuery(null, 'and that?', history)).toBe('and that?')
  const before = llm.requests.length
  expect(await searchQuery(model(), 'How do I branch?', [])).toBe('How do I branch?')
  expect(llm.requests.length).toBe(before)
})

test('when the rewrite fails the question is searched with the previous one, and the send goes on', async () => {
  llm.reply({ kind: 'status', status: 500 })
  expect(await searchQuery(model(), 'and how would I reverse that?', history)).toBe(
    'and how would I reverse that?\nHow do I make a git commit?',
  )
})

test.each([
  ['Wie lösche ich eine Datei mit dem Befehl rm?', 'german'],
  ['Comment afficher les fichiers cachés dans un répertoire ?', 'french'],
])('%j stands alone in its own language: searched as asked', (question, language) => {
  expect(standsAlone(question, language)).toBe(true)
})

test.each([
  ['Und wie mache ich das rückgängig?', 'german'],
  ['Wie kann ich diese Datei wiederherstellen?', 'german'],
  ['Et comment annuler cela ensuite ?', 'french'],
  ['Est-ce que la même option marche ici ?', 'french'],
])('%j refers back in its own language: rewritten', (question, language) => {
  expect(standsAlone(question, language)).toBe(false)
})

test('in a language without a list of follow-up words, a question in a conversation is rewritten (when unsure)', () => {
  expect(standsAlone('Hur tar jag bort en fil från katalogen?', 'swedish')).toBe(false)
})

test('the rewrite is asked in the question’s language', () => {
  expect(REWRITE_PROMPT).toContain('in the language of the last question')
})
