/**
 * What the auth service (auth-service.ts) is built on: its dependencies with the session cache
 * (`Auth`), and the steps its calls share, each a function taking it: the signed-in person and
 * their access token looked up through the cache, a sign-in (refresh-token family) started with
 * its tokens, and sign-ins ended here and on every other instance (D39).
 */
import type { SessionTokens } from './cookies.ts'
import type { CachedUser, SessionCache } from './session-cache.ts'
import type { RevokeReason, SessionsRepository } from './sessions-repository.ts'
import type { SharedRevocations } from './shared-revocations.ts'
import {
  type AccessClaims,
  FAMILY_MAX_AGE_MS,
  hashRefreshToken,
  newRefreshToken,
  REFRESH_TOKEN_TTL_MS,
  signAccessToken,
  verifyAccessToken,
} from './tokens.ts'
import type { UserRecord, UsersRepository } from './users-repository.ts'

/** The signed-in person, as routes see it (`request.user`). */
export type CurrentUser = CachedUser

export type SignedIn = { user: CurrentUser; tokens: SessionTokens; familyId: string }

/** Who a valid access token speaks for, and which sign-in it belongs to. */
export type Session = { user: CurrentUser; familyId: string }

/** Where a sign-in comes from, kept for the sessions list. */
export type SignInContext = { userAgent: string | null; address: string | null }

/** A user agent is kept for display only: a few hundred characters say all there is to say. */
const USER_AGENT_MAX = 512

export type AuthDeps = {
  users: UsersRepository
  sessions: SessionsRepository
  accessTokenKey: Uint8Array
  /** deriveRefreshSuccessorKey(APP_SECRET): successors are derived from the token they replace. */
  successorKey: Uint8Array
  now: () => Date
  /** Other instances' revocations (PostgreSQL); absent: this process is the only one. */
  revocations?: SharedRevocations
}

/** The auth service's dependencies and its cache of users, tokens and sign-ins. */
export type Auth = AuthDeps & { cache: SessionCache }

export function remember({ cache }: Auth, record: UserRecord): CurrentUser {
  const user = { id: record.id, email: record.email, createdAt: record.createdAt }
  cache.rememberUser(user)
  return user
}

export async function userById(auth: Auth, id: string): Promise<CurrentUser | null> {
  const cached = auth.cache.user(id)
  if (cached) return cached
  const record = await auth.users.findById(id)
  return record ? remember(auth, record) : null
}

export async function claimsOf(
  { cache, accessTokenKey }: Auth,
  token: string,
  at: Date,
): Promise<AccessClaims | null> {
  const cached = cache.token(token, at.getTime())
  if (cached) return cached
  const claims = await verifyAccessToken(accessTokenKey, token, at)
  if (claims) cache.rememberToken(token, claims)
  return claims
}

export async function familyIsLive(
  { cache, sessions, revocations }: Auth,
  familyId: string,
  userId: string,
  at: Date,
): Promise<boolean> {
  const atMs = at.getTime()
  let state = cache.family(familyId, atMs, revocations?.recheckMs())
  if (!state) {
    const family = await sessions.findFamily(familyId)
    if (!family) return false
    state = {
      userId: family.userId,
      live: family.revokedAt === null,
      expiresAt: family.expiresAt.getTime(),
      checkedAt: atMs,
    }
    cache.rememberFamily(familyId, state)
  }
  return state.live && state.userId === userId && state.expiresAt > atMs
}

export async function revoke(
  { sessions, cache, revocations, now }: Auth,
  familyId: string,
  userId: string,
  reason: RevokeReason,
): Promise<void> {
  const at = now()
  await sessions.revokeFamily(familyId, reason, at)
  cache.markFamilyRevoked(familyId, userId, at.getTime())
  await revocations?.publish(familyId, userId)
}

/** Every sign-in of the account but `exceptFamilyId` ends, here and on every instance (D39). */
export async function revokeAll(
  { sessions, cache, revocations, now }: Auth,
  userId: string,
  reason: RevokeReason,
  exceptFamilyId?: string,
): Promise<number> {
  const at = now()
  const revoked = await sessions.revokeAllOf(userId, reason, at, exceptFamilyId)
  for (const familyId of revoked) {
    cache.markFamilyRevoked(familyId, userId, at.getTime())
    await revocations?.publish(familyId, userId)
  }
  return revoked.length
}

/** A new sign-in (refresh-token family) for an account already checked, with its tokens. */
export async function startSession(
  auth: Auth,
  record: UserRecord,
  context: SignInContext,
): Promise<SignedIn> {
  const at = auth.now()
  const refreshToken = newRefreshToken()
  const familyExpiresAt = new Date(at.getTime() + FAMILY_MAX_AGE_MS)
  const refreshExpiresAt = new Date(at.getTime() + REFRESH_TOKEN_TTL_MS)
  const family = await auth.sessions.startFamily({
    userId: record.id,
    now: at,
    familyExpiresAt,
    tokenHash: hashRefreshToken(refreshToken),
    tokenExpiresAt: refreshExpiresAt,
    userAgent: context.userAgent?.slice(0, USER_AGENT_MAX) ?? null,
    address: context.address,
  })
  auth.cache.rememberFamily(family.id, {
    userId: record.id,
    live: true,
    expiresAt: familyExpiresAt.getTime(),
    checkedAt: at.getTime(),
  })
  const user = remember(auth, record)
  return {
    user,
    familyId: family.id,
    tokens: await issueTokens(auth, user, family.id, refreshToken, refreshExpiresAt, at),
  }
}

export async function issueTokens(
  { accessTokenKey }: Auth,
  user: CurrentUser,
  familyId: string,
  refreshToken: string,
  refreshExpiresAt: Date,
  issuedAt: Date,
) {
  const access = await signAccessToken(accessTokenKey, { userId: user.id, familyId, now: issuedAt })
  const tokens: SessionTokens = {
    issuedAt,
    accessToken: access.token,
    accessExpiresAt: access.expiresAt,
    refreshToken,
    refreshExpiresAt,
  }
  return tokens
}
