/** Accounts. Emails are unique regardless of case (the lower(email) index); stored as typed. */
import { asc, eq, sql } from 'drizzle-orm'
import type { Db } from '../db/database.ts'
import { users } from '../db/schema.ts'

export type UserRecord = {
  id: string
  email: string
  /** Null for an account made by Sign in with Google that never set a password. */
  passwordHash: string | null
  createdAt: Date
  googleSubject: string | null
  disabledAt: Date | null
  emailConfirmationPending: boolean
}

export type UsersRepository = ReturnType<typeof createUsersRepository>

export function createUsersRepository(db: Db) {
  return {
    /** Null when the email is taken: the unique index decides, so two racing sign-ups can't both win. */
    async create(input: {
      email: string
      passwordHash: string | null
      createdAt: Date
      googleSubject?: string
      emailConfirmationPending?: boolean
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

    async findByGoogleSubject(subject: string): Promise<UserRecord | null> {
      const rows = await db.select().from(users).where(eq(users.googleSubject, subject)).limit(1)
      return rows[0] ?? null
    },

    async setPasswordHash(id: string, passwordHash: string): Promise<void> {
      await db.update(users).set({ passwordHash }).where(eq(users.id, id))
    },

    /** False when another account holds that Google identity already. */
    async linkGoogle(id: string, subject: string): Promise<boolean> {
      const rows = await db
        .update(users)
        .set({ googleSubject: subject })
        .where(eq(users.id, id))
        .returning({ id: users.id })
        .catch(() => [])
      return rows.length === 1
    },

    async confirmEmail(id: string): Promise<void> {
      await db.update(users).set({ emailConfirmationPending: false }).where(eq(users.id, id))
    },

    async setDisabled(id: string, disabledAt: Date | null): Promise<void> {
      await db.update(users).set({ disabledAt }).where(eq(users.id, id))
    },

    /** Every account, oldest first (the operator's list). */
    async list(): Promise<UserRecord[]> {
      return db.select().from(users).orderBy(asc(users.createdAt))
    },
  }
}
