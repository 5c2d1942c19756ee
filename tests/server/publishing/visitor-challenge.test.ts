/**
 * The owner's proof of work before a visitor's first question (issue 37, D119), end to end over
 * the visitor calls: the widget fetches a bare ALTCHA challenge from our own pages only, solves it
 * (altcha-lib's solver here, as the widget's workers do), and sends the solution with the first
 * question; a missing, wrong, foreign or reused one is refused before anything is counted. A
 * visitor once answered is not asked again, in that conversation or a new one.
 */
import { solveChallenge } from 'altcha-lib'
import { deriveKey } from 'altcha-lib/algorithms/sha'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { fillPath } from '#contracts/endpoint.ts'
import { type PublicChallenge, publicEndpoints } from '#contracts/publishing.ts'
import type { App } from '#server/app.ts'
import { CHALLENGE_NEEDED, FOREIGN_ORIGIN } from '#server/publishing/publishing-errors.ts'
import { createAssistantOk } from '../support/assistant-helpers.ts'
import { newPerson, type Person } from '../support/drive-helpers.ts'
import { buildTestApp } from '../support/helper.ts'
import { addLibraryDocument } from '../support/library-helpers.ts'
import {
  admitAll,
  askPublic,
  doneOf,
  patchAssistantOk,
  visitorCookie,
} from '../support/publishing-helpers.ts'

const QUESTION = 'What is the meal allowance abroad?'
let app: App
let owner: Person
const spent = admitAll()
let bots: { guarded: string; other: string }

beforeAll(async () => {
  app = await buildTestApp({ visitorBudgets: spent })
  owner = await newPerson(app, 'challenge-owner')
  const policy = await addLibraryDocument(app, owner.id, {
    name: 'travel-policy.txt',
    text: 'The daily meal allowance abroad is 45 euros per person.',
  })
  const publish = async (name: string) => {
    const created = await createAssistantOk(app, owner.cookie, {
      name,
      knowledge: { documentIds: [policy], folderIds: [] },
    })
    const published = await patchAssistantOk(app, owner.cookie, created._id, {
      published: true,
      requireChallenge: true,
    })
    return published.publicId ?? ''
  }
  bots = { guarded: await publish('Travel bot'), other: await publish('Other bot') }
}, 60_000)
afterAll(async () => {
  await app?.close()
})

function getChallenge(publicId: string, headers: Record<string, string> = {}) {
  return app.inject({
    method: 'GET',
    url: fillPath(publicEndpoints.getChallenge.path, { publicId }),
    headers,
  })
}

/** What the widget sends: base64 JSON of the challenge and its solution. */
async function solvedPayload(publicId: string): Promise<string> {
  const response = await getChallenge(publicId)
  expect(response.statusCode).toBe(200)
  const challenge: PublicChallenge = response.json()
  const solution = await solveChallenge({ challenge, deriveKey })
  if (!solution) throw new Error('no solution found')
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64')
}

test('the challenge is answered bare, as the widget reads it, and only to our own pages', async () => {
  const own = await getChallenge(bots.guarded, { 'sec-fetch-site': 'same-origin' })
  const foreign = await getChallenge(bots.guarded, { origin: 'https://evil.example' })
  const unknown = await getChallenge('AAAAAAAAAAAAAAAAAAAAAA')

  expect(own.statusCode).toBe(200)
  expect(own.json()).toMatchObject({
    parameters: { algorithm: 'SHA-256', data: { scope: bots.guarded } },
    signature: expect.any(String),
  })
  expect(own.json()).not.toHaveProperty('success')
  expect([foreign.statusCode, foreign.json().message]).toEqual([403, FOREIGN_ORIGIN])
  expect(unknown.statusCode).toBe(404)
})

test('a first question without a good solution is refused before it is counted', async () => {
  const before = spent.asked.length
  const missing = await askPublic(app, bots.guarded, { content: QUESTION })
  const garbage = await askPublic(app, bots.guarded, { content: QUESTION, challenge: 'bm90IGEgc29sdXRpb24=' })
  const otherAssistants = await askPublic(app, bots.guarded, {
    content: QUESTION,
    challenge: await solvedPayload(bots.other),
  })

  for (const refused of [missing, garbage, otherAssistants]) {
    expect([refused.statusCode, refused.json().message]).toEqual([403, CHALLENGE_NEEDED])
  }
  expect(spent.asked).toHaveLength(before)
})

test('a solution opens one visitor’s first question once; that visitor is not asked again', async () => {
  const payload = await solvedPayload(bots.guarded)
  const first = await askPublic(app, bots.guarded, { content: QUESTION, challenge: payload })
  expect(first.statusCode).toBe(200)
  const cookie = visitorCookie(first)
  const { conversationId } = doneOf(first)

  const replayed = await askPublic(app, bots.guarded, { content: QUESTION, challenge: payload })
  const followUp = await askPublic(app, bots.guarded, { content: 'And at home?', conversationId }, { cookie })
  const newConversation = await askPublic(app, bots.guarded, { content: QUESTION }, { cookie })

  expect([replayed.statusCode, replayed.json().message]).toEqual([403, CHALLENGE_NEEDED])
  expect(doneOf(followUp).conversationId).toBe(conversationId)
  expect(doneOf(newConversation).conversationId).not.toBe(conversationId)
})
