/**
 * Stop is honoured at every stage of an answer (D84), not only while the model writes it: a Stop
 * while a follow-up question is being rewritten ends the rewrite's model call at once, no answer
 * is asked for, nothing is stored (as for any Stop before the first word, D20) and the
 * conversation is free for the next question.
 */
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, expect, test, vi } from 'vitest'
import { chatEndpoints } from '#contracts/chat.ts'
import { fillPath } from '#contracts/endpoint.ts'
import { parseEventStream } from '#contracts/event-stream.ts'
import { REWRITE_PROMPT } from '#server/answering/query-rewrite.ts'
import type { App } from '#server/app.ts'
import { type FakeLlm, startFakeLlm } from '#tests/fakes/openai-compatible.ts'
import {
  call,
  countMessages,
  createConversation,
  indexTravelPolicy,
  modelEnv,
  sendOk,
} from '../support/chat-helpers.ts'
import { buildTestApp, register, signIn, uniqueEmail } from '../support/helper.ts'

let llm: FakeLlm
let app: App
let cookie: string
let base: string

const body = (content: string) => ({ content, isUser: true, messageType: 'text' })
const until = (check: () => boolean | Promise<boolean>) =>
  vi.waitUntil(check, { timeout: 3000, interval: 20 })
const isRewrite = (i: number) => llm.requests[i]?.body.messages[0]?.content === REWRITE_PROMPT

beforeAll(async () => {
  llm = await startFakeLlm()
  app = await buildTestApp({ env: modelEnv(llm, { LLM_TIMEOUT_MS: '20000' }) })
  const email = uniqueEmail()
  const userId = (await register(app, email))._id
  cookie = (await signIn(app, email)).cookie
  await indexTravelPolicy(app, userId)
  await app.listen({ port: 0, host: '127.0.0.1' })
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
})
afterAll(async () => {
  await app?.close()
  await llm?.close()
})

/**
 * Opens a streamed call as the browser does (the model hangs), waits until the model is asked to
 * rewrite the follow-up, then presses Stop (the connection closes): the rewrite's call must end,
 * and no other call follow it, whatever the rewrite's own time limit would have allowed.
 */
async function stopWhileRewriting(path: string, payload?: unknown) {
  llm.reply({ kind: 'hang' })
  const asked = llm.requests.length
  const aborted = llm.aborted()
  const controller = new AbortController()
  void fetch(`${base}${path}`, {
    method: 'POST',
    headers: payload === undefined ? { cookie } : { cookie, 'content-type': 'application/json' },
    body: payload === undefined ? undefined : JSON.stringify(payload),
    signal: controller.signal,
  }).catch(() => null)
  await until(() => llm.requests.length === asked + 1)
  expect(isRewrite(asked)).toBe(true)

  controller.abort()

  await until(() => llm.aborted() === aborted + 1)
  await new Promise((resolve) => setTimeout(resolve, 300))
  expect(llm.requests.length).toBe(asked + 1)
}

test('Stop while a follow-up is rewritten ends the rewrite, asks for no answer and stores nothing', async () => {
  const conversation = await createConversation(app, cookie, 'Travel')
  llm.reply({ kind: 'text', text: 'Employees fly economy [1].' })
  await sendOk(app, cookie, conversation._id, 'Which class do employees fly in?')
  await stopWhileRewriting(
    fillPath(chatEndpoints.streamMessage.path, { id: conversation._id }),
    body('And managers?'),
  )

  expect(await countMessages(app, conversation._id)).toBe(2)

  // The conversation is free at once: its claim ended with the stopped answer.
  llm.reply({ kind: 'text', text: 'Managers fly business class.' })
  const next = await call(app, chatEndpoints.streamMessage, {
    cookie,
    params: { id: conversation._id },
    body: body('Which class do managers fly in?'),
  })
  expect(next.statusCode).toBe(200)
  expect(parseEventStream(next.body).at(-1)?.event).toBe('done')
})

test('Stop while a follow-up is rewritten for Regenerate ends it too, and the old answer stays', async () => {
  const conversation = await createConversation(app, cookie, 'Travel again')
  llm.reply({ kind: 'text', text: 'Employees fly economy [1].' })
  await sendOk(app, cookie, conversation._id, 'Which class do employees fly in?')
  const followUp = await sendOk(app, cookie, conversation._id, 'And managers?')
  await stopWhileRewriting(
    fillPath(chatEndpoints.regenerateMessage.path, {
      id: conversation._id,
      messageId: followUp.aiMessage._id,
    }),
  )

  const messages = chatEndpoints.listMessages.response.parse(
    (await call(app, chatEndpoints.listMessages, { cookie, params: { id: conversation._id } })).json(),
  ).data
  expect(messages.at(-1)).toEqual(followUp.aiMessage)
})
