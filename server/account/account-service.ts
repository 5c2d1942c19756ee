/**
 * What acts on a whole account: Settings' account card, export and deletion (D78), and the
 * operator's commands (D79: list, disable, enable, delete, a reset link). It sits above every
 * other domain because an account holds something in each of them.
 */
import type { FastifyBaseLogger } from 'fastify'
import type { Account } from '#contracts/account.ts'
import type { AuthService, CurrentUser } from '../auth/auth-service.ts'
import type { MailLinks } from '../auth/mail-links.ts'
import type { UserRecord, UsersRepository } from '../auth/users-repository.ts'
import { createChatRepository } from '../chat/chat-repository.ts'
import type { Db } from '../db/database.ts'
import { createLibraryRepository } from '../documents/library/library-repository.ts'
import type { GoogleConnections } from '../drive/google-connections.ts'
import { createGoogleDriveRepository } from '../drive/google-drive-repository.ts'
import { deleteAccount } from './account-deletion.ts'
import { exportAccount } from './account-export.ts'

export type AccountService = ReturnType<typeof createAccountService>

type Deps = {
  db: Db
  users: UsersRepository
  auth: AuthService
  mailLinks: MailLinks
  googleConnections: () => GoogleConnections | null
  log: FastifyBaseLogger
}

export function createAccountService({ db, users, auth, mailLinks, googleConnections, log }: Deps) {
  const repositories = {
    chat: createChatRepository(db),
    library: createLibraryRepository(db),
    drive: createGoogleDriveRepository(db),
    now: auth.now,
  }

  async function record(userId: string): Promise<UserRecord> {
    const found = await users.findById(userId)
    if (!found) throw new Error('The signed-in account no longer exists')
    return found
  }

  return {
    async account(user: CurrentUser): Promise<Account> {
      const found = await record(user.id)
      return {
        email: found.email,
        createdAt: found.createdAt.toISOString(),
        hasPassword: found.passwordHash !== null,
        googleLinked: found.googleSubject !== null,
      }
    },

    async export(user: CurrentUser) {
      const found = await record(user.id)
      return exportAccount({ ...user, googleLinked: found.googleSubject !== null }, repositories)
    },

    /**
     * The person confirms with their password, or (an account without one) their email typed
     * again; false when it does not match.
     */
    async confirmDeletion(user: CurrentUser, confirmation: { password?: string; email?: string }) {
      const found = await record(user.id)
      if (found.passwordHash !== null) return auth.checkPassword(user.id, confirmation.password ?? '')
      return (confirmation.email ?? '').trim().toLowerCase() === found.email.toLowerCase()
    },

    delete(account: { id: string; email: string }): Promise<void> {
      return deleteAccount(account, { db, auth, googleConnections: googleConnections(), log })
    },

    // The operator's commands (scripts/users.ts), by email.
    list: () => users.list(),
    findByEmail: (email: string) => users.findByEmail(email),

    /** The account cannot sign in, and each of its sign-ins ends at once on every instance. */
    async disable(account: UserRecord): Promise<number> {
      await users.setDisabled(account.id, auth.now())
      return auth.revokeAll(account.id, 'disabled')
    },

    async enable(account: UserRecord): Promise<void> {
      await users.setDisabled(account.id, null)
    },

    /** A reset link for the operator to hand over (nothing is mailed); earlier ones stop working. */
    resetLink: (account: UserRecord) => mailLinks.resetLink(account),
  }
}
