/** One client function per Settings account call (contracts/account.ts): the deps of the settings machines. */
import {
  type Account,
  type AccountExport,
  accountEndpoints,
  type ChangePasswordRequest,
  type DeleteAccountRequest,
  type Session,
} from '#contracts/account.ts'
import type { Http } from './client.ts'

export type AccountApi = ReturnType<typeof createAccountApi>

export function createAccountApi(http: Http) {
  return {
    async account(): Promise<Account> {
      return (await http(accountEndpoints.account)).data
    },
    async changePassword(body: ChangePasswordRequest): Promise<{ signedOut: number }> {
      return (await http(accountEndpoints.changePassword, { body })).data
    },
    async exportAccount(): Promise<AccountExport> {
      return http(accountEndpoints.exportAccount)
    },
    async deleteAccount(body: DeleteAccountRequest): Promise<void> {
      await http(accountEndpoints.deleteAccount, { body })
    },
    async listSessions(): Promise<Session[]> {
      return (await http(accountEndpoints.listSessions)).data.sessions
    },
    async revokeSession(id: string): Promise<void> {
      await http(accountEndpoints.revokeSession, { params: { id } })
    },
    async revokeOtherSessions(): Promise<{ signedOut: number }> {
      return (await http(accountEndpoints.revokeOtherSessions)).data
    },
  }
}
