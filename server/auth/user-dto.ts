import type { User } from '#contracts/auth.ts'
import type { CurrentUser } from './auth-service.ts'

/** The wire shape of a person (contracts/auth.ts UserSchema): never a hash, never a token. */
export function toUserDto(user: CurrentUser): User {
  return { _id: user.id, email: user.email, createdAt: user.createdAt.toISOString() }
}
