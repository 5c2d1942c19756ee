/**
 * The optional proof of work before a visitor's first question (ALTCHA, self-hosted, D119):
 * `createChallenge` hands the browser a challenge signed with a key derived from APP_SECRET, and
 * `verifyChallenge` accepts the widget's payload (base64 JSON of the challenge and its solution)
 * once. The work is a SHA-256 search up to a random number at most `maxNumber`; the expiry is on
 * the app's clock, carried in the challenge's signed data (altcha-lib's own `expiresAt` is judged
 * on the machine's clock, so it is not used).
 */
import { createHash } from 'node:crypto'
import {
  type Challenge,
  createChallenge as createAltchaChallenge,
  randomInt,
  verifySolution,
} from 'altcha-lib'
import { deriveKey as shaDeriveKey } from 'altcha-lib/algorithms/sha'
import { z } from 'zod'
import { deriveKey } from '../auth/tokens.ts'
import type { Db } from '../db/database.ts'
import { type ChallengesRepository, createChallengesRepository } from './challenges-repository.ts'

export const CHALLENGE_ALGORITHM = 'SHA-256'
/**
 * The largest number a browser may have to reach: SHA-256 in a page's worker does some hundreds
 * of thousands a second, so a visitor waits well under a second, a script asking in bulk pays
 * for every question.
 */
export const CHALLENGE_MAX_NUMBER = 100_000
export const CHALLENGE_TTL_MS = 10 * 60_000
const SWEEP_EVERY_MS = 60_000

export type { Challenge }

export type ChallengeVerdict =
  | { ok: true }
  | { ok: false; reason: 'malformed' | 'invalid' | 'expired' | 'used' }

export type ProofOfWorkDeps = {
  appSecret: string
  now: () => Date
  used: ChallengesRepository
  maxNumber?: number
  ttlMs?: number
}

/** What the widget sends (altcha 3: `btoa(JSON.stringify({ challenge, solution }))`). */
const PayloadSchema = z.object({
  challenge: z.object({
    parameters: z.looseObject({
      algorithm: z.string(),
      nonce: z.string(),
      salt: z.string(),
      cost: z.number(),
      keyLength: z.number(),
      keyPrefix: z.string(),
      data: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).optional(),
    }),
    signature: z.string().min(1).max(512),
  }),
  solution: z.object({ counter: z.number(), derivedKey: z.string().max(512), time: z.number().optional() }),
})

function decode(payload: string): z.infer<typeof PayloadSchema> | null {
  try {
    const parsed = PayloadSchema.safeParse(JSON.parse(Buffer.from(payload, 'base64').toString('utf8')))
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}

const hex = (key: Uint8Array) => Buffer.from(key).toString('hex')

/** `createChallenge` and `verifyChallenge` on the database's record of used solutions. */
export function createProofOfWork(deps: ProofOfWorkDeps) {
  const signatureSecret = hex(deriveKey(deps.appSecret, 'docchat altcha challenge v1'))
  const keySignatureSecret = hex(deriveKey(deps.appSecret, 'docchat altcha key v1'))
  const maxNumber = deps.maxNumber ?? CHALLENGE_MAX_NUMBER
  const ttlMs = deps.ttlMs ?? CHALLENGE_TTL_MS
  let lastSweep = Number.NEGATIVE_INFINITY

  async function sweep(at: Date): Promise<void> {
    if (at.getTime() - lastSweep < SWEEP_EVERY_MS) return
    lastSweep = at.getTime()
    await deps.used.deleteExpired(at)
  }

  return {
    /** A new challenge; `scope` (the assistant's public id) binds its solution to that assistant. */
    async createChallenge(scope = ''): Promise<Challenge> {
      const expires = Math.floor((deps.now().getTime() + ttlMs) / 1000)
      return createAltchaChallenge({
        algorithm: CHALLENGE_ALGORITHM,
        cost: 1,
        counter: randomInt(maxNumber),
        deriveKey: shaDeriveKey,
        data: { expires, scope },
        hmacSignatureSecret: signatureSecret,
        hmacKeySignatureSecret: keySignatureSecret,
      })
    },

    /** Accepts a solved challenge of ours, for `scope`, unexpired, the first time only. */
    async verifyChallenge(payload: string, scope = ''): Promise<ChallengeVerdict> {
      const at = deps.now()
      await sweep(at)
      const decoded = decode(payload)
      if (!decoded) return { ok: false, reason: 'malformed' }
      const result = await verifySolution({
        challenge: decoded.challenge,
        solution: decoded.solution,
        deriveKey: shaDeriveKey,
        hmacSignatureSecret: signatureSecret,
        hmacKeySignatureSecret: keySignatureSecret,
      }).catch(() => null)
      if (!result?.verified) return { ok: false, reason: 'invalid' }
      // Signed by us, so these are the values createChallenge wrote.
      const data = decoded.challenge.parameters.data ?? {}
      if (data.scope !== scope || typeof data.expires !== 'number') return { ok: false, reason: 'invalid' }
      const expiresAt = new Date(data.expires * 1000)
      if (expiresAt <= at) return { ok: false, reason: 'expired' }
      const signatureHash = createHash('sha256').update(decoded.challenge.signature).digest('hex')
      if (!(await deps.used.markUsed(signatureHash, expiresAt))) return { ok: false, reason: 'used' }
      return { ok: true }
    },
  }
}

export type ProofOfWork = ReturnType<typeof createProofOfWork>

/** The proof of work on the app's database (what a plugin builds). */
export function proofOfWorkOn(db: Db, deps: Omit<ProofOfWorkDeps, 'used'>): ProofOfWork {
  return createProofOfWork({ ...deps, used: createChallengesRepository(db) })
}
