/**
 * A PostgreSQL server without pgvector (Debian's PostgreSQL 15 packages none) and an embedding
 * model configured: the server starts, says once in its log why hybrid retrieval is off, and
 * answers from keyword retrieval. Runs only there (`npm run test:postgres` in CI); wherever
 * pgvector exists, hybrid-retrieval.test.ts runs instead.
 */
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { App } from '#server/app.ts'
import { indexDocument } from '#server/documents/index/index-document.ts'
import { type FakeLlm, startFakeLlm } from '#tests/fakes/openai-compatible.ts'
import { createConversation, sendOk } from '../support/chat-helpers.ts'
import { buildTestApp, register, signIn, uniqueEmail } from '../support/helper.ts'
import { pgvectorAvailable, TEST_DATABASE_URL } from '../support/postgres-test-db.ts'

const runs = TEST_DATABASE_URL !== undefined && !(await pgvectorAvailable())
const NOTE = runs ? '' : ' [skipped: runs only on a PostgreSQL server without pgvector]'

let app: App
let fake: FakeLlm
const lines: string[] = []

beforeAll(async () => {
  if (!runs) return
  fake = await startFakeLlm()
  app = await buildTestApp({
    env: { EMBEDDING_MODEL: 'fake-embed', EMBEDDING_BASE_URL: fake.baseUrl },
    logger: { level: 'warn', stream: { write: (line) => lines.push(line) } },
  })
})
afterAll(async () => {
  if (!runs) return
  await app.close()
  await fake.close()
})

test.skipIf(!runs)(
  `without pgvector the server logs why hybrid retrieval is off and answers from keywords${NOTE}`,
  async () => {
    const email = uniqueEmail('keywords')
    const user = await register(app, email)
    const { cookie } = await signIn(app, email)
    await indexDocument(app.db, {
      userId: user._id,
      source: 'test',
      externalId: 'fleet',
      name: 'fleet.txt',
      mimeType: 'text/plain',
      sections: [{ page: null, text: 'Every automobile in the fleet gets a yearly inspection in March.' }],
    })

    const conversation = await createConversation(app, cookie, 'Fleet')
    const { aiMessage } = await sendOk(app, cookie, conversation._id, 'When is the fleet inspection?')

    expect(aiMessage.sources?.map((s) => s.documentName)).toEqual(['fleet.txt'])
    const warnings = lines.filter((line) => line.includes('Hybrid retrieval is off'))
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatch(/pgvector extension is not available/)
    expect(fake.embeddingRequests).toHaveLength(0)
  },
)
