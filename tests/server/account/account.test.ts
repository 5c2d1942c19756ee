/**
 * Export my data and delete my account. Deletion is checked against every table of the
 * database, found by asking the database for its tables and columns, so a table added later is
 * covered without touching this test: no uuid column may hold the account's id, no text column
 * its email or the hash its attempt counters are filed under. Its Google grant is revoked at Google.
 */
import { sql } from 'drizzle-orm'
import { beforeAll, expect, test } from 'vitest'
import { AccountExportSchema, accountEndpoints } from '#contracts/account.ts'
import { accountLinkEndpoints } from '#contracts/account-links.ts'
import { authEndpoints } from '#contracts/auth.ts'
import { chatEndpoints } from '#contracts/chat.ts'
import { documentEndpoints } from '#contracts/documents.ts'
import type { App } from '#server/app.ts'
import { queryRows } from '#server/db/query-rows.ts'
import { subjectHash } from '#server/http/rate-limit-repository.ts'
import type { GoogleEmulator } from '#tests/fakes/google/emulator.ts'
import { ADA } from '#tests/fakes/google/fixtures.ts'
import { call, createConversation, errorOf, indexTravelPolicy, sendOk } from '../support/chat-helpers.ts'
import { connectedPerson, ingest, type Person, setUpDriveApp } from '../support/drive-helpers.ts'
import { signIn, TEST_PASSWORD } from '../support/helper.ts'

let app: App
let emulator: GoogleEmulator
setUpDriveApp((started) => {
  app = started.app
  emulator = started.emulator
})

/** Rows per table that refer to the account, over every table and column the database has. */
async function rowsReferringTo(account: { id: string; email: string }): Promise<Record<string, number>> {
  const columns = await queryRows<{ table_name: string; column_name: string; data_type: string }>(
    app.db,
    sql`select table_name, column_name, data_type from information_schema.columns
        where table_schema = 'public' and data_type in ('uuid', 'text', 'character varying', 'jsonb')`,
  )
  const found: Record<string, number> = {}
  for (const { table_name: table, column_name: column, data_type: type } of columns) {
    const t = sql.identifier(table)
    const c = sql.identifier(column)
    const where =
      type === 'uuid'
        ? sql`${c} = ${account.id}::uuid`
        : type === 'jsonb'
          ? sql`${c}::text like ${`%${account.id}%`}`
          : sql`lower(${c}) = lower(${account.email}) or ${c} = ${subjectHash(account.email)} or ${c} = ${account.id}`
    const [row] = await queryRows<{ n: number }>(
      app.db,
      sql`select count(*)::int as n from ${t} where ${where}`,
    )
    if ((row?.n ?? 0) > 0) found[`${table}.${column}`] = (found[`${table}.${column}`] ?? 0) + (row?.n ?? 0)
  }
  return found
}

/** A person who used everything: a Drive connected and ingested, conversations, a library, links, counters. */
async function busyPerson(): Promise<Person> {
  const person = await connectedPerson({ app, emulator }, ADA)
  expect((await ingest(app, { cookie: person.cookie, email: person.email })).statusCode).toBe(200)
  await indexTravelPolicy(app, person.id)
  const conversation = await createConversation(app, person.cookie, 'Travel')
  await sendOk(app, person.cookie, conversation._id, 'What is the meal allowance?')
  await call(app, authEndpoints.login, { body: { email: person.email, password: 'a wrong password' } })
  await call(app, accountLinkEndpoints.forgotPassword, { body: { email: person.email } })
  await app.mailLinks.settled()
  return person
}

function deleteAccount(cookie: string, body: { password?: string; email?: string }) {
  return call(app, accountEndpoints.deleteAccount, { cookie, body })
}

beforeAll(() => {
  expect(app).toBeDefined()
})

test('export holds the account, its conversations with their messages and sources, and the library', async () => {
  const person = await busyPerson()
  const response = await call(app, accountEndpoints.exportAccount, { cookie: person.cookie })
  expect(response.statusCode).toBe(200)
  expect(response.headers['content-disposition']).toMatch(
    /^attachment; filename="docchat-export-\d{4}-\d\d-\d\d\.json"$/,
  )
  const data = AccountExportSchema.parse(response.json())
  expect(data.account.email).toBe(person.email)
  expect(data.conversations).toHaveLength(1)
  const [question, answer] = data.conversations[0]?.messages ?? []
  expect(question).toMatchObject({ role: 'user', content: 'What is the meal allowance?' })
  expect(answer?.role).toBe('assistant')
  expect(answer?.sources.map((s) => s.documentName)).toContain('Travel policy.pdf')
  expect(data.library.map((d) => d.name)).toContain('zephyr-project-brief.pdf')
  expect(data.googleDrive).toEqual({ connected: true, email: ADA })
  // Nothing secret leaves: no token, no hash.
  expect(response.body).not.toMatch(/refresh|password_hash|\$argon2/)
})

test('export names the documents a conversation is limited to (D70), and null for the whole library', async () => {
  const person = await connectedPerson({ app, emulator }, ADA)
  expect((await ingest(app, { cookie: person.cookie, email: person.email })).statusCode).toBe(200)
  const library = documentEndpoints.listDocuments.response.parse(
    (await call(app, documentEndpoints.listDocuments, { cookie: person.cookie })).json(),
  ).data
  const brief = library.documents.find((d) => d.name === 'zephyr-project-brief.pdf')
  if (!brief) throw new Error('the brief is not in the library')
  await createConversation(app, person.cookie, 'Everything')
  const scoped = await call(app, chatEndpoints.createConversation, {
    cookie: person.cookie,
    body: { title: 'The brief', scope: { documentIds: [brief.id] } },
  })
  expect(scoped.statusCode).toBe(201)

  const data = AccountExportSchema.parse(
    (await call(app, accountEndpoints.exportAccount, { cookie: person.cookie })).json(),
  )
  expect(Object.fromEntries(data.conversations.map((c) => [c.title, c.documents]))).toEqual({
    Everything: null,
    'The brief': ['zephyr-project-brief.pdf'],
  })
})

test('another person’s export holds none of it', async () => {
  const owner = await busyPerson()
  const other = await connectedPerson({ app, emulator }, 'carol@example.com')
  const data = AccountExportSchema.parse(
    (await call(app, accountEndpoints.exportAccount, { cookie: other.cookie })).json(),
  )
  expect(data.conversations).toEqual([])
  expect(JSON.stringify(data)).not.toContain(owner.email)
})

test('deleting the account leaves no row of it in any table and revokes its Google grant', async () => {
  const person = await busyPerson()
  const bystander = await busyPerson()
  const before = await rowsReferringTo(person)
  // The query finds what there is: the account's rows across the domains before deletion.
  for (const table of [
    'users.id',
    'chat_sessions.user_id',
    'chat_messages.user_id',
    'documents.user_id',
    'document_chunks.user_id',
    'library_documents.user_id',
    'google_connections.user_id',
    'refresh_token_families.user_id',
    'account_tokens.user_id',
    'rate_limit_counters.subject_hash',
  ])
    expect(before[table], table).toBeGreaterThan(0)
  expect(emulator.state.activeGrants(ADA).length).toBeGreaterThan(0)
  const grantsOfBystander = emulator.state.activeGrants(ADA).length

  const refused = await deleteAccount(person.cookie, { password: 'not my password' })
  expect(refused.statusCode).toBe(400)
  expect(errorOf(refused)).toBe('The password is not right, so nothing was deleted.')

  const deleted = await deleteAccount(person.cookie, { password: TEST_PASSWORD })
  expect(deleted.statusCode).toBe(200)
  expect(deleted.cookies.find((c) => c.name === 'docchat_access')?.value).toBe('')

  expect(await rowsReferringTo(person)).toEqual({})
  // Its grant went at Google; the other person's (same Google account here) is theirs to keep.
  expect(emulator.state.activeGrants(ADA).length).toBe(grantsOfBystander - 1)
  expect(emulator.state.requests.some((r) => r.endpoint === 'revoke' && r.status === 200)).toBe(true)
  // The session is gone, the email may sign up again, the other person is untouched.
  expect((await call(app, authEndpoints.me, { cookie: person.cookie })).statusCode).toBe(401)
  expect(Object.keys(await rowsReferringTo(bystander)).length).toBeGreaterThan(5)
  expect((await signIn(app, bystander.email)).user.email).toBe(bystander.email)
})

test('deletion needs a session; another person’s account cannot be named', async () => {
  expect((await deleteAccount('', { password: TEST_PASSWORD })).statusCode).toBe(401)
  const unknownField = await call(app, accountEndpoints.deleteAccount, {
    cookie: (await busyPerson()).cookie,
    body: { password: TEST_PASSWORD, userId: '00000000-0000-0000-0000-000000000000' },
  })
  expect(unknownField.statusCode).toBe(400)
})
