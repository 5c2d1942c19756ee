/**
 * Who a visitor is (issue 37, D118). Anonymous by default: a random id in a first-party cookie of
 * our origin (visitor-cookie.ts). Signed: the host site signs a short JWT for its signed-in user
 * with the assistant's identity secret; it is verified here and then the visitor is `sub:` + its
 * subject on every device. Only HS256 is accepted (never `none`, never another algorithm, so a
 * public key cannot be passed off as the secret); `aud` must be this assistant's public id, `sub`
 * present, and `exp` present and at most MAX_TOKEN_LIFETIME_SECONDS ahead of now (and of `iat`).
 * Expiry is judged on the injected clock. A token that fails any check is refused, never trusted.
 */
import { errors, jwtVerify } from 'jose'
import { UserTokenRefused } from './publishing-errors.ts'

export const MAX_TOKEN_LIFETIME_SECONDS = 600
/** Clocks of two servers differ a little: an `iat` this far ahead is still believed. */
const CLOCK_SKEW_SECONDS = 30
const NAME_MAX = 200
const EMAIL_MAX = 320

export type SignedVisitor = { sub: string; name: string | null; email: string | null }

export async function verifyUserToken(
  token: string,
  { secret, publicId, now }: { secret: string | null; publicId: string; now: Date },
): Promise<SignedVisitor> {
  if (secret === null) throw new UserTokenRefused(false)
  let payload: Record<string, unknown>
  try {
    ;({ payload } = await jwtVerify(token, new TextEncoder().encode(secret), {
      algorithms: ['HS256'],
      audience: publicId,
      requiredClaims: ['exp', 'sub'],
      currentDate: now,
    }))
  } catch (error) {
    throw new UserTokenRefused(error instanceof errors.JWTExpired)
  }
  const nowSeconds = Math.floor(now.getTime() / 1000)
  const exp = payload.exp as number
  const iat = typeof payload.iat === 'number' ? payload.iat : null
  const tooLong =
    exp - nowSeconds > MAX_TOKEN_LIFETIME_SECONDS ||
    (iat !== null && (exp - iat > MAX_TOKEN_LIFETIME_SECONDS || iat > nowSeconds + CLOCK_SKEW_SECONDS))
  const sub = payload.sub
  if (tooLong || typeof sub !== 'string' || sub.length === 0 || sub.length > 200) {
    throw new UserTokenRefused(false)
  }
  return { sub, name: text(payload.name, NAME_MAX), email: text(payload.email, EMAIL_MAX) }
}

function text(value: unknown, max: number): string | null {
  if (typeof value !== 'string') return null
  const trimmed = value.trim()
  return trimmed ? trimmed.slice(0, max) : null
}
