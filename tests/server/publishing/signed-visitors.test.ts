/**
 * A signed visitor across devices (issue 37, D118, D123): with the host site's token the visitor is
 * its `sub` wherever they are, so a second device without the first one's cookie reads and carries
 * on the same conversation; the anonymous cookie and a signed identity never reach each other's
 * conversations; a token made for another assistant is refused. With TEST_DATABASE_URL set the
 * same file runs on PostgreSQL.
 */
import type { LightMyRequestResponse } from 'fastify'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { fillPath } from '#contracts/endpoint.ts'
import { publicEndpoints, publishingEndpoints } from '#contracts/publishing.ts'
import type { App } from '#server/app.ts'
import { TOKEN_REFUSED } from '#server/publishing/publishing-errors.ts'
import { type FakeLlm, startFakeLlm } from '#tests/fakes/openai-compatible.ts'
import { createAssistantOk } from '../support/assistant-helpers.ts'
import { call, modelEnv } from '../support/chat-helpers.ts'
import { newPerson, type Person } from '../support/drive-helpers.ts'
import { buildTestApp } from '../support/helper.ts'
import { addLibraryDocument } from '../support/library-helpers.ts'
import {
  admitAll,
  askPublic,
  doneOf,
  patchAssistantOk,
  signUserToken,
  visitorCookie,
} from '../support/publishing-helpers.ts'

const QUESTION = 'How many days of leave?'
let clock = new Date('2030-03-01T09:00:00Z').getTime()
let llm: FakeLlm
let app: App
let owner: Person
const bots: { id: string; publicId: string; secret: string }[] = []

async function publishedBot(name: string, documentId: string) {
  const created = await createAssistantOk(app, owner.cookie, {
    name,
    knowledge: { documentIds: [documentId], folderIds: [] },
    answerPolicy: 'documents-first',
  })
  const published = await patchAssistantOk(app, owner.cookie, created._id, { published: true })
  const rotated = await call(app, publishingEndpoints.rotateIdentitySecret, {
    cookie: owner.cookie,
    params: { id: created._id },
  })
  return { id: created._id, publicId: published.publicId ?? '', secret: rotated.json().data.secret as string }
}

beforeAll(async () => {
  llm = await startFakeLlm()
  app = await buildTestApp({ env: modelEnv(llm), now: () => new Date(clock), visitorBudgets: admitAll() })
  owner = await newPerson(app, 'signed-owner')
  const policy = await addLibraryDocument(app, owner.id, {
    name: 'leave.txt',
    text: 'Every employee gets 25 days of leave a year.',
  })
  bots.push(await publishedBot('HR bot', policy), await publishedBot('Other bot', policy))
}, 60_000)
afterAll(async () => {
  await app?.close()
  await llm?.close()
})

const token = (sub: string, bot = bots[0], aud = bot?.publicId) =>
  signUserToken(bot?.secret ?? '', { sub, aud, name: 'Ada' }, { now: new Date(clock) })

/** What a device reads on (re)load: by its token when it has one, else by its cookie. */
function reload(publicId: string, device: { userToken?: string; cookie?: string }) {
  return device.userToken
    ? app.inject({
        method: 'POST',
        url: fillPath(publicEndpoints.getSignedConversation.path, { publicId }),
        payload: { userToken: device.userToken },
        headers: device.cookie ? { cookie: device.cookie } : {},
      })
    : app.inject({
        method: 'GET',
        url: fillPath(publicEndpoints.getVisitorConversation.path, { publicId }),
        headers: device.cookie ? { cookie: device.cookie } : {},
      })
}

const contents = (response: LightMyRequestResponse) =>
  publicEndpoints.getVisitorConversation.response.parse(response.json()).data.messages.map((m) => m.content)

test('the same signed user on a second device reads and carries on their conversation', async () => {
  const publicId = bots[0]?.publicId ?? ''
  llm.reply({ kind: 'text', text: 'Twenty-five days [1].' })
  const laptop = await askPublic(app, publicId, { content: QUESTION, userToken: await token('emp-7') })
  const { conversationId } = doneOf(laptop)

  // The phone has no cookie of the laptop's, only a fresh token for the same user.
  const phoneToken = await token('emp-7')
  const onPhone = await reload(publicId, { userToken: phoneToken })
  expect(onPhone.statusCode).toBe(200)
  expect(onPhone.cookies).toEqual([])
  expect(publicEndpoints.getSignedConversation.response.parse(onPhone.json()).data.conversationId).toBe(
    conversationId,
  )
  clock += 60_000
  llm.reply({ kind: 'text', text: 'Yes, every year [1].' })
  const more = await askPublic(app, publicId, {
    content: 'Every year?',
    conversationId,
    userToken: phoneToken,
  })
  expect(doneOf(more).conversationId).toBe(conversationId)
  expect(contents(await reload(publicId, { userToken: await token('emp-7') }))).toEqual([
    QUESTION,
    'Twenty-five days [1].',
    'Every year?',
    'Yes, every year [1].',
  ])
  // Another signed user sees none of it.
  expect((await reload(publicId, { userToken: await token('emp-8') })).statusCode).toBe(404)
})

test('an anonymous visitor and a signed user never reach each other’s conversation', async () => {
  const publicId = bots[0]?.publicId ?? ''
  llm.reply({ kind: 'text', text: 'Anonymous answer [1].' })
  const anonymous = await askPublic(app, publicId, { content: QUESTION })
  const cookie = visitorCookie(anonymous)
  const anonymousConversation = doneOf(anonymous).conversationId
  llm.reply({ kind: 'text', text: 'Signed answer [1].' })
  const signed = await askPublic(app, publicId, { content: QUESTION, userToken: await token('emp-9') })
  const signedConversation = doneOf(signed).conversationId

  // The same browser, signed in, reads the signed user's conversation, not its cookie's.
  expect(contents(await reload(publicId, { userToken: await token('emp-9'), cookie }))).toEqual([
    QUESTION,
    'Signed answer [1].',
  ])
  // The cookie alone reads the anonymous one, never the signed one.
  expect(contents(await reload(publicId, { cookie }))).toEqual([QUESTION, 'Anonymous answer [1].'])
  // Neither may carry on the other's.
  const intoSigned = await askPublic(
    app,
    publicId,
    { content: 'Hello?', conversationId: signedConversation },
    { cookie },
  )
  const intoAnonymous = await askPublic(app, publicId, {
    content: 'Hello?',
    conversationId: anonymousConversation,
    userToken: await token('emp-9'),
  })
  expect([intoSigned.statusCode, intoAnonymous.statusCode]).toEqual([404, 404])
  // A signed user who never asked has nothing, whatever cookie the browser holds.
  expect((await reload(publicId, { userToken: await token('emp-10'), cookie })).statusCode).toBe(404)
})

test('a token made for another assistant is refused with a sentence, whoever signed it', async () => {
  const [hr, other] = bots
  if (!hr || !other) throw new Error('two assistants expected')
  // Signed with this assistant's secret but for the other's audience, and the other's own token.
  for (const userToken of [await token('emp-7', hr, other.publicId), await token('emp-7', other)]) {
    const read = await reload(hr.publicId, { userToken })
    expect(read.statusCode).toBe(401)
    expect(read.json().message).toBe(TOKEN_REFUSED)
    const asked = await askPublic(app, hr.publicId, { content: QUESTION, userToken })
    expect(asked.statusCode).toBe(401)
  }
})

test('reading by token without a token is refused with 400 and a sentence', async () => {
  const response = await app.inject({
    method: 'POST',
    url: fillPath(publicEndpoints.getSignedConversation.path, { publicId: bots[0]?.publicId ?? '' }),
    payload: { userToken: '' },
  })
  expect(response.statusCode).toBe(400)
  expect(response.json().message).toBe('Send the signed-in user’s token')
})
