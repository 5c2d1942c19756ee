/**
 * A citation check that fails never fails the answer (issue 39, D129): the answer is stored and
 * sent "not checked" (checks null), and the failure is logged once.
 */
import { afterAll, beforeAll, expect, test, vi } from 'vitest'
import type { App } from '#server/app.ts'
import { type FakeLlm, startFakeLlm } from '#tests/fakes/openai-compatible.ts'
import { createConversation, indexTravelPolicy, listMessages, sendOk } from '../support/chat-helpers.ts'
import { buildTestApp, register, signIn, uniqueEmail } from '../support/helper.ts'

vi.mock('#server/answering/citation-checks/check-citations.ts', () => ({
  checkCitations: () => ({ ok: false, error: new Error('the check broke') }),
}))

let llm: FakeLlm
let app: App
let cookie: string
const lines: string[] = []

beforeAll(async () => {
  llm = await startFakeLlm()
  app = await buildTestApp({
    env: { LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'test-model' },
    logger: { level: 'info', stream: { write: (line) => lines.push(line) } },
  })
  const email = uniqueEmail()
  const userId = (await register(app, email))._id
  cookie = (await signIn(app, email)).cookie
  await indexTravelPolicy(app, userId)
}, 60_000)
afterAll(async () => {
  await app?.close()
  await llm?.close()
})

test('the answer is stored and sent not checked (checks null) when the check fails, and the failure is logged', async () => {
  const { _id } = await createConversation(app, cookie)
  llm.reply({ kind: 'text', text: 'It is 45 euros a day [1].' })

  const { aiMessage } = await sendOk(app, cookie, _id, 'What is the meal allowance abroad?')

  expect(aiMessage.content).toBe('It is 45 euros a day [1].')
  expect(aiMessage.checks).toBeNull()
  expect((await listMessages(app, cookie, _id))[1]?.checks).toBeNull()
  const logged = lines.map((l) => JSON.parse(l)).filter((l) => l.event === 'chat.citations.unchecked')
  expect(logged).toMatchObject([{ conversationId: _id, err: { message: 'the check broke' } }])
})
