/**
 * Migration 0023 on accounts that exist already (D99): an account counts as proven only where the
 * database holds the proof (no password: made by Sign in with Google; a used mailed link still on
 * record); every other password account counts as unproven, so the owner's Google sign-in takes
 * it back. On an embedded PGlite, or with TEST_DATABASE_URL set on that PostgreSQL server.
 */
import { rm } from 'node:fs/promises'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { MIGRATIONS_FOLDER } from '#server/db/migrations-folder.ts'
import { type Fresh, freshDatabase, migrationsBefore } from '../support/migration-database.ts'

let database: Fresh
let before: string

beforeAll(async () => {
  before = await migrationsBefore('0023_email_proven')
  database = await freshDatabase()
}, 60_000)
afterAll(async () => {
  await database?.close()
  if (before) await rm(before, { recursive: true, force: true })
})

test('existing accounts count as proven only with proof on record', async () => {
  const db = database
  await db.migrate(before)
  const rows = async <T>(query: ReturnType<typeof sql>) =>
    ((await db.execute(query)) as unknown as { rows: T[] }).rows
  const usedAt = new Date(Date.now() - 60_000)
  const [google, confirmed, resetUnused, password] = await rows<{ id: string }>(sql`
    insert into users (email, password_hash, google_subject) values
      ('google@example.com', null, '1001'),
      ('confirmed@example.com', 'x', null),
      ('asked@example.com', 'x', null),
      ('password@example.com', 'x', null)
    returning id`)
  await db.execute(sql`
    insert into account_tokens (token_hash, user_id, purpose, expires_at, used_at) values
      ('a', ${confirmed?.id}, 'confirm-email', now() + interval '1 day', ${usedAt}),
      ('b', ${resetUnused?.id}, 'reset-password', now() + interval '1 hour', null)`)

  await db.migrate(MIGRATIONS_FOLDER)

  const proven = await rows<{ id: string; email_proven_at: Date | string | null }>(
    sql`select id, email_proven_at from users`,
  )
  const of = (id: string | undefined) => proven.find((r) => r.id === id)?.email_proven_at ?? null
  expect(of(google?.id)).not.toBeNull()
  expect(new Date(of(confirmed?.id) ?? 0).getTime()).toBe(usedAt.getTime())
  expect(of(resetUnused?.id)).toBeNull()
  expect(of(password?.id)).toBeNull()
}, 60_000)
