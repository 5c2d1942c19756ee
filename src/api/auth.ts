/** One client function per auth endpoint; these are the deps injected into the auth machines. */
import {
  type AuthOptions,
  authEndpoints,
  type LoginRequest,
  type RegisterRequest,
  type User,
} from '#contracts/auth.ts'
import type { Http } from './client.ts'

export type AuthApi = ReturnType<typeof createAuthApi>

export function createAuthApi(http: Http) {
  return {
    async register(body: RegisterRequest): Promise<User> {
      return (await http(authEndpoints.register, { body })).data.user
    },
    async login(body: LoginRequest): Promise<User> {
      return (await http(authEndpoints.login, { body })).data.user
    },
    async logout(): Promise<void> {
      await http(authEndpoints.logout)
    },
    async fetchMe(): Promise<User> {
      return (await http(authEndpoints.me)).data
    },
    async refreshToken(): Promise<void> {
      await http(authEndpoints.refreshToken)
    },
    async options(): Promise<AuthOptions> {
      return (await http(authEndpoints.options)).data
    },
  }
}
