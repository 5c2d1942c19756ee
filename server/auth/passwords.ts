/**
 * Password hashing: argon2id, m=19456 KiB, t=2, p=1 (the OWASP baseline). @node-rs/argon2 runs on
 * the libuv thread pool, so a hash (~14 ms here) does not block the event loop.
 */
import { randomBytes } from 'node:crypto'
import { hash, verify } from '@node-rs/argon2'

// argon2id is the library's default algorithm; its `Algorithm` const enum can't be imported
// under isolatedModules. The hash prefix test in tests/server pins all four parameters.
const ARGON2_OPTIONS = { memoryCost: 19456, timeCost: 2, parallelism: 1, outputLen: 32 }

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS)
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password)
  } catch {
    // A malformed stored hash is a failed sign-in, not a 500.
    return false
  }
}

let dummyHash: Promise<string> | undefined

/**
 * Spends one verify for an email that has no account, so a wrong email and a wrong password take
 * the same time and the login form can't be used to find out who has an account.
 */
export async function spendDummyVerify(password: string): Promise<false> {
  dummyHash ??= hashPassword(randomBytes(16).toString('base64url'))
  await verifyPassword(await dummyHash, password)
  return false
}

/** Computes the dummy hash ahead of the first unknown-email login. */
export function warmUpDummyHash(): void {
  dummyHash ??= hashPassword(randomBytes(16).toString('base64url'))
}
