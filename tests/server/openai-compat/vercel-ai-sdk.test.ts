/**
 * The OpenAI-compatible endpoint used by the Vercel AI SDK, unchanged: `createOpenAICompatible`
 * pointed at the running server, `generateText` and `streamText` against an assistant, the fake
 * OpenAI-compatible model answering upstream; and the extractive answer, with no model
 * configured, in the same shapes for the official SDK.
 */
import { createOpenAICompatible } from '@ai-sdk/openai-compatible'
import { generateText, streamText } from 'ai'
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { App } from '#server/app.ts'
import { type FakeLlm, startFakeLlm } from '#tests/fakes/openai-compatible.ts'
import { createAssistantOk } from '../support/assistant-helpers.ts'
import { modelEnv } from '../support/chat-helpers.ts'
import { buildTestApp } from '../support/helper.ts'
import { addLibraryDocument } from '../support/library-helpers.ts'
import { listen, newKey, newPerson, openaiClient } from '../support/openai-helpers.ts'

let llm: FakeLlm
let withModel: App
let extractive: App

/** A person with the travel policy and an assistant over it, on `app`. */
async function person(app: App) {
  const { userId, cookie } = await newPerson(app)
  const travelId = await addLibraryDocument(app, userId, {
    name: 'Travel policy.pdf',
    text: [
      'Employees travel in economy class on flights under six hours.',
      'The daily meal allowance abroad is 45 euros per person.',
    ],
  })
  const assistant = await createAssistantOk(app, cookie, {
    name: 'Travel desk',
    knowledge: { documentIds: [travelId], folderIds: [] },
  })
  return { key: await newKey(app, cookie), assistantId: assistant._id }
}

beforeAll(async () => {
  llm = await startFakeLlm()
  withModel = await buildTestApp({ env: modelEnv(llm) })
  extractive = await buildTestApp()
}, 120_000)
afterAll(async () => {
  await withModel?.close()
  await extractive?.close()
  await llm?.close()
})

test('generateText and streamText answer through createOpenAICompatible', async () => {
  const { key, assistantId } = await person(withModel)
  const docchat = createOpenAICompatible({
    name: 'docchat',
    baseURL: await listen(withModel),
    apiKey: key,
    includeUsage: true,
  })

  llm.reply({ kind: 'text', text: 'It is 45 euros a day [1].' })
  const generated = await generateText({
    model: docchat(assistantId),
    prompt: 'What is the meal allowance abroad?',
  })
  // The assistant gives the model the meal allowance as [2]: the check moves the marker there (D129).
  expect(generated.text).toBe('It is 45 euros a day [2].')
  expect(generated.finishReason).toBe('stop')
  expect(generated.usage.outputTokens).toBeGreaterThan(0)

  llm.reply({ kind: 'text', text: 'Economy class on short flights [1].' })
  const streamed = streamText({
    model: docchat(assistantId),
    system: 'Answer briefly.',
    prompt: 'Which class do employees fly in?',
  })
  let text = ''
  for await (const piece of streamed.textStream) text += piece
  expect(text).toBe('Economy class on short flights [1].')
  expect(await streamed.finishReason).toBe('stop')
  expect((await streamed.usage).totalTokens).toBeGreaterThan(0)
  expect(llm.requests.at(-1)?.body.messages[0]?.content).toContain('Answer briefly.')
})

test('without a model, the extractive answer comes in the same shapes, whole and streamed, with its citations', async () => {
  const { key } = await person(extractive)
  const client = openaiClient(await listen(extractive), key)
  const messages = [{ role: 'user' as const, content: 'What is the daily meal allowance abroad?' }]

  const completion = await client.chat.completions.create({ model: 'library', messages })
  const content = completion.choices[0]?.message.content ?? ''
  expect(content).toContain('45 euros')
  expect(completion.usage).toEqual({ prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 })
  const { citations } = completion as unknown as { citations: { documentName: string; page: number }[] }
  expect(citations).toContainEqual(expect.objectContaining({ documentName: 'Travel policy.pdf', page: 2 }))

  const stream = await client.chat.completions.create({ model: 'library', messages, stream: true })
  const chunks = []
  for await (const chunk of stream) chunks.push(chunk)
  expect(
    chunks
      .map((c) => c.choices[0]?.delta?.content ?? '')
      .join('')
      .trim(),
  ).toBe(content)
  const last = chunks.at(-1) as (typeof chunks)[number] & { citations?: unknown[] }
  expect(last.citations).toEqual(citations)
  expect(last.usage).toBeUndefined()
})
