/**
 * The document writer (server/documents/index/document-writer.ts, D91): a document larger than one
 * transaction is written in parts, between which everybody else's statements run, and its BM25
 * statistics come out exactly as if it had been written whole; replacing and removing a large one
 * keeps them exact too; people's documents are written in turns; a document whose library row
 * went while it waited is not written. Passages in several languages (D82) keep each language's
 * statistics exact in parts too, and the language pass re-indexes a document in parts with the
 * statistics of a whole write. On embedded PGlite (one connection: the case that matters).
 */
import { randomUUID } from 'node:crypto'
import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { type Database, openDatabase } from '#server/db/database.ts'
import { queryRows } from '#server/db/query-rows.ts'
import { documents, libraryDocuments, users } from '#server/db/schema.ts'
import { createDocumentWriter } from '#server/documents/index/document-writer.ts'
import type { IndexedChunk } from '#server/documents/index/passage-writes-repository.ts'
import { removeDocument } from '#server/documents/index/passage-writes-repository.ts'
import { languageStatistics as perLanguage } from '../support/document-helpers.ts'
import { testConfig } from '../support/helper.ts'

let database: Database

beforeAll(async () => {
  database = await openDatabase(testConfig())
})
afterAll(async () => {
  await database.close()
})

async function newUser(): Promise<string> {
  const [user] = await database.db
    .insert(users)
    .values({ email: `writer-${randomUUID()}@example.com`, passwordHash: 'x' })
    .returning({ id: users.id })
  if (!user) throw new Error('no user')
  return user.id
}

const WORDS = ['harbour', 'lantern', 'quarry', 'meadow', 'copper', 'violet', 'granite', 'orchard', 'saffron']

/**
 * `count` passages; words repeat across passages, so one lexeme sits in many parts. `language`
 * says each one's (English unless told).
 */
function passages(
  count: number,
  salt = 0,
  language: (ordinal: number) => string = () => 'english',
): IndexedChunk[] {
  return Array.from({ length: count }, (_, ordinal) => ({
    ordinal,
    page: null,
    heading: null,
    text: `${WORDS[(ordinal + salt) % WORDS.length]} ${WORDS[(ordinal * 7 + salt) % WORDS.length]} passage ${ordinal} of ${salt}`,
    language: language(ordinal),
  }))
}

/** Every third passage German, the others English: a lexeme of both languages in one document. */
const mixed = (ordinal: number) => (ordinal % 3 === 0 ? 'german' : 'english')

function document(userId: string, externalId: string) {
  return {
    userId,
    source: 'test',
    externalId,
    name: `${externalId}.txt`,
    mimeType: 'text/plain',
    link: null,
    version: null,
    modifiedTime: null,
  }
}

/** The person's term statistics and totals, as BM25 reads them. */
async function statistics(userId: string) {
  const terms = await queryRows<{ lexeme: string; chunk_count: number; document_count: number }>(
    database.db,
    sql`select lexeme, chunk_count, document_count from retrieval_terms where user_id = ${userId} order by lexeme`,
  )
  const [totals] = await queryRows<{ chunk_count: number; document_count: number; token_count: number }>(
    database.db,
    sql`select chunk_count, document_count, token_count::int as token_count from retrieval_totals where user_id = ${userId}`,
  )
  const [left] = await queryRows<{ n: number }>(
    database.db,
    sql`select count(*)::int as n from indexing_lexemes i join documents d on d.id = i.document_id where d.user_id = ${userId}`,
  )
  return { terms, totals, partsRemembered: left?.n }
}

test('a document larger than a transaction is written in parts, with the statistics of a whole write', async () => {
  const [whole, parted] = [await newUser(), await newUser()]
  const big = createDocumentWriter({ db: database.db, batchPassages: 10_000 })
  const small = createDocumentWriter({ db: database.db, batchPassages: 16 })
  for (const [writer, userId] of [
    [big, whole],
    [small, parted],
  ] as const) {
    await writer.write({ document: document(userId, 'a'), chunks: passages(100) })
    await writer.write({ document: document(userId, 'b'), chunks: passages(40, 3) })
  }
  const expected = await statistics(whole)
  expect(expected.totals).toMatchObject({ chunk_count: 140, document_count: 2 })
  expect(expected.terms.find((t) => t.lexeme === 'harbour')?.document_count).toBe(2)
  expect(await statistics(parted)).toEqual(expected)

  // Replaced by a smaller version (its 100 passages go out in parts), then removed.
  for (const [writer, userId] of [
    [big, whole],
    [small, parted],
  ] as const) {
    await writer.write({ document: document(userId, 'a'), chunks: passages(30, 5) })
  }
  const replaced = await statistics(whole)
  expect(replaced.totals).toMatchObject({ chunk_count: 70, document_count: 2 })
  expect(await statistics(parted)).toEqual(replaced)

  await small.shrink({ userId: parted, source: 'test', externalId: 'b' })
  expect(await removeDocument(database.db, { userId: parted, source: 'test', externalId: 'b' })).toBe(true)
  expect(await removeDocument(database.db, { userId: whole, source: 'test', externalId: 'b' })).toBe(true)
  const removed = await statistics(whole)
  expect(removed.totals).toMatchObject({ chunk_count: 30, document_count: 1 })
  expect(await statistics(parted)).toEqual(removed)
  expect(removed.partsRemembered).toBe(0)
})

test("others' statements run between the parts of a large document, not after all of it", async () => {
  const userId = await newUser()
  const writer = createDocumentWriter({ db: database.db, batchPassages: 16 })
  const order: string[] = []
  const writing = writer
    .write({ document: document(userId, 'large'), chunks: passages(400) })
    .then(() => order.push('large document written'))
  // Issued once the first part has begun: it runs before the last part.
  await new Promise((resolve) => setTimeout(resolve, 5))
  await database.db.execute(sql`select 1`)
  order.push('another statement answered')
  await writing
  expect(order).toEqual(['another statement answered', 'large document written'])
  const [row] = await queryRows<{ n: number }>(
    database.db,
    sql`select count(*)::int as n from document_chunks where user_id = ${userId}`,
  )
  expect(row?.n).toBe(400)
})

test("people's documents are written in turns: a small one does not wait behind another person's large ones", async () => {
  const [busy, other] = [await newUser(), await newUser()]
  const writer = createDocumentWriter({ db: database.db, batchPassages: 16 })
  const order: string[] = []
  const writes = [1, 2, 3].map((n) =>
    writer
      .write({ document: document(busy, `large-${n}`), chunks: passages(80, n) })
      .then(() => order.push(`large ${n}`)),
  )
  writes.push(
    writer.write({ document: document(other, 'small'), chunks: passages(3) }).then(() => order.push('small')),
  )
  await Promise.all(writes)
  expect(order.indexOf('small')).toBeLessThan(order.indexOf('large 1'))
})

test('a document whose library row went while it waited is not written, and leaves nothing behind', async () => {
  const userId = await newUser()
  const [row] = await database.db
    .insert(libraryDocuments)
    .values({
      userId,
      source: 'test',
      externalId: 'gone',
      name: 'gone.txt',
      mimeType: 'text/plain',
      status: 'processing',
    })
    .returning({ id: libraryDocuments.id })
  if (!row) throw new Error('no row')
  const writer = createDocumentWriter({ db: database.db, batchPassages: 16 })
  const written = writer.write({
    document: document(userId, 'gone'),
    chunks: passages(200),
    library: { id: row.id, pages: null, ocrPages: null, reason: null },
  })
  await new Promise((resolve) => setTimeout(resolve, 5))
  await database.db.delete(libraryDocuments).where(eq(libraryDocuments.id, row.id))
  expect(await written).toBeNull()
  const after = await statistics(userId)
  expect(after.terms).toEqual([])
  expect(after.totals ?? { chunk_count: 0, document_count: 0 }).toMatchObject({
    chunk_count: 0,
    document_count: 0,
  })
  const [left] = await queryRows<{ n: number }>(
    database.db,
    sql`select count(*)::int as n from documents where user_id = ${userId}`,
  )
  expect(left?.n).toBe(0)
})

const languageStatistics = (userId: string) => perLanguage(database.db, userId)

test('a document in two languages written, replaced and removed in parts keeps each language counted once', async () => {
  const userId = await newUser()
  const writer = createDocumentWriter({ db: database.db, batchPassages: 16 })
  await writer.write({ document: document(userId, 'a'), chunks: passages(100, 0, mixed) })
  await writer.write({ document: document(userId, 'b'), chunks: passages(40, 3) })
  let s = await languageStatistics(userId)
  expect(s.languages).toEqual([
    expect.objectContaining({ language: 'english', chunk_count: 106, document_count: 2 }),
    expect.objectContaining({ language: 'german', chunk_count: 34, document_count: 1 }),
  ])
  expect(s.terms).toEqual(s.termsRecount)
  expect(s.languages).toEqual(s.languagesRecount)

  await writer.write({ document: document(userId, 'a'), chunks: passages(30, 5) })
  s = await languageStatistics(userId)
  expect(s.terms).toEqual(s.termsRecount)
  expect(s.languages).toEqual(s.languagesRecount)
  expect(s.languages.map((l) => (l as { language: string }).language)).toEqual(['english'])

  await writer.write({ document: document(userId, 'b'), chunks: passages(60, 1, mixed) })
  await writer.shrink({ userId, source: 'test', externalId: 'b' })
  expect(await removeDocument(database.db, { userId, source: 'test', externalId: 'b' })).toBe(true)
  s = await languageStatistics(userId)
  expect(s.terms).toEqual(s.termsRecount)
  expect(s.languages).toEqual(s.languagesRecount)
  expect(s.partsRemembered).toBe(0)
  // Nothing German is left: its rows went with its last passage.
  const [german] = await queryRows<{ n: number }>(
    database.db,
    sql`select count(*)::int as n from retrieval_terms where user_id = ${userId} and language = 'german'::regconfig`,
  )
  expect(german?.n).toBe(0)
})

test('the language pass re-indexes a document in parts: the statistics of a document written in its languages', async () => {
  const [relabelled, written] = [await newUser(), await newUser()]
  const writer = createDocumentWriter({ db: database.db, batchPassages: 8 })
  // As migration 0018 leaves a library: every passage English, the document waiting from its first.
  const before = await writer.write({ document: document(relabelled, 'a'), chunks: passages(100, 2) })
  await writer.write({ document: document(relabelled, 'b'), chunks: passages(40, 3) })
  if (!before) throw new Error('not written')
  await database.db.update(documents).set({ languagesFrom: 0 }).where(eq(documents.id, before.documentId))
  const target = passages(100, 2, mixed)
  const order: string[] = []
  const relabelling = writer
    .relabel({ userId: relabelled, source: 'test', externalId: 'a' }, before.documentId, target)
    .then((done) => {
      order.push('relabelled')
      return done
    })
  await new Promise((resolve) => setTimeout(resolve, 5))
  await database.db.execute(sql`select 1`)
  order.push('another statement answered')
  expect(await relabelling).toEqual({ documentId: before.documentId, chunkCount: 100 })
  expect(order).toEqual(['another statement answered', 'relabelled'])

  await writer.write({ document: document(written, 'a'), chunks: target })
  await writer.write({ document: document(written, 'b'), chunks: passages(40, 3) })
  const [after, expected] = [await languageStatistics(relabelled), await languageStatistics(written)]
  expect(after.terms).toEqual(after.termsRecount)
  expect(after.languages).toEqual(after.languagesRecount)
  expect(after.terms).toEqual(expected.terms)
  expect(after.languages).toEqual(expected.languages)
  expect(after.partsRemembered).toBe(0)
  const [row] = await database.db
    .select({ from: documents.languagesFrom })
    .from(documents)
    .where(eq(documents.id, before.documentId))
  expect(row?.from).toBeNull()

  // Done (or written again since): a second pass over it changes nothing.
  expect(
    await writer.relabel(
      { userId: relabelled, source: 'test', externalId: 'a' },
      before.documentId,
      passages(100, 2),
    ),
  ).toBeNull()
  expect((await languageStatistics(relabelled)).terms).toEqual(expected.terms)
})

/** The database with its transactions counted. */
function countingTransactions() {
  const counted = { transactions: 0 }
  const db = new Proxy(database.db, {
    get(target, property, receiver) {
      if (property !== 'transaction') return Reflect.get(target, property, receiver)
      return (...args: Parameters<typeof target.transaction>) => {
        counted.transactions++
        return target.transaction(...args)
      }
    },
  })
  return { db, counted }
}

test('while another person is being served, the writer gives way: short transactions, each after their request (D94)', async () => {
  const [alone, shared] = [await newUser(), await newUser()]
  const quiet = countingTransactions()
  await createDocumentWriter({ db: quiet.db, others: () => 'none' }).write({
    document: document(alone, 'a'),
    chunks: passages(120),
  })
  // Nobody else: one transaction for the whole document.
  expect(quiet.counted.transactions).toBe(1)

  // Somebody else's request in flight all along: parts of a few passages, and the document is
  // still written (the writer waits at most as long as its last transaction took, never for good).
  const busy = countingTransactions()
  const asked: ReadonlySet<string>[] = []
  await createDocumentWriter({
    db: busy.db,
    others: (owners) => {
      asked.push(owners)
      return 'waiting'
    },
  }).write({ document: document(shared, 'a'), chunks: passages(120) })
  expect(busy.counted.transactions).toBeGreaterThanOrEqual(120 / 32)
  // It asks about the people other than those whose documents wait, and asks again while it
  // waits for their request before each transaction (a writer that did not wait would ask once a
  // transaction).
  expect([...(asked[0] ?? [])]).toEqual([shared])
  expect(asked.length).toBeGreaterThan(2 * busy.counted.transactions)
  // Written in parts, with the statistics of the whole write.
  const [a, b] = [await statistics(alone), await statistics(shared)]
  expect(b.totals).toMatchObject({ chunk_count: 120, document_count: 1 })
  expect(b.terms).toEqual(a.terms)
})

test('the GIN indexes every write feeds move their pending lists at 256 kB, not 4 MB (D94, migration 0021)', async () => {
  const rows = await queryRows<{ relname: string; reloptions: string[] | null }>(
    database.db,
    sql`select relname, reloptions from pg_class where relname in
      ('document_chunks_owner_words_idx', 'retrieval_terms_user_trigram_idx', 'chat_messages_content_fts_idx')
      order by relname`,
  )
  expect(rows.map((r) => [r.relname, r.reloptions])).toEqual([
    ['chat_messages_content_fts_idx', ['gin_pending_list_limit=256']],
    ['document_chunks_owner_words_idx', ['gin_pending_list_limit=256']],
    ['retrieval_terms_user_trigram_idx', ['gin_pending_list_limit=256']],
  ])
})

test('a caller writing document after document lets the event loop turn between transactions (timers run)', async () => {
  const owner = await newUser()
  const writer = createDocumentWriter({ db: database.db })
  let turns = 0
  const timer = setInterval(() => {
    turns++
  }, 0)
  try {
    // No I/O between the writes: without a turn of the event loop per transaction, the interval
    // would not run once until the loop ended.
    for (let i = 0; i < 6; i++)
      await writer.write({ document: document(owner, `back-to-back-${i}`), chunks: passages(20, i) })
  } finally {
    clearInterval(timer)
  }
  expect(turns).toBeGreaterThanOrEqual(3)
})
