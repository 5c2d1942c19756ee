/**
 * Google tokens at rest: AES-256-GCM with a key derived from APP_SECRET (HKDF-SHA-256, its own
 * label, so it is never the key that signs sessions) and the owner's user id as associated data,
 * so a row copied onto another user's record does not decrypt. Another secret kept at rest (an
 * assistant's identity secret, D117) passes its own `purpose`, and so its own key.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto'

const VERSION = 'v1'
const IV_BYTES = 12
const TAG_BYTES = 16

export type TokenCipher = {
  encrypt(plaintext: string, userId: string): string
  decrypt(sealed: string, userId: string): string
}

export class TokenDecryptError extends Error {
  constructor() {
    super('Stored Google credentials could not be decrypted')
    this.name = 'TokenDecryptError'
  }
}

export function createTokenCipher(appSecret: string, purpose = 'google-token-encryption-v1'): TokenCipher {
  const key = Buffer.from(hkdfSync('sha256', appSecret, 'docchat', purpose, 32))
  return {
    encrypt(plaintext, userId) {
      const iv = randomBytes(IV_BYTES)
      const cipher = createCipheriv('aes-256-gcm', key, iv)
      cipher.setAAD(Buffer.from(userId))
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()])
      return `${VERSION}.${Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url')}`
    },
    decrypt(sealed, userId) {
      const [version, payload] = sealed.split('.')
      if (version !== VERSION || !payload) throw new TokenDecryptError()
      const raw = Buffer.from(payload, 'base64url')
      if (raw.length < IV_BYTES + TAG_BYTES) throw new TokenDecryptError()
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES))
        decipher.setAAD(Buffer.from(userId))
        decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES))
        return Buffer.concat([
          decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)),
          decipher.final(),
        ]).toString('utf8')
      } catch {
        throw new TokenDecryptError()
      }
    },
  }
}
