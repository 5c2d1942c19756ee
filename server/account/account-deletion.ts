/**
 * Deleting an account (D78): the Google grant is revoked at Google first (a failure there is
 * logged, the tokens go regardless, as on disconnect, D30), every sign-in ends on every
 * instance, then one transaction deletes the account's attempt counters and the account row,
 * whose foreign keys (all `on delete cascade`) take everything else with it: conversations,
 * messages, documents, passages, vectors, uploads, jobs, sessions, links, the Drive connection.
 * tests/server/account/account.test.ts checks every table of the database afterwards.
 */
import type { FastifyBaseLogger } from 'fastify'
import type { AuthService } from '../auth/auth-service.ts'
import type { Db } from '../db/database.ts'
import type { GoogleConnections } from '../drive/google-connections.ts'
import { deleteAccountRows } from './account-repository.ts'

type Deps = {
  db: Db
  auth: AuthService
  googleConnections: GoogleConnections | null
  log: FastifyBaseLogger
}

export async function deleteAccount(
  account: { id: string; email: string },
  { db, auth, googleConnections, log }: Deps,
): Promise<void> {
  if (googleConnections) await googleConnections.disconnect(account.id)
  await auth.revokeAll(account.id, 'account-deleted')
  await deleteAccountRows(db, account)
  auth.forgetUser(account.id)
  log.info({ event: 'account.deleted', userId: account.id }, 'account deleted with everything it held')
}
