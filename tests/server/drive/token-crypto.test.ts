import { expect, test } from 'vitest'
import { createTokenCipher, TokenDecryptError } from '#server/drive/token-crypto.ts'

const cipher = createTokenCipher('an-app-secret-that-is-long-enough-for-tests-123')
const secret = JSON.stringify({ refresh_token: '1//refresh-token-value', access_token: 'ya29.access' })

test('tokens round-trip for their owner and never appear in the sealed text', () => {
  const sealed = cipher.encrypt(secret, 'user-a')
  expect(sealed).not.toContain('refresh-token-value')
  expect(sealed).not.toContain('ya29')
  expect(cipher.decrypt(sealed, 'user-a')).toBe(secret)
})

test('the same plaintext seals differently each time (fresh IV)', () => {
  expect(cipher.encrypt(secret, 'user-a')).not.toBe(cipher.encrypt(secret, 'user-a'))
})

test('a row moved to another user, a tampered row, or another secret does not decrypt', () => {
  const sealed = cipher.encrypt(secret, 'user-a')
  expect(() => cipher.decrypt(sealed, 'user-b')).toThrow(TokenDecryptError)
  const tampered = `${sealed.slice(0, -2)}${sealed.endsWith('A') ? 'B' : 'A'}A`
  expect(() => cipher.decrypt(tampered, 'user-a')).toThrow(TokenDecryptError)
  const other = createTokenCipher('a-different-app-secret-that-is-long-enough-456')
  expect(() => other.decrypt(sealed, 'user-a')).toThrow(TokenDecryptError)
  expect(() => cipher.decrypt('garbage', 'user-a')).toThrow(TokenDecryptError)
})
