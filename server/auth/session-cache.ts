/**
 * What the session check behind every authenticated request would otherwise ask the database:
 * verified access tokens, whether a sign-in (family) is live, and who a user is. PGlite answers
 * ~2.5k queries/s, a bare route ~23k req/s (docs/architecture.md, platform facts), so the hot path must not query.
 * Revocation in this process updates the cache at once. On PostgreSQL other instances hear of it
 * through LISTEN/NOTIFY (shared-revocations.ts); a live family entry is also re-read after
 * FAMILY_RECHECK_MS, or after the shorter interval the caller passes while notifications may be
 * missed, so a revocation made elsewhere lands within a bound either way (D39).
 */
import type { AccessClaims } from './tokens.ts'

export const FAMILY_RECHECK_MS = 30_000
const MAX_ENTRIES = 10_000

export type CachedUser = { id: string; email: string; createdAt: Date }
type FamilyState = { userId: string; live: boolean; expiresAt: number; checkedAt: number }

/** Insertion-ordered map that forgets its oldest entry past `max`: a cheap bound, not an LRU. */
class BoundedMap<K, V> {
  readonly #map = new Map<K, V>()
  readonly #max: number

  constructor(max: number) {
    this.#max = max
  }

  get(key: K): V | undefined {
    return this.#map.get(key)
  }

  set(key: K, value: V): void {
    this.#map.delete(key)
    this.#map.set(key, value)
    if (this.#map.size > this.#max) {
      const oldest = this.#map.keys().next()
      if (!oldest.done) this.#map.delete(oldest.value)
    }
  }

  delete(key: K): void {
    this.#map.delete(key)
  }

  clear(): void {
    this.#map.clear()
  }
}

export type SessionCache = ReturnType<typeof createSessionCache>

export function createSessionCache(maxEntries = MAX_ENTRIES) {
  // Keyed by the token's signature, the last 43 characters: a Map hashes its key on every lookup,
  // and the cookie hands us a new ~300-character string on every request. The whole token is
  // still compared before its claims are trusted.
  const tokens = new BoundedMap<string, { token: string; claims: AccessClaims }>(maxEntries)
  const families = new BoundedMap<string, FamilyState>(maxEntries)
  const users = new BoundedMap<string, CachedUser>(maxEntries)

  return {
    /** Claims of a token verified before, while it is unexpired. */
    token(token: string, nowMs: number): AccessClaims | undefined {
      const key = signatureOf(token)
      const entry = tokens.get(key)
      if (entry === undefined || entry.token !== token) return undefined
      if (entry.claims.expiresAt * 1000 <= nowMs) {
        tokens.delete(key)
        return undefined
      }
      return entry.claims
    },
    rememberToken(token: string, claims: AccessClaims): void {
      tokens.set(signatureOf(token), { token, claims })
    },

    /** undefined: not known or due for a re-read (a live entry older than `recheckMs`). */
    family(familyId: string, nowMs: number, recheckMs = FAMILY_RECHECK_MS): FamilyState | undefined {
      const state = families.get(familyId)
      if (state?.live && nowMs - state.checkedAt > recheckMs) return undefined
      return state
    },
    /** Forgets every family: revocations may have been missed, so each is read again. */
    forgetFamilies(): void {
      families.clear()
    },
    rememberFamily(familyId: string, state: FamilyState): void {
      // A read that started before a revocation must not bring the family back to life.
      if (families.get(familyId)?.live === false) return
      families.set(familyId, state)
    },
    /** Revocation is final, so a dead family never needs another read. */
    markFamilyRevoked(familyId: string, userId: string, nowMs: number): void {
      families.set(familyId, { userId, live: false, expiresAt: 0, checkedAt: nowMs })
    },

    user(userId: string): CachedUser | undefined {
      return users.get(userId)
    },
    rememberUser(user: CachedUser): void {
      users.set(user.id, user)
    },
    forgetUser(userId: string): void {
      users.delete(userId)
    },
  }
}

/** A JWT's last segment (its signature); the whole string for anything else. */
function signatureOf(token: string): string {
  return token.slice(token.lastIndexOf('.') + 1)
}
