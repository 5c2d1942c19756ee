/** The readiness probe's one statement: the database answers. */
import { sql } from 'drizzle-orm'
import type { Db } from '../db/database.ts'

export async function pingDatabase(db: Db): Promise<void> {
  await db.execute(sql`select 1`)
}
