/**
 * Chat and retrieval on a real PostgreSQL server (15 on Debian): the same migration, the same
 * full-text query. Runs only when TEST_DATABASE_URL points at a database it may write to, e.g.
 *   TEST_DATABASE_URL=postgres://docchat:docchat@127.0.0.1:5432/postgres npm run test:postgres
 * (the role needs CREATEDB: every app gets its own fresh database, tests/server/support/postgres-test-db.ts).
 */
import { afterAll, beforeAll, expect, test } from 'vitest'
import { chatEndpoints } from '#contracts/chat.ts'
import { NO_MODEL_NOTE } from '#server/answering/extractive.ts'
import { createRetriever } from '#server/answering/retrieval.ts'
import type { App } from '#server/app.ts'
import { ANSWER_IN_PROGRESS } from '#server/chat/chat-errors.ts'
import { indexDocument } from '#server/documents/index/index-document.ts'
import { startFakeLlm } from '#tests/fakes/openai-compatible.ts'
import {
  call,
  countMessages,
  createConversation,
  errorOf,
  listConversations,
  listMessages,
  send,
  sendOk,
} from '../support/chat-helpers.ts'
import { buildTestApp, register, signIn, uniqueEmail } from '../support/helper.ts'
import { POSTGRES_SKIP_NOTE, TEST_DATABASE_URL } from '../support/postgres-test-db.ts'

const url = TEST_DATABASE_URL
let app: App

beforeAll(async () => {
  if (url) app = await buildTestApp()
})
afterAll(async () => {
  await app?.close()
})

test.skipIf(!url)(`on PostgreSQL: index, ask, list, rate, delete${POSTGRES_SKIP_NOTE}`, async () => {
  const email = uniqueEmail('pg-chat')
  const userId = (await register(app, email))._id
  const { cookie } = await signIn(app, email)
  await indexDocument(app.db, {
    userId,
    source: 'test',
    externalId: 'travel',
    name: 'Travel policy.pdf',
    mimeType: 'application/pdf',
    sections: [{ page: 2, text: 'The daily meal allowance abroad is 45 euros.' }],
  })
  const conversation = await createConversation(app, cookie, 'Travel')
  const { aiMessage } = await sendOk(
    app,
    cookie,
    conversation._id,
    'What is the daily food allowance abroad?',
  )
  expect(aiMessage.content.startsWith(NO_MODEL_NOTE)).toBe(true)
  expect(aiMessage.sources.map((s) => [s.documentName, s.page])).toEqual([['Travel policy.pdf', 2]])
  expect((await listConversations(app, cookie))[0]).toMatchObject({ _id: conversation._id, messageCount: 2 })

  const rated = await call(app, chatEndpoints.setFeedback, {
    cookie,
    params: { id: aiMessage._id },
    body: { feedback: 'like' },
  })
  expect(rated.statusCode).toBe(200)
  expect((await listMessages(app, cookie, conversation._id)).map((m) => m.feedback)).toEqual([null, 'like'])

  const deleted = await call(app, chatEndpoints.deleteConversation, {
    cookie,
    params: { id: conversation._id },
  })
  expect(deleted.statusCode).toBe(200)
  expect(await countMessages(app, conversation._id)).toBe(0)
})

test.skipIf(!url)(
  `on PostgreSQL: retrieval ranks, isolates owners and ignores stopword questions${POSTGRES_SKIP_NOTE}`,
  async () => {
    const alice = (await register(app, uniqueEmail('pg-alice')))._id
    const bob = (await register(app, uniqueEmail('pg-bob')))._id
    const doc = (userId: string, externalId: string, text: string) =>
      indexDocument(app.db, {
        userId,
        source: 'test',
        externalId,
        name: `${externalId}.txt`,
        mimeType: 'text/plain',
        sections: [{ page: null, text }],
      })
    await doc(alice, 'answer', 'The expense reimbursement deadline is thirty days.')
    await doc(alice, 'noise', 'Expense expense expense.')
    const retrieve = createRetriever(app.db)
    expect((await retrieve(alice, 'When is the expense reimbursement deadline?', 6))[0]?.documentName).toBe(
      'answer.txt',
    )
    expect(await retrieve(bob, 'expense reimbursement deadline', 6)).toEqual([])
    expect(await retrieve(alice, 'What is it?', 6)).toEqual([])
    expect(await retrieve(alice, "odd: it's 'quoted' \\ x:* & | !", 6)).toBeInstanceOf(Array)
  },
)

test.skipIf(!url)(
  'on PostgreSQL: two app instances on one database answer one message per conversation at a time',
  async () => {
    const llm = await startFakeLlm()
    const env = { DATABASE_URL: url ?? '', LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'm', LLM_TIMEOUT_MS: '800' }
    const one = await buildTestApp({ env })
    const two = await buildTestApp({ env })
    try {
      const email = uniqueEmail('pg-claim')
      await register(one, email)
      const { cookie } = await signIn(one, email)
      const conversation = await createConversation(one, cookie, 'Two instances')
      llm.reply({ kind: 'hang' })
      const first = send(one, cookie, conversation._id, 'First question')
      while (llm.requests.length === 0) await new Promise((r) => setTimeout(r, 10))

      // The other instance has no memory of the first send: only the database knows.
      const second = await send(two, cookie, conversation._id, 'Second question')
      expect(second.statusCode).toBe(409)
      expect(errorOf(second)).toBe(ANSWER_IN_PROGRESS)
      expect((await first).statusCode).toBe(502)

      llm.reply({ kind: 'text', text: 'Your turn now.' })
      const { aiMessage } = await sendOk(two, cookie, conversation._id, 'Second question')
      expect(aiMessage.content).toBe('Your turn now.')
    } finally {
      await one.close()
      await two.close()
      await llm.close()
    }
  },
)
