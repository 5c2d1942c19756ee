/**
 * Personal API keys (D124) belong in the Authorization header only. A key in an address is kept
 * in logs, proxies and histories, so any request whose address carries something shaped like one
 * is refused (request-guards.ts), whatever the route, and the request line logs it redacted
 * (request-logger.ts). The shape is loose on purpose: `dc_` and 20 or more base64url characters
 * (a key has 43), percent-encoded or not.
 */
import { API_KEY_PREFIX } from '#contracts/api-keys.ts'

const KEY_LOOKALIKE = new RegExp(`${API_KEY_PREFIX}[A-Za-z0-9_-]{20,}`, 'g')
const ENCODED_PREFIX = /dc(%5f|_)/i

export const API_KEY_IN_ADDRESS =
  'API keys are accepted only in the Authorization header ("Authorization: Bearer dc_…"), never in the address. Addresses are kept in logs and histories: revoke this key in Settings → API keys and make another.'

/** Whether `url` (path and query, as received) carries something shaped like a key. */
export function carriesApiKey(url: string): boolean {
  // The common case, a url without `dc_` anywhere, costs one scan and no decoding.
  if (!ENCODED_PREFIX.test(url)) return false
  KEY_LOOKALIKE.lastIndex = 0
  return KEY_LOOKALIKE.test(safeDecode(url))
}

/** `text` with anything shaped like a key replaced. */
export function redactApiKeys(text: string): string {
  return text.replace(KEY_LOOKALIKE, `${API_KEY_PREFIX}[redacted]`)
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}
