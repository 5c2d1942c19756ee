/** One client function per mailed-link call (contracts/account-links.ts), built in those screens' own chunk. */
import { accountLinkEndpoints, type ResetPasswordRequest } from '#contracts/account-links.ts'
import type { Http } from './client.ts'

export type AccountLinksApi = ReturnType<typeof createAccountLinksApi>

export function createAccountLinksApi(http: Http) {
  return {
    async forgotPassword(email: string): Promise<void> {
      await http(accountLinkEndpoints.forgotPassword, { body: { email } })
    },
    async resetPassword(body: ResetPasswordRequest): Promise<void> {
      await http(accountLinkEndpoints.resetPassword, { body })
    },
    async confirmEmail(token: string): Promise<void> {
      await http(accountLinkEndpoints.confirmEmail, { body: { token } })
    },
  }
}
