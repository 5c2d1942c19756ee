/**
 * Hybrid retrieval end to end with the fake OpenAI-compatible /embeddings endpoint (deterministic
 * vectors that fold a few synonyms, as a real model would place them close): ingest → vectors in
 * pgvector (embedded PGlite) → keyword and vector rankings fused → the prompt. Owner isolation on
 * the vector and fused paths; embedding is retried, resumable, and redone after a model change.
 */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createAnswerer } from '#server/answering/answerer.ts'
import { createEmbedder } from '#server/answering/embedder.ts'
import { createLlm } from '#server/answering/llm.ts'
import { createRetriever, createSearch } from '#server/answering/retrieval.ts'
import type { App } from '#server/app.ts'
import { loadConfig } from '#server/config.ts'
import { createEmbeddingService, embedMissingChunks } from '#server/documents/index/embedding-service.ts'
import { analyseTexts } from '#server/documents/index/question-analysis-repository.ts'
import {
  ensureVectorStore,
  forgetOtherModels,
  vectorSearch,
} from '#server/documents/index/vectors-repository.ts'
import { type FakeLlm, fakeEmbedding, startFakeLlm } from '#tests/fakes/openai-compatible.ts'
import { indexText } from '../support/document-helpers.ts'
import { buildTestApp, register, uniqueEmail } from '../support/helper.ts'
import { pgvectorAvailable } from '../support/postgres-test-db.ts'

// On a PostgreSQL server without pgvector these cannot run; keyword-only.test.ts covers that case.
const vectors = await pgvectorAvailable()
const NO_VECTORS_NOTE = vectors ? '' : ' [skipped: this PostgreSQL has no pgvector]'

let app: App
let fake: FakeLlm
let alice: string
let bob: string
const embedder = (model = 'fake-embed') =>
  createEmbedder({ baseUrl: fake.baseUrl, apiKey: 'k', model, timeoutMs: 5000 })
const quiet = { warn: () => {}, info: () => {} }

const note = (userId: string, externalId: string, text: string) => indexText(app.db, userId, externalId, text)

const vectorCount = async (model: string, userId?: string) => {
  const { rows } = (await app.db.execute(sql`
    select count(*)::int as n from chunk_embeddings
    where model = ${model} and (${userId ?? null}::uuid is null or user_id = ${userId ?? null}::uuid)`)) as unknown as {
    rows: { n: number }[]
  }
  return rows[0]?.n ?? 0
}

beforeAll(async () => {
  if (!vectors) return
  app = await buildTestApp()
  fake = await startFakeLlm()
  alice = (await register(app, uniqueEmail('hybrid-a')))._id
  bob = (await register(app, uniqueEmail('hybrid-b')))._id
  expect(await ensureVectorStore(app.db)).toBe(true)
  await note(alice, 'fleet', 'Every automobile in the fleet gets a yearly inspection in March.')
  await note(alice, 'canteen', 'The canteen serves lunch from noon until two.')
  await note(alice, 'parking', 'Parking permits are renewed each January at the front desk.')
  await note(bob, 'bob-fleet', 'Bob keeps his vehicle logbook in the glovebox.')
}, 60_000)
afterAll(async () => {
  if (!vectors) return
  await fake.close()
  await app.close()
})

test.skipIf(!vectors)(
  'ingested passages get vectors, and a question with no shared word finds its passage through them' +
    NO_VECTORS_NOTE,
  async () => {
    expect(await embedMissingChunks(app.db, embedder(), alice)).toBe(3)
    expect(await vectorCount('fake-embed', alice)).toBe(3)
    expect(await embedMissingChunks(app.db, embedder(), alice)).toBe(0)

    const question = 'When is my car checked?'
    // Keyword search alone: none of the question's words is in the fleet passage.
    const keyword = createRetriever(app.db)
    expect((await keyword(alice, question, 10)).map((p) => p.documentName)).not.toContain('fleet.txt')

    const embeddings = createEmbeddingService(app.db, embedder(), quiet)
    const hybrid = createRetriever(app.db, { tokenBudget: 2000, embeddings })
    const passages = await hybrid(alice, question, 10)
    expect(passages[0]?.documentName).toBe('fleet.txt')

    fake.reply({ kind: 'text', text: 'In March [1].' })
    const assistant = createAnswerer({
      search: createSearch(app.db, { tokenBudget: 2000, embeddings }),
      llm: createLlm({ baseUrl: fake.baseUrl, apiKey: 'k', model: 'm', timeoutMs: 5000 }),
      analyse: (items) => analyseTexts(app.db, items),
    })
    const answer = await assistant.answer({ userId: alice, question, history: [] })
    expect(fake.requests.at(-1)?.body.messages[0]?.content).toContain(
      '[1] fleet.txt\nEvery automobile in the fleet gets a yearly inspection in March.',
    )
    expect(answer.sources.map((s) => s.documentName)).toEqual(['fleet.txt'])
  },
)

test.skipIf(!vectors)(
  `vector and fused retrieval never return another user's passages${NO_VECTORS_NOTE}`,
  async () => {
    await embedMissingChunks(app.db, embedder())
    const query = fakeEmbedding('automobile fleet inspection vehicle logbook')
    const mine = await vectorSearch(app.db, bob, 'fake-embed', query, 50)
    expect(mine.map((p) => p.documentName)).toEqual(['bob-fleet.txt'])
    const hybrid = createRetriever(app.db, {
      tokenBudget: 2000,
      embeddings: createEmbeddingService(app.db, embedder(), quiet),
    })
    const fused = await hybrid(bob, 'automobile fleet inspection in March', 10)
    expect(fused.map((p) => p.documentName)).toEqual(['bob-fleet.txt'])
    expect((await hybrid(alice, 'vehicle logbook glovebox', 10)).map((p) => p.documentName)).not.toContain(
      'bob-fleet.txt',
    )
  },
)

test.skipIf(!vectors)(
  `a conversation's scope holds on the vector path: the nearest passage outside it never comes back${NO_VECTORS_NOTE}`,
  async () => {
    // Another person of her own, so the counts the other tests check stay as they are.
    const carol = (await register(app, uniqueEmail('hybrid-c')))._id
    await note(carol, 'carol-fleet', 'Every automobile in the fleet gets a yearly inspection in March.')
    const { documentId: parking } = await note(
      carol,
      'carol-parking',
      'Parking permits cost ten euros a month.',
    )
    await embedMissingChunks(app.db, embedder(), carol)
    const question = 'When is my car checked?'
    const nearest = await vectorSearch(app.db, carol, 'fake-embed', fakeEmbedding(question), 10, [parking])
    expect(nearest.map((p) => p.documentName)).toEqual(['carol-parking.txt'])
    const hybrid = createRetriever(app.db, {
      tokenBudget: 2000,
      embeddings: createEmbeddingService(app.db, embedder(), quiet),
    })
    // Unscoped, the fleet passage is found through its vector; scoped, only the chosen document is.
    expect((await hybrid(carol, question, 10))[0]?.documentName).toBe('carol-fleet.txt')
    expect((await hybrid(carol, question, 10, [parking])).map((p) => p.documentName)).toEqual([
      'carol-parking.txt',
    ])
  },
)

test.skipIf(!vectors)(
  `embedding retries a busy endpoint, and a run that fails resumes where it stopped${NO_VECTORS_NOTE}`,
  async () => {
    await note(alice, 'doctor', 'The company physician visits on Tuesdays.')
    fake.failEmbeddings(2)
    expect(await embedMissingChunks(app.db, embedder(), alice)).toBe(1)

    await note(alice, 'pay', 'Salary is paid on the last working day of the month.')
    fake.failEmbeddings(100)
    await expect(embedMissingChunks(app.db, embedder(), alice)).rejects.toThrow()
    fake.failEmbeddings(0)
    expect(await embedMissingChunks(app.db, embedder(), alice)).toBe(1)
    expect(await vectorCount('fake-embed', alice)).toBe(5)
  },
)

test.skipIf(!vectors)(
  `a re-indexed document loses its old vectors; a new model re-embeds every passage${NO_VECTORS_NOTE}`,
  async () => {
    await note(alice, 'canteen', 'The canteen now serves lunch from eleven.')
    expect(await vectorCount('fake-embed', alice)).toBe(4)
    expect(await embedMissingChunks(app.db, embedder(), alice)).toBe(1)

    await forgetOtherModels(app.db, 'fake-embed-2')
    expect(await vectorCount('fake-embed')).toBe(0)
    const service = createEmbeddingService(app.db, embedder('fake-embed-2'), quiet)
    await service.schedule()
    expect(await vectorCount('fake-embed-2', alice)).toBe(5)
    expect(await vectorCount('fake-embed-2', bob)).toBe(1)
  },
)

test('EMBEDDING_MODEL turns hybrid retrieval on, with the LLM endpoint and key by default', () => {
  const base = { DATABASE_URL: 'memory:', APP_SECRET: 'x'.repeat(40) }
  expect(loadConfig(base).embedding).toBeNull()
  expect(
    loadConfig({
      ...base,
      LLM_BASE_URL: 'http://127.0.0.1:9/v1',
      LLM_MODEL: 'm',
      LLM_API_KEY: 'sk',
      EMBEDDING_MODEL: 'e',
    }).embedding,
  ).toEqual({ baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'sk', model: 'e', timeoutMs: 60_000 })
  expect(() => loadConfig({ ...base, EMBEDDING_MODEL: 'e' })).toThrow(/EMBEDDING_BASE_URL/)
})
