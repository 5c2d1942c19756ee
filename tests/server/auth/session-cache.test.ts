import { expect, test } from 'vitest'
import { createSessionCache } from '#server/auth/session-cache.ts'

const NOW = Date.parse('2026-11-22T10:00:00Z')
const claims = { userId: 'user-1', familyId: 'family-1', expiresAt: NOW / 1000 + 900 }
const token = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c2VyLTEifQ.c2lnbmF0dXJlLW9mLXRoZS1yZWFsLXRva2VuLTAxMjM0'

test('a remembered token gives back its claims, also when the cookie brings a new copy of the string', () => {
  const cache = createSessionCache()
  cache.rememberToken(token, claims)
  expect(cache.token(token.split('').join(''), NOW)).toEqual(claims)
})

test('another token that ends with the same signature is not taken for the remembered one', () => {
  const cache = createSessionCache()
  cache.rememberToken(token, claims)
  const [, , signature] = token.split('.')
  const forged = `eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZG1pbiJ9.${signature}`
  expect(cache.token(forged, NOW)).toBeUndefined()
  expect(cache.token(token, NOW)).toEqual(claims)
})

test('an expired token is forgotten', () => {
  const cache = createSessionCache()
  cache.rememberToken(token, claims)
  expect(cache.token(token, claims.expiresAt * 1000)).toBeUndefined()
  expect(cache.token(token, NOW)).toBeUndefined()
})

test('the cache keeps at most its bound, forgetting the oldest first', () => {
  const cache = createSessionCache(2)
  const tokens = ['a.b.one', 'a.b.two', 'a.b.three']
  for (const t of tokens) cache.rememberToken(t, claims)
  expect(tokens.map((t) => cache.token(t, NOW) !== undefined)).toEqual([false, true, true])
})
