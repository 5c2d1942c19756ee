import type { User } from '#contracts/auth.ts'
import type { CurrentUser } from './auth-service.ts'

// /auth/me answers the same cached user object many times a second: build its DTO once.
const dtos = new WeakMap<CurrentUser, User>()

/** The wire shape of a person (contracts/auth.ts UserSchema): never a hash, never a token. */
export function toUserDto(user: CurrentUser): User {
  let dto = dtos.get(user)
  if (!dto) {
    dto = { _id: user.id, email: user.email, createdAt: user.createdAt.toISOString() }
    dtos.set(user, dto)
  }
  return dto
}
