/**
 * The rows of a raw SQL query, typed by the caller: `await queryRows<{ id: string }>(db, sql`…`)`.
 * PGlite and node-postgres both answer `db.execute` with `{ rows }`, but Drizzle's shared `Db`
 * type leaves the result open; this is the one place that says what it is.
 */
import type { SQL } from 'drizzle-orm'
import type { Db } from './database.ts'

export async function queryRows<Row>(db: Db, query: SQL): Promise<Row[]> {
  const result = (await db.execute(query)) as unknown as { rows: Row[] }
  return result.rows
}
