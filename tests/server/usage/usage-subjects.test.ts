/**
 * This month's usage per API key and per assistant (issue 38, D134): an app answer in a
 * conversation with an assistant counts for that assistant; an API answer counts for its key, and
 * for the assistant it named as its model. GET /usage's figures equal the tokens recorded (what
 * the person's day holds, what the API reported); a revoked key keeps its name and figures.
 */
import { afterAll, beforeAll, expect, test } from 'vitest'
import { apiKeyEndpoints } from '#contracts/api-keys.ts'
import { chatEndpoints } from '#contracts/chat.ts'
import { type UsageReport, usageEndpoints } from '#contracts/usage.ts'
import type { App } from '#server/app.ts'
import { type FakeLlm, startFakeLlm } from '#tests/fakes/openai-compatible.ts'
import { createApiKeyOk } from '../support/api-key-helpers.ts'
import { createAssistantOk } from '../support/assistant-helpers.ts'
import { call, modelEnv, sendOk } from '../support/chat-helpers.ts'
import { buildTestApp } from '../support/helper.ts'
import { addLibraryDocument } from '../support/library-helpers.ts'
import { listen, newPerson, openaiClient } from '../support/openai-helpers.ts'

let llm: FakeLlm
let app: App
let baseURL: string

beforeAll(async () => {
  llm = await startFakeLlm()
  app = await buildTestApp({ env: modelEnv(llm) })
  baseURL = await listen(app)
}, 120_000)
afterAll(async () => {
  await app?.close()
  await llm?.close()
})

async function report(cookie: string): Promise<UsageReport> {
  const response = await call(app, usageEndpoints.usage, { cookie })
  expect(response.statusCode).toBe(200)
  return usageEndpoints.usage.response.parse(response.json()).data
}

test('the month’s figures per key and per assistant equal the tokens their answers recorded', async () => {
  const { userId, cookie } = await newPerson(app)
  const documentId = await addLibraryDocument(app, userId, {
    name: 'Travel policy.txt',
    text: 'Employees travel in economy class on flights under six hours.',
  })
  const desk = await createAssistantOk(app, cookie, {
    name: 'Travel desk',
    knowledge: { documentIds: [documentId], folderIds: [] },
  })
  const created = await call(app, chatEndpoints.createConversation, {
    cookie,
    body: { title: 'With the desk', assistantId: desk._id },
  })
  const conversationId = chatEndpoints.createConversation.response.parse(created.json()).data._id

  // In the app, with the assistant: the fake model reports 1 + 1 tokens.
  llm.reply({ kind: 'text', text: 'Economy class [1].' })
  await sendOk(app, cookie, conversationId, 'Which class do employees fly in?')
  const appTokens = (await report(cookie)).month.sources.app.tokens
  expect(appTokens).toBe(2)

  // Through the API with one key: once the assistant, once the whole library.
  const key = await createApiKeyOk(app, cookie, { name: 'Slack bot', scopes: ['chat'] })
  const client = openaiClient(baseURL, key.key)
  const question = [{ role: 'user' as const, content: 'Which class do employees fly in?' }]
  const viaDesk = await client.chat.completions.create({ model: desk._id, messages: question })
  const viaLibrary = await client.chat.completions.create({ model: 'library', messages: question })
  const deskTokens = viaDesk.usage?.total_tokens ?? 0
  const libraryTokens = viaLibrary.usage?.total_tokens ?? 0
  expect(deskTokens).toBeGreaterThan(0)

  // Revoked, the key keeps its name and what it spent this month.
  await call(app, apiKeyEndpoints.deleteApiKey, { cookie, params: { id: key._id } })
  const { month } = await report(cookie)
  expect(month.sources.api.tokens).toBe(deskTokens + libraryTokens)
  expect(month.keys).toEqual([
    { id: key._id, name: 'Slack bot', prefix: key.prefix, answers: 2, tokens: deskTokens + libraryTokens },
  ])
  expect(month.assistants).toEqual([
    { id: desk._id, name: 'Travel desk', answers: 2, tokens: appTokens + deskTokens },
  ])
}, 60_000)

test('a person with no answers through a key or an assistant this month sees two empty lists', async () => {
  const { cookie } = await newPerson(app)
  const { month } = await report(cookie)
  expect(month.keys).toEqual([])
  expect(month.assistants).toEqual([])
})
