/**
 * Retrieval over the user's own chunks (full-text search on in-memory PGlite): ranking, the
 * partial-match fallback, owner isolation, re-indexing, and questions with nothing to search for.
 */
import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { Retrieve } from '#server/answering/answer-shapes.ts'
import { createRetriever, passageTokens } from '#server/answering/retrieval.ts'
import type { App } from '#server/app.ts'
import { queryRows } from '#server/db/query-rows.ts'
import { documentChunks, documents, users } from '#server/db/schema.ts'
import { createDocumentsRepository } from '#server/documents/index/documents-repository.ts'
import { type IndexDocumentInput, indexDocument } from '#server/documents/index/index-document.ts'
import { searchPassages } from '#server/documents/index/passage-search.ts'
import { removeDocument } from '#server/documents/index/passage-writes-repository.ts'
import { DOCUMENT_POOL } from '#server/documents/index/search-terms.ts'
import { indexText } from '../support/document-helpers.ts'
import { buildTestApp, register, uniqueEmail } from '../support/helper.ts'

let app: App
let retrieve: Retrieve

beforeAll(async () => {
  app = await buildTestApp()
  retrieve = createRetriever(app.db)
})
afterAll(async () => {
  await app.close()
})

async function newUser(): Promise<string> {
  return (await register(app, uniqueEmail('retrieval')))._id
}

const doc = (userId: string, externalId: string, text: string, over: Partial<IndexDocumentInput> = {}) =>
  indexText(app.db, userId, externalId, text, over)

const texts = async (userId: string, question: string, limit = 6) =>
  (await retrieve(userId, question, limit)).map((p) => p.text)

test('the passage that answers the question ranks first among distractors', async () => {
  const user = await newUser()
  await doc(user, 'meals', 'While abroad, the meal allowance is 45 euros per day for every employee.')
  await doc(user, 'meals-home', 'At home there is no meal allowance; lunch is served in the canteen.')
  await doc(user, 'abroad', 'Travelling abroad abroad abroad requires a passport. Abroad, carry insurance.')
  await doc(
    user,
    'allowance',
    'The allowance for home office equipment is 300 euros, an allowance paid once.',
  )
  await doc(user, 'unrelated', 'The parking garage closes at midnight.')

  const passages = await retrieve(user, 'What is the meal allowance abroad?', 6)
  expect(passages[0]?.text).toContain('meal allowance is 45 euros')
  expect(passages[0]?.documentName).toBe('meals.txt')
  expect(passages.map((p) => p.documentName)).not.toContain('unrelated.txt')
  const ranks = passages.map((p) => p.rank)
  expect(ranks).toEqual([...ranks].sort((a, b) => b - a))
})

test('terms close together beat the same terms scattered over a long passage', async () => {
  const user = await newUser()
  const filler = 'Other topics are covered in later chapters of this handbook. '.repeat(12)
  await doc(
    user,
    'scattered',
    `Expense rules. ${filler} Reimbursement is possible. ${filler} Deadline matters.`,
  )
  await doc(user, 'together', 'The expense reimbursement deadline is thirty days after the trip.')
  expect((await retrieve(user, 'expense reimbursement deadline', 2))[0]?.documentName).toBe('together.txt')
})

test('a heading that names the topic counts more than the body', async () => {
  const user = await newUser()
  await doc(user, 'body', 'Several notes. Parental leave is mentioned here in passing among other things.')
  await doc(user, 'headed', '# Parental leave\n\nEach parent may take up to sixteen weeks.', {
    mimeType: 'text/markdown',
  })
  const [first] = await retrieve(user, 'parental leave', 2)
  expect(first?.documentName).toBe('headed.txt')
  expect(first?.heading).toBe('Parental leave')
})

test('a natural question finds the passage that has most but not all of its words', async () => {
  const user = await newUser()
  await doc(user, 'meals', 'The daily meal allowance abroad is 45 euros.')
  await doc(user, 'trains', 'Train tickets are booked in second class.')
  await doc(user, 'food', 'Food trucks visit the campus on Fridays.')
  // "food", "travelling" and "when" are not in the answer: an AND of every word finds nothing.
  const question = 'What is the daily food allowance when travelling abroad?'
  const [first, ...rest] = await retrieve(user, question, 6)
  expect(first?.documentName).toBe('meals.txt')
  expect(rest.map((p) => p.documentName)).toContain('food.txt')
  // The full match still outranks the partial ones.
  await doc(user, 'exact', 'Daily food allowance when travelling abroad: 50 euros.')
  expect((await retrieve(user, question, 6))[0]?.documentName).toBe('exact.txt')
})

test('a question word said more often in a passage of the same length ranks it higher (term frequency)', async () => {
  const user = await newUser()
  await doc(
    user,
    'once',
    'The warranty covers the laptop for two years; chargers and bags are bought by staff.',
  )
  await doc(
    user,
    'thrice',
    'The warranty covers the laptop; the warranty lasts two years; warranty claims go to IT.',
  )
  const ranked = await retrieve(user, 'laptop warranty', 2)
  expect(ranked.map((p) => p.documentName)).toEqual(['thrice.txt', 'once.txt'])
  expect(ranked[0]?.rank).toBeGreaterThan(ranked[1]?.rank ?? 0)
})

test('a chunk with more of the question beats one that repeats a single word', async () => {
  const user = await newUser()
  await doc(user, 'repeats', 'Bicycle. Bicycle bicycle bicycle bicycle bicycle bicycle bicycle.')
  await doc(user, 'covers', 'Bicycle commuters receive a monthly bonus.')
  const [first] = await retrieve(user, 'Is there a monthly bicycle commuting bonus for staff?', 2)
  expect(first?.documentName).toBe('covers.txt')
})

test("a user's question never retrieves another user's text, even when it is the only match", async () => {
  const alice = await newUser()
  const bob = await newUser()
  await doc(alice, 'canary', 'Zanzibarian flamingo canary phrase for the owner test.')
  expect(await texts(alice, 'zanzibarian flamingo')).toHaveLength(1)
  expect(await texts(bob, 'zanzibarian flamingo')).toEqual([])
  expect(await texts(bob, 'What about the Zanzibarian flamingo canary?')).toEqual([])
  // Same external id under Bob: a separate document, Alice's is untouched.
  await doc(bob, 'canary', 'Bob has a quite different text.')
  expect(await texts(alice, 'zanzibarian flamingo')).toHaveLength(1)
  expect(await texts(bob, 'zanzibarian flamingo')).toEqual([])
})

test('two people whose ids end alike share keys in the word index (D95), never passages or corrections', async () => {
  const tail = '0000d95d95d9'
  const [alice, bob] = ['aaaaaaaa-aaaa-4aaa-8aaa-', 'bbbbbbbb-bbbb-4bbb-8bbb-'].map(
    (head) => `${head}${tail}`,
  ) as [string, string]
  await app.db.insert(users).values([
    { id: alice, email: uniqueEmail('alike'), passwordHash: 'not-a-hash' },
    { id: bob, email: uniqueEmail('alike'), passwordHash: 'not-a-hash' },
  ])
  await doc(alice, 'harbour', 'Quokka lanterns glow over the harbour at dusk.')
  await doc(bob, 'spring', 'Quokka lanterns are sold out until the wonderfully mild spring.')
  // The index keys both people's passages alike: one key finds both.
  const [keyed] = await queryRows<{ n: number }>(
    app.db,
    sql`select count(*)::int as n from document_chunks c
        where owner_words(c.user_id, c.language, c.tsv) @@ '''d95d95d9engquokka'''::tsquery`,
  )
  expect(keyed?.n).toBe(2)
  // A search reads only its owner's.
  expect(await texts(alice, 'quokka lanterns')).toEqual(['Quokka lanterns glow over the harbour at dusk.'])
  expect(await texts(bob, 'quokka lanterns')).toEqual([
    'Quokka lanterns are sold out until the wonderfully mild spring.',
  ])
  expect(await texts(alice, 'wonderfully mild')).toEqual([])
  // Nor is a word of the other's corrected to, nor written as the other writes it.
  const search = await searchPassages(app.db, alice, 'wonderfuly lanterns', 6)
  expect(search.corrections).toEqual([])
  expect(search.passages.map((p) => p.text)).toEqual(['Quokka lanterns glow over the harbour at dusk.'])
})

test('re-indexing a document replaces its chunks: the old text is gone, the new one is found', async () => {
  const user = await newUser()
  const first = await doc(user, 'policy', 'Version one mentions the obsolete quokka rule.', { version: '1' })
  expect(await texts(user, 'quokka')).toHaveLength(1)
  const second = await doc(user, 'policy', 'Version two mentions the new wombat rule.', {
    version: '2',
    name: 'Policy (renamed).txt',
  })
  expect(second.documentId).toBe(first.documentId)
  expect(await texts(user, 'quokka')).toEqual([])
  const [found] = await retrieve(user, 'wombat', 6)
  expect(found?.documentName).toBe('Policy (renamed).txt')
  const rows = await app.db.select().from(documents).where(eq(documents.id, first.documentId))
  expect(rows[0]?.version).toBe('2')
})

test('a re-index that fails keeps the previous version whole', async () => {
  const user = await newUser()
  const { documentId } = await doc(user, 'atomic', 'The capybara clause stays.')
  // A page number beyond the column's range makes the chunk insert fail after the old chunks
  // were deleted and the document renamed: the transaction must undo both.
  await expect(
    doc(user, 'atomic', 'Half-written platypus text.', {
      name: 'broken.txt',
      sections: [{ page: 2 ** 31, text: 'Half-written platypus text.' }],
    }),
  ).rejects.toThrow()
  expect(await texts(user, 'capybara')).toHaveLength(1)
  expect(await texts(user, 'platypus')).toEqual([])
  const rows = await app.db.select().from(documents).where(eq(documents.id, documentId))
  expect(rows[0]?.name).toBe('atomic.txt')
})

test('a search running beside a re-index sees the old version or the new one, never a mix', async () => {
  const user = await newUser()
  const many = (word: string) =>
    Array.from({ length: 40 }, (_, i) => `Paragraph ${i} about the ${word} procedure.`).join('\n\n')
  await doc(user, 'big', many('heron'), { sections: [{ page: null, text: many('heron') }] })
  const oldCount = (await retrieve(user, 'procedure', 100)).length
  const reindex = doc(user, 'big', '', { sections: [{ page: null, text: many('egret') }] })
  const during = await Promise.all(Array.from({ length: 5 }, () => retrieve(user, 'procedure', 100)))
  await reindex
  for (const passages of during) {
    const herons = passages.filter((p) => p.text.includes('heron')).length
    const egrets = passages.filter((p) => p.text.includes('egret')).length
    expect(herons === 0 || egrets === 0).toBe(true)
    expect(herons + egrets).toBe(oldCount)
  }
})

test('removing a document removes its chunks', async () => {
  const user = await newUser()
  const { documentId } = await doc(user, 'gone', 'The narwhal memo.')
  expect(await removeDocument(app.db, { userId: user, source: 'test', externalId: 'gone' })).toBe(true)
  expect(await texts(user, 'narwhal')).toEqual([])
  const chunks = await app.db.select().from(documentChunks).where(eq(documentChunks.documentId, documentId))
  expect(chunks).toEqual([])
  expect(await removeDocument(app.db, { userId: user, source: 'test', externalId: 'gone' })).toBe(false)
})

test('passages carry their document, page, heading and link (a PDF line starting with ## is no heading)', async () => {
  const user = await newUser()
  const { documentId } = await indexDocument(app.db, {
    userId: user,
    source: 'drive',
    externalId: 'file-1',
    name: 'Guide.pdf',
    mimeType: 'application/pdf',
    link: 'https://drive.example.com/file-1',
    sections: [
      { page: 1, text: 'Introduction.' },
      { page: 3, text: '## Security\n\nRotate the albatross keys every quarter.' },
    ],
  })
  expect(await retrieve(user, 'albatross keys', 6)).toEqual([
    {
      chunkId: expect.any(String),
      documentId,
      documentName: 'Guide.pdf',
      page: 3,
      heading: null,
      link: 'https://drive.example.com/file-1',
      text: '## Security\n\nRotate the albatross keys every quarter.',
      language: 'english',
      rank: expect.any(Number),
    },
  ])
})

test('at most `limit` passages come back, best first', async () => {
  const user = await newUser()
  for (let i = 0; i < 8; i++)
    await doc(user, `n${i}`, `Note ${i} about the lighthouse${' lighthouse'.repeat(i)}.`)
  expect(await texts(user, 'lighthouse', 3)).toHaveLength(3)
  expect(await texts(user, 'lighthouse', 0)).toEqual([])
})

test.each([
  ['only stopwords', 'What is it and who are they?'],
  ['only punctuation', '?!... --- ***'],
  ['blank', '   '],
  ['empty', ''],
])('a question with %s finds nothing and raises no error', async (_, question) => {
  const user = await newUser()
  await doc(user, 'any', 'What is it and who are they? Anything at all.')
  expect(await retrieve(user, question, 6)).toEqual([])
})

test.each([
  ["quotes and backslashes: it's a \\ back\\slash 'x'"],
  ['web-search syntax: "meal allowance" or -travel'],
  ['an url http://example.com:8080/a?b=1 and mail joe@example.com'],
  ['tsquery syntax: meal & (allowance | !abroad) <-> x:* '],
  [`a very long question ${'with many different words number '.repeat(300)}`],
  ['unicode: Größe der Straße café 東京'],
])('odd input (%s) is searched safely', async (question) => {
  const user = await newUser()
  await doc(
    user,
    'odd',
    'The meal allowance of the Straße café is listed at example.com:8080 for joe@example.com.',
  )
  await expect(retrieve(user, question, 6)).resolves.toBeInstanceOf(Array)
})

test('a whole-question match is found even behind more partial matches than the candidate pool holds', async () => {
  const user = await newUser()
  // Partial matches with the words in a heading (weight A) score high on the cheap pool score.
  const partial = Array.from(
    { length: DOCUMENT_POOL + 10 },
    (_, i) => `# Warranty claims ${i}\n\nWarranty claims are filed in the portal. Warranty claims, claims.`,
  )
  await doc(user, 'partials', '', {
    mimeType: 'text/markdown',
    sections: [{ page: null, text: partial.join('\n\n') }],
  })
  await doc(user, 'answer', 'The warranty claim deadline for returned laptops is ninety days.')
  const [first] = await retrieve(user, 'warranty claim deadline for laptops', 6)
  expect(first?.documentName).toBe('answer.txt')
})

test('the prompt gets the best passage of each of the best documents before a second one of the same', async () => {
  const user = await newUser()
  const long = (topic: string, i: number) =>
    `${topic} section ${i}: ${'The lighthouse keeper logs the lamp hours and the lighthouse fuel. '.repeat(8)}`
  await doc(user, 'manual', '', {
    mimeType: 'text/markdown',
    sections: [
      {
        page: null,
        text: Array.from({ length: 8 }, (_, i) => `## Part ${i}\n\n${long('Manual', i)}`).join('\n\n'),
      },
    ],
  })
  await doc(user, 'logbook', 'The lighthouse logbook records the lamp hours of every night.')
  await doc(user, 'fuel', 'Lighthouse fuel is delivered monthly by boat.')
  // By score alone the manual's eight sections fill the first places...
  const ranked = await createDocumentsRepository(app.db).search(user, 'lighthouse lamp hours fuel', 10)
  expect(ranked.slice(0, 8).map((p) => p.documentName)).toEqual(Array(8).fill('manual.txt'))
  // ...the prompt takes the other documents' best passages before the manual's fourth.
  const names = (await retrieve(user, 'lighthouse lamp hours fuel', 6)).map((p) => p.documentName)
  expect(names[0]).toBe('manual.txt')
  expect(names).toEqual(expect.arrayContaining(['logbook.txt', 'fuel.txt']))
  expect(names.filter((n) => n === 'manual.txt').length).toBeLessThanOrEqual(4)
})

test('the passages stay within the token budget', async () => {
  const user = await newUser()
  for (let i = 0; i < 10; i++)
    await doc(
      user,
      `p${i}`,
      `Passage ${i} on the observatory dome. ${'Filler words about the dome. '.repeat(25)}`,
    )
  const small = createRetriever(app.db, { tokenBudget: 450 })
  const passages = await small(user, 'observatory dome', 10)
  expect(passages.length).toBeGreaterThanOrEqual(1)
  expect(passages.reduce((sum, p) => sum + passageTokens(p), 0)).toBeLessThanOrEqual(450)
  expect((await retrieve(user, 'observatory dome', 10)).length).toBeGreaterThan(passages.length)
})
