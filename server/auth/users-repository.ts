/** Accounts. Emails are unique regardless of case (the lower(email) index); stored as typed. */
import { eq, sql } from 'drizzle-orm'
import type { Db } from '../db/database.ts'
import { users } from '../db/schema.ts'

export type UserRecord = {
  id: string
  email: string
  passwordHash: string
  createdAt: Date
}

export type UsersRepository = ReturnType<typeof createUsersRepository>

export function createUsersRepository(db: Db) {
  return {
    /** Null when the email is taken: the unique index decides, so two racing sign-ups can't both win. */
    async create(input: {
      email: string
      passwordHash: string
      createdAt: Date
    }): Promise<UserRecord | null> {
      const rows = await db.insert(users).values(input).onConflictDoNothing().returning()
      return rows[0] ?? null
    },

    async findByEmail(email: string): Promise<UserRecord | null> {
      const rows = await db.select().from(users).where(sql`lower(${users.email}) = lower(${email})`).limit(1)
      return rows[0] ?? null
    },

    async findById(id: string): Promise<UserRecord | null> {
      const rows = await db.select().from(users).where(eq(users.id, id)).limit(1)
      return rows[0] ?? null
    },
  }
}
