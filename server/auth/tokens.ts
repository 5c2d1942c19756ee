/**
 * The two session tokens. Access: a short-lived HS256 JWT naming its user (sub) and its sign-in
 * (fid, the refresh-token family), so revoking the family kills it at once. Refresh: 256 random
 * bits, stored only as a sha-256 hash.
 */
import { createHash, createHmac, hkdfSync, randomBytes, randomUUID } from 'node:crypto'
import { errors, jwtVerify, SignJWT } from 'jose'

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60
export const REFRESH_TOKEN_TTL_MS = 7 * 24 * 60 * 60 * 1000
/**
 * How long a just-rotated refresh token still answers, with the same successor, so two tabs that
 * refresh at the same moment both stay signed in (D36). After it, reuse revokes the family.
 */
export const REFRESH_GRACE_MS = 10_000
/** A sign-in ends after this however often it is refreshed. */
export const FAMILY_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000

export type AccessClaims = {
  userId: string
  familyId: string
  /** Seconds since the epoch, as in the JWT. */
  expiresAt: number
}

/** Key separation: each key is derived from APP_SECRET for one use, never APP_SECRET itself. */
export function deriveKey(appSecret: string, use: string): Uint8Array {
  return new Uint8Array(hkdfSync('sha256', appSecret, 'docchat', use, 32))
}

export function deriveAccessTokenKey(appSecret: string): Uint8Array {
  return deriveKey(appSecret, 'docchat access token v1')
}

export async function signAccessToken(
  key: Uint8Array,
  input: { userId: string; familyId: string; now: Date; ttlSeconds?: number },
): Promise<{ token: string; expiresAt: Date }> {
  const issuedAt = Math.floor(input.now.getTime() / 1000)
  const expiresAt = issuedAt + (input.ttlSeconds ?? ACCESS_TOKEN_TTL_SECONDS)
  const token = await new SignJWT({ fid: input.familyId })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(input.userId)
    .setIssuedAt(issuedAt)
    .setExpirationTime(expiresAt)
    .setJti(randomUUID())
    .sign(key)
  return { token, expiresAt: new Date(expiresAt * 1000) }
}

/** Null for anything that is not a valid, unexpired token signed with `key`. */
export async function verifyAccessToken(
  key: Uint8Array,
  token: string,
  now: Date,
): Promise<AccessClaims | null> {
  try {
    const { payload } = await jwtVerify(token, key, {
      algorithms: ['HS256'],
      currentDate: now,
      requiredClaims: ['sub', 'exp', 'iat', 'jti', 'fid'],
    })
    // Both ids reach a uuid column: anything else would be a database error, not a 401.
    if (!isUuid(payload.sub) || !isUuid(payload.fid) || payload.exp === undefined) return null
    return { userId: payload.sub, familyId: payload.fid, expiresAt: payload.exp }
  } catch (error) {
    if (error instanceof errors.JOSEError) return null
    throw error
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value)
}

export function newRefreshToken(): string {
  return randomBytes(32).toString('base64url')
}

/** The key successors are derived with (separate from the JWT key). */
export function deriveRefreshSuccessorKey(appSecret: string): Uint8Array {
  return deriveKey(appSecret, 'docchat refresh successor v1')
}

/**
 * The token that replaces `used` when it is rotated: derived from it with a server key, so a
 * second presentation within the grace interval can hand out the very same successor without the
 * server ever storing a refresh token in the clear.
 */
export function successorRefreshToken(key: Uint8Array, used: string): string {
  return createHmac('sha256', key).update(used).digest('base64url')
}

export function hashRefreshToken(token: string): string {
  return createHash('sha256').update(token).digest('hex')
}
