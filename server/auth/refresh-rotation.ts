/**
 * Refreshing a sign-in with rotation (the auth service's `refresh`): each refresh token works
 * once. A used one presented again means it was copied, so the whole sign-in is revoked, the
 * successor and its access tokens included; except within REFRESH_GRACE_MS of its rotation, when
 * a second tab that refreshed at the same moment gets the same new token.
 */
import type { FastifyBaseLogger } from 'fastify'
import type { FamilyRecord, RefreshTokenRecord } from './sessions-repository.ts'
import { type Auth, issueTokens, revoke, type SignedIn, userById } from './sign-ins.ts'
import { hashRefreshToken, REFRESH_GRACE_MS, REFRESH_TOKEN_TTL_MS, successorRefreshToken } from './tokens.ts'

export async function refresh(
  auth: Auth,
  refreshToken: string | undefined,
  log: FastifyBaseLogger,
): Promise<SignedIn | null> {
  if (!refreshToken) return null
  const found = await auth.sessions.findToken(hashRefreshToken(refreshToken))
  if (!found) {
    log.info({ event: 'auth.refresh.unknown' }, 'refresh refused: unknown token')
    return null
  }
  const { token, family } = found
  const at = auth.now()
  if (family.revokedAt !== null || family.expiresAt <= at) {
    log.info({ event: 'auth.refresh.ended', userId: family.userId }, 'refresh refused: sign-in ended')
    return null
  }
  if (token.usedAt !== null) return refreshAgain(auth, refreshToken, token.usedAt, family, at, log)
  if (token.expiresAt <= at) {
    log.info({ event: 'auth.refresh.expired', userId: family.userId }, 'refresh refused: token expired')
    return null
  }
  return rotate(auth, refreshToken, token, family, at, log)
}

/** A used token presented again: its successor once more within the grace interval, else reuse. */
async function refreshAgain(
  auth: Auth,
  used: string,
  usedAt: Date,
  family: FamilyRecord,
  at: Date,
  log: FastifyBaseLogger,
): Promise<SignedIn | null> {
  const again = await withinGrace(auth, used, usedAt, at)
  if (!again) return reused(auth, family, log)
  const user = await userById(auth, family.userId)
  if (!user) return null
  log.info(
    { event: 'auth.refresh.grace', userId: user.id },
    'session refreshed again within the grace interval',
  )
  return {
    user,
    familyId: family.id,
    tokens: await issueTokens(auth, user, family.id, again.token, again.expiresAt, at),
  }
}

/** The token's successor, stored as the one unused token of the sign-in. */
async function rotate(
  auth: Auth,
  refreshToken: string,
  token: RefreshTokenRecord,
  family: FamilyRecord,
  at: Date,
  log: FastifyBaseLogger,
): Promise<SignedIn | null> {
  const next = successorRefreshToken(auth.successorKey, refreshToken)
  const nextExpiresAt = new Date(Math.min(at.getTime() + REFRESH_TOKEN_TTL_MS, family.expiresAt.getTime()))
  const rotated = await auth.sessions.rotate({
    usedTokenId: token.id,
    familyId: family.id,
    now: at,
    tokenHash: hashRefreshToken(next),
    tokenExpiresAt: nextExpiresAt,
  })
  // A concurrent rotation used it first: presented twice, as a copy would be.
  if (!rotated) return reused(auth, family, log)
  const user = await userById(auth, family.userId)
  if (!user) return null
  log.info({ event: 'auth.refresh', userId: user.id }, 'session refreshed')
  return {
    user,
    familyId: family.id,
    tokens: await issueTokens(auth, user, family.id, next, nextExpiresAt, at),
  }
}

async function reused(auth: Auth, family: FamilyRecord, log: FastifyBaseLogger): Promise<null> {
  await revoke(auth, family.id, family.userId, 'reuse')
  log.warn({ event: 'auth.refresh.reuse', userId: family.userId }, 'refresh token reused: sign-in revoked')
  return null
}

/**
 * The successor of `used` when `used` was rotated at most REFRESH_GRACE_MS ago and its successor
 * is still unused: a second tab that refreshed at the same moment gets the same new token.
 */
async function withinGrace(auth: Auth, used: string, usedAt: Date, at: Date) {
  if (at.getTime() - usedAt.getTime() > REFRESH_GRACE_MS) return null
  const token = successorRefreshToken(auth.successorKey, used)
  const successor = await auth.sessions.findToken(hashRefreshToken(token))
  if (!successor || successor.token.usedAt !== null || successor.token.expiresAt <= at) return null
  return { token, expiresAt: successor.token.expiresAt }
}
