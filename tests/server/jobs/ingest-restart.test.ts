/**
 * kill -9 in the middle of an ingest: the queued files are read by the next process that opens
 * the database, once the dead worker's leases run out; every document is whole (its chunks are
 * all there or it is not there at all) and nothing is read twice after the restart.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { count, eq } from 'drizzle-orm'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { documentEndpoints } from '#contracts/documents.ts'
import { driveEndpoints } from '#contracts/drive.ts'
import type { App } from '#server/app.ts'
import { documentChunks, documents, jobs } from '#server/db/schema.ts'
import { createGoogleEmulator, type GoogleEmulator } from '#tests/fakes/google/emulator.ts'
import { ADA } from '#tests/fakes/google/fixtures.ts'
import { connectDrive, driveEnv, newPerson } from '../support/drive-helpers.ts'
import { buildTestApp, TEST_APP_SECRET } from '../support/helper.ts'

let emulator: GoogleEmulator
let dataDir: string
let child: ChildProcess | undefined

beforeAll(async () => {
  emulator = await createGoogleEmulator()
  dataDir = await mkdtemp(join(tmpdir(), 'docchat-restart-'))
})
afterAll(async () => {
  child?.kill('SIGKILL')
  await emulator.close()
  await rm(dataDir, { recursive: true, force: true })
})

// OCR off, as every server test unless it is about OCR: the whiteboard photo is queued, then
// skipped by its job without a download.
const env = () => ({
  ...driveEnv(emulator),
  DATA_DIR: dataDir,
  APP_SECRET: TEST_APP_SECRET,
  NODE_ENV: 'test',
  OCR: 'off',
})
/** The app on the data directory (PGlite on disk, as `npm start` runs it). */
const onDisk = (options: Parameters<typeof buildTestApp>[0] = {}) =>
  buildTestApp({
    env: { ...env(), DATABASE_URL: '' },
    googleRetry: { baseDelayMs: 1, maxDelayMs: 4 },
    ...options,
  })

async function startWorkerProcess(): Promise<ChildProcess> {
  const worker = spawn(process.execPath, ['tests/server/support/fixtures/job-worker-process.ts'], {
    env: { ...process.env, ...env(), DATABASE_URL: '', LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  await new Promise<void>((resolve, reject) => {
    worker.once('exit', (code) => reject(new Error(`the worker process exited (${code})`)))
    worker.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('ready')) resolve()
    })
  })
  return worker
}

test('kill -9 mid-ingest: the next process finishes the queued files, and no document is half there', async () => {
  // 1. A person connects Drive and starts an ingest that answers at once (the files stay queued).
  let app: App = await onDisk({ ingestWaitMs: 0, jobs: { concurrency: 0 } })
  const ada = await newPerson(app)
  await connectDrive(app, ada, { account: ADA })
  const ingest = await app.inject({
    method: 'POST',
    url: driveEndpoints.ingestDocuments.path,
    headers: { cookie: ada.cookie },
    payload: { email: ada.email },
  })
  expect(ingest.statusCode).toBe(200)
  expect(driveEndpoints.ingestDocuments.response.parse(ingest.json()).data.message).toMatch(
    /28 more documents still being read in the background/,
  )
  await app.close()

  // 2. Another process reads them slowly and is killed with SIGKILL part-way.
  emulator.state.setLatency(150)
  emulator.state.clearRequests()
  child = await startWorkerProcess()
  const downloads = () =>
    emulator.state.requestCount('files.media') + emulator.state.requestCount('files.export')
  while (downloads() < 6) await sleep(20)
  child.kill('SIGKILL')
  await new Promise((resolve) => child?.once('exit', resolve))
  const readBeforeKill = downloads()
  expect(readBeforeKill).toBeLessThan(27)
  // Its data-directory lock would go stale after 15 s; a restarted server finds it so.
  await rm(join(dataDir, 'server.lock'), { recursive: true, force: true })

  // 3. The restarted app claims the dead worker's jobs once their 1 s lease is over, and finishes.
  emulator.state.setLatency(0)
  emulator.state.clearRequests()
  app = await onDisk({ jobs: { leaseMs: 1000, pollMs: 50 } })
  try {
    await app.ready()
    await expect
      .poll(
        async () => {
          const list = await app.inject({
            method: 'GET',
            url: documentEndpoints.listDocuments.path,
            headers: { cookie: ada.cookie },
          })
          return documentEndpoints.listDocuments.response.parse(list.json()).data.progress
        },
        // 29 files read after a restart: seconds alone, more on a busy machine with PostgreSQL.
        { timeout: 60_000, interval: 100 },
      )
      .toEqual({ running: false, done: 29, total: 29 })

    const list = await app.inject({
      method: 'GET',
      url: documentEndpoints.listDocuments.path,
      headers: { cookie: ada.cookie },
    })
    const library = documentEndpoints.listDocuments.response.parse(list.json()).data.documents
    expect(library.filter((d) => d.status === 'ready')).toHaveLength(25)
    expect(
      library
        .filter((d) => d.status === 'failed')
        .map((d) => d.name)
        .sort(),
    ).toEqual(['broken-scan.pdf', 'locked-contract.pdf'])
    // Whole documents only: each ready file's chunks are all there, and nothing else is stored.
    for (const doc of library.filter((d) => d.status === 'ready')) {
      const [stored] = await app.db
        .select({ n: count() })
        .from(documentChunks)
        .innerJoin(documents, eq(documents.id, documentChunks.documentId))
        .where(eq(documents.name, doc.name))
      expect({ name: doc.name, chunks: stored?.n }).toEqual({ name: doc.name, chunks: doc.chunks })
    }
    const [stored] = await app.db.select({ n: count() }).from(documents).where(eq(documents.userId, ada.id))
    expect(stored?.n).toBe(25)
    expect((await app.db.select().from(jobs)).length).toBe(0)
    // The restart read what was left (and what the killed worker had under way), not all 27
    // downloads again (28 queued; the photo is skipped without one).
    expect(
      emulator.state.requestCount('files.media') + emulator.state.requestCount('files.export'),
    ).toBeLessThan(27)
  } finally {
    await app.close()
  }
}, 90_000)
