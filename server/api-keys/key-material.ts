/**
 * A key's text and what is kept of it (D124). A key is `dc_` and 32 random bytes in base64url
 * (256 bits: never guessed, so a keyed hash needs no slow function). What is stored is its
 * HMAC-SHA256 under a key derived from APP_SECRET for this use alone (as the identity secrets'
 * sealing key is, with its own label): a copy of the table without APP_SECRET cannot confirm a
 * guessed key, and the lookup is one equality on an indexed column.
 */
import { createHmac, randomBytes } from 'node:crypto'
import { API_KEY_PREFIX } from '#contracts/api-keys.ts'
import { deriveKey } from '../auth/tokens.ts'

const KEY_BYTES = 32
/** base64url of 32 bytes, no padding. */
const KEY_BODY_LENGTH = 43
/** Characters of the key after `dc_` the list shows. */
const SHOWN_CHARACTERS = 8
const HASH_PURPOSE = 'docchat api key hash v1'
const KEY_SHAPE = new RegExp(`^${API_KEY_PREFIX}[A-Za-z0-9_-]{${KEY_BODY_LENGTH}}$`)
/** Anything that looks like one of our keys, wherever it appears (a query string, a log line). */
export const KEY_LOOKALIKE = new RegExp(`${API_KEY_PREFIX}[A-Za-z0-9_-]{20,}`, 'g')

export type KeyHasher = (key: string) => string

export function createKeyHasher(appSecret: string): KeyHasher {
  const hashKey = deriveKey(appSecret, HASH_PURPOSE)
  return (key) => createHmac('sha256', hashKey).update(key).digest('base64url')
}

export function newKey(): { key: string; prefix: string } {
  const key = `${API_KEY_PREFIX}${randomBytes(KEY_BYTES).toString('base64url')}`
  return { key, prefix: key.slice(0, API_KEY_PREFIX.length + SHOWN_CHARACTERS) }
}

export function isKeyShaped(text: string): boolean {
  return KEY_SHAPE.test(text)
}
