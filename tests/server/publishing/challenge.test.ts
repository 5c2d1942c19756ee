/**
 * The proof of work (ALTCHA, D119), solved with altcha-lib's own solver as the widget would:
 * a solution is accepted once (on any instance), within its expiry on the app's clock, for the
 * assistant it was made for, and only when it is ours and right.
 */
import { solveChallenge } from 'altcha-lib'
import { deriveKey } from 'altcha-lib/algorithms/sha'
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { App } from '#server/app.ts'
import { CHALLENGE_TTL_MS, type Challenge, proofOfWorkOn } from '#server/publishing/challenge.ts'
import { buildTestApp, TEST_APP_SECRET } from '../support/helper.ts'

const MAX_NUMBER = 2000

let app: App

beforeAll(async () => {
  app = await buildTestApp()
})
afterAll(async () => {
  await app?.close()
})

function testClock() {
  let at = Date.now() - 3 * 24 * 3600_000 // days from the machine's time: only the app's clock counts
  return {
    now: () => new Date(at),
    advance: (ms: number) => {
      at += ms
    },
  }
}

function proofOfWork(clock = testClock(), appSecret = TEST_APP_SECRET) {
  return proofOfWorkOn(app.db, { appSecret, now: clock.now, maxNumber: MAX_NUMBER })
}

/** Solves as the widget does and encodes its payload (base64 JSON of the challenge and solution). */
async function solved(challenge: Challenge): Promise<{ payload: string; counter: number }> {
  const solution = await solveChallenge({ challenge, deriveKey })
  if (!solution) throw new Error('no solution found')
  const payload = Buffer.from(
    JSON.stringify({
      challenge: { parameters: challenge.parameters, signature: challenge.signature },
      solution,
    }),
  ).toString('base64')
  return { payload, counter: solution.counter }
}

test('a solved challenge is accepted once; the same solution again is refused as used', async () => {
  const pow = proofOfWork()
  const { payload, counter } = await solved(await pow.createChallenge('pub-1'))

  expect(counter).toBeLessThanOrEqual(MAX_NUMBER)
  expect(await pow.verifyChallenge(payload, 'pub-1')).toEqual({ ok: true })
  expect(await pow.verifyChallenge(payload, 'pub-1')).toEqual({ ok: false, reason: 'used' })
})

test('a solution used on one instance is refused on another sharing the database', async () => {
  const clock = testClock()
  const one = proofOfWork(clock)
  const two = proofOfWork(clock)
  const { payload } = await solved(await one.createChallenge())

  const verdicts = await Promise.all([one.verifyChallenge(payload), two.verifyChallenge(payload)])

  expect(verdicts.filter((v) => v.ok)).toHaveLength(1)
  expect(verdicts).toContainEqual({ ok: false, reason: 'used' })
})

test("a challenge expires on the app's clock, not the machine's", async () => {
  const clock = testClock()
  const pow = proofOfWork(clock)
  const early = await solved(await pow.createChallenge())
  const late = await solved(await pow.createChallenge())

  clock.advance(CHALLENGE_TTL_MS - 2000)
  expect(await pow.verifyChallenge(early.payload)).toEqual({ ok: true })
  clock.advance(2000)
  expect(await pow.verifyChallenge(late.payload)).toEqual({ ok: false, reason: 'expired' })
})

test("a solution for one assistant, another server's challenge, a wrong answer or garbage is refused", async () => {
  const pow = proofOfWork()
  const forA = await solved(await pow.createChallenge('pub-a'))
  expect(await pow.verifyChallenge(forA.payload, 'pub-b')).toEqual({ ok: false, reason: 'invalid' })

  const foreign = await solved(
    await proofOfWork(testClock(), 'another-secret-that-is-long-enough-0123456789').createChallenge(),
  )
  expect(await pow.verifyChallenge(foreign.payload)).toEqual({ ok: false, reason: 'invalid' })

  // A key that is not the one the search finds (the key is the proof; the counter only finds it).
  const challenge = await pow.createChallenge()
  const solution = await solveChallenge({ challenge, deriveKey })
  const key = solution?.derivedKey ?? ''
  const wrongKey = `${key.slice(0, -1)}${key.endsWith('0') ? '1' : '0'}`
  const wrong = Buffer.from(
    JSON.stringify({ challenge, solution: { counter: solution?.counter, derivedKey: wrongKey } }),
  ).toString('base64')
  expect(await pow.verifyChallenge(wrong)).toEqual({ ok: false, reason: 'invalid' })

  expect(await pow.verifyChallenge('not base64 json')).toEqual({ ok: false, reason: 'malformed' })
  expect(await pow.verifyChallenge(Buffer.from('{"challenge":1}').toString('base64'))).toEqual({
    ok: false,
    reason: 'malformed',
  })
})
