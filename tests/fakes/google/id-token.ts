/**
 * OpenID Connect ID tokens, signed RS256 with a key made at start, and the two key documents
 * Google publishes (PEM map at /oauth2/v1/certs, JWKS at /oauth2/v3/certs), so
 * `OAuth2Client.verifyIdToken` works when its certs endpoints point here.
 */
import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto'

export const ID_TOKEN_ISSUER = 'https://accounts.google.com'

export type IdTokenClaims = {
  aud: string
  sub: string
  email?: string
  /** Whether Google verified `email` (default true). */
  emailVerified?: boolean
  name?: string
  nonce?: string
  accessToken: string
  lifetimeSeconds: number
  now: number
}

export type SigningKey = ReturnType<typeof createSigningKey>

export function createSigningKey() {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
  const kid = randomBytes(20).toString('hex')
  return { kid, privateKey, publicKey }
}

const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')

/** at_hash: the left half of SHA-256 of the access token (OIDC Core 3.1.3.6). */
function atHash(accessToken: string): string {
  const digest = createHash('sha256').update(accessToken).digest()
  return digest.subarray(0, digest.length / 2).toString('base64url')
}

export function signIdToken(key: { kid: string; privateKey: KeyObject }, claims: IdTokenClaims): string {
  const iat = Math.floor(claims.now / 1000)
  const payload = {
    iss: ID_TOKEN_ISSUER,
    azp: claims.aud,
    aud: claims.aud,
    sub: claims.sub,
    ...(claims.email ? { email: claims.email, email_verified: claims.emailVerified ?? true } : {}),
    at_hash: atHash(claims.accessToken),
    ...(claims.nonce ? { nonce: claims.nonce } : {}),
    ...(claims.name ? { name: claims.name } : {}),
    iat,
    exp: iat + claims.lifetimeSeconds,
  }
  const input = `${encode({ alg: 'RS256', kid: key.kid, typ: 'JWT' })}.${encode(payload)}`
  return `${input}.${sign('sha256', Buffer.from(input), key.privateKey).toString('base64url')}`
}

/** Signs any claims with the emulator's key, as Google would (for forged-token tests). */
export function signClaims(
  key: { kid: string; privateKey: KeyObject },
  claims: Record<string, unknown>,
): string {
  const input = `${encode({ alg: 'RS256', kid: key.kid, typ: 'JWT' })}.${encode(claims)}`
  return `${input}.${sign('sha256', Buffer.from(input), key.privateKey).toString('base64url')}`
}

export function pemCerts(key: { kid: string; publicKey: KeyObject }): Record<string, string> {
  return { [key.kid]: key.publicKey.export({ type: 'spki', format: 'pem' }).toString() }
}

export function jwks(key: { kid: string; publicKey: KeyObject }) {
  return { keys: [{ ...key.publicKey.export({ format: 'jwk' }), kid: key.kid, alg: 'RS256', use: 'sig' }] }
}
