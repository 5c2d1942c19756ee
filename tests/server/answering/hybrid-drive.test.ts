/**
 * Hybrid retrieval configured on the app (EMBEDDING_MODEL, the fake OpenAI-compatible endpoint):
 * a Drive ingest ends by embedding the new passages, and the chat's retrieval then uses them.
 */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { App } from '#server/app.ts'
import { createGoogleEmulator, type GoogleEmulator } from '#tests/fakes/google/emulator.ts'
import { ADA } from '#tests/fakes/google/fixtures.ts'
import { type FakeLlm, startFakeLlm } from '#tests/fakes/openai-compatible.ts'
import { connectDrive, driveEnv, ingestOk, newPerson } from '../support/drive-helpers.ts'
import { buildTestApp } from '../support/helper.ts'
import { pgvectorAvailable } from '../support/postgres-test-db.ts'

// On a PostgreSQL server without pgvector these cannot run; keyword-only.test.ts covers that case.
const vectors = await pgvectorAvailable()
const NO_VECTORS_NOTE = vectors ? '' : ' [skipped: this PostgreSQL has no pgvector]'

let app: App
let emulator: GoogleEmulator
let fake: FakeLlm

beforeAll(async () => {
  if (!vectors) return
  emulator = await createGoogleEmulator()
  fake = await startFakeLlm()
  app = await buildTestApp({
    env: { ...driveEnv(emulator), EMBEDDING_MODEL: 'fake-embed', EMBEDDING_BASE_URL: fake.baseUrl },
    googleRetry: { baseDelayMs: 1, maxDelayMs: 4 },
  })
}, 60_000)
afterAll(async () => {
  if (!vectors) return
  await app.close()
  await emulator.close()
  await fake.close()
})

test.skipIf(!vectors)(
  'after a Drive ingest every new passage of the person gets a vector of the configured model' +
    NO_VECTORS_NOTE,
  async () => {
    const ada = await newPerson(app)
    await connectDrive(app, ada, { account: ADA })
    await ingestOk(app, ada)
    // Nothing else asks for embeddings here: the ingest's own call must bring every vector.
    const counts = async () => {
      const { rows } = (await app.db.execute(sql`
      select (select count(*)::int from document_chunks where user_id = ${ada.id}) as chunks,
        (select count(*)::int from chunk_embeddings where user_id = ${ada.id} and model = 'fake-embed') as vectors`)) as unknown as {
        rows: { chunks: number; vectors: number }[]
      }
      return rows
    }
    let rows = await counts()
    for (let i = 0; i < 200 && rows[0]?.vectors !== rows[0]?.chunks; i++) {
      await new Promise((r) => setTimeout(r, 50))
      rows = await counts()
    }
    expect(rows[0]?.chunks).toBeGreaterThan(0)
    expect(rows[0]?.vectors).toBe(rows[0]?.chunks)
    expect(fake.embeddingRequests.length).toBeGreaterThan(0)
  },
  60_000,
)
