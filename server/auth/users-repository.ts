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
  /** When the address was shown to be the owner's (a mailed link, Google); null: never (D99). */
  emailProvenAt: Date | null
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
      emailProvenAt?: Date
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

    /** The owner of the address showed it is theirs (a mailed link, Google): confirmed and proven. */
    async confirmEmail(id: string, at: Date): Promise<void> {
      await db
        .update(users)
        .set({ emailConfirmationPending: false, emailProvenAt: at })
        .where(eq(users.id, id))
    },

    /**
     * The address's owner, vouched for by Google, takes over an account whose address was never
     * proven (D99): whoever chose its password may not be them, so the password goes.
     */
    async claimUnproven(id: string, at: Date): Promise<void> {
      await db
        .update(users)
        .set({ passwordHash: null, emailConfirmationPending: false, emailProvenAt: at })
        .where(eq(users.id, id))
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
