/**
 * What an answer says it searched for (D83) and answers in other languages (D82), through the
 * chat calls with no model configured: a misspelled word's correction comes back on the answer
 * of `send` and of the streamed send, and stays with the stored answer; a German question is
 * answered by quoting the German sentence that holds its words in other forms.
 */
import { afterAll, beforeAll, expect, test } from 'vitest'
import { chatEndpoints, type StreamEvent } from '#contracts/chat.ts'
import { parseEventStream } from '#contracts/event-stream.ts'
import { NO_MODEL_NOTE } from '#server/answering/extractive.ts'
import type { App } from '#server/app.ts'
import { indexDocument } from '#server/documents/index/index-document.ts'
import { call, createConversation, listMessages, sendOk } from '../support/chat-helpers.ts'
import { buildTestApp, register, signIn, uniqueEmail } from '../support/helper.ts'

let app: App

beforeAll(async () => {
  app = await buildTestApp()
})
afterAll(async () => {
  await app.close()
})

async function person(documents: Record<string, string>) {
  const email = uniqueEmail('corrections')
  const userId = (await register(app, email))._id
  const { cookie } = await signIn(app, email)
  for (const [name, text] of Object.entries(documents))
    await indexDocument(app.db, {
      userId,
      source: 'test',
      externalId: name,
      name,
      mimeType: 'text/plain',
      sections: [{ page: null, text }],
    })
  return cookie
}

const PASSWORDS =
  'To reset your password, open Settings and choose Security. The new password must be at least twelve characters long.'

test('a misspelled word finds its passage, and the answer says what it searched for', async () => {
  const cookie = await person({ 'Account help.txt': PASSWORDS })
  const conversation = await createConversation(app, cookie)

  const { aiMessage } = await sendOk(app, cookie, conversation._id, 'How do I reset my pasword?')

  expect(aiMessage.corrections).toEqual([{ from: 'pasword', to: 'password' }])
  expect(aiMessage.content.startsWith(NO_MODEL_NOTE)).toBe(true)
  expect(aiMessage.content).toContain('To reset your password, open Settings and choose Security.')
  expect(aiMessage.sources.map((s) => s.documentName)).toEqual(['Account help.txt'])
  expect((await listMessages(app, cookie, conversation._id)).at(-1)?.corrections).toEqual(
    aiMessage.corrections,
  )
})

test('the streamed answer carries the correction too, and a question spelled right carries none', async () => {
  const cookie = await person({ 'Account help.txt': PASSWORDS })
  const conversation = await createConversation(app, cookie)
  const streamed = await call(app, chatEndpoints.streamMessage, {
    cookie,
    params: { id: conversation._id },
    body: { content: 'how long must a pasword be', isUser: true, messageType: 'text' },
  })
  const done = parseEventStream(streamed.body).at(-1) as Extract<StreamEvent, { event: 'done' }>
  expect(done.event).toBe('done')
  expect(done.data.aiMessage.corrections).toEqual([{ from: 'pasword', to: 'password' }])

  const { aiMessage } = await sendOk(app, cookie, conversation._id, 'How long must a password be?')
  expect(aiMessage.corrections).toBeUndefined()
})

test("a correction never comes from another person's documents", async () => {
  await person({ 'Account help.txt': PASSWORDS })
  const other = await person({ 'Lunch.txt': 'The canteen serves lunch from noon until two on weekdays.' })
  const conversation = await createConversation(app, other)
  const { aiMessage } = await sendOk(app, other, conversation._id, 'How do I reset my pasword?')
  expect(aiMessage.corrections).toBeUndefined()
  expect(aiMessage.sources).toEqual([])
})

test('a German question is answered by quoting the German sentence that holds its words', async () => {
  const cookie = await person({
    'Handbuch.txt': [
      'Der Drucker im zweiten Stock ist bis Freitag außer Betrieb.',
      'Gelöschte Dateien liegen dreißig Tage im Papierkorb und lassen sich von dort wiederherstellen.',
      'Danach werden sie endgültig entfernt.',
    ].join(' '),
  })
  const conversation = await createConversation(app, cookie)
  const { aiMessage } = await sendOk(
    app,
    cookie,
    conversation._id,
    'Wie kann ich eine gelöschte Datei wiederherstellen?',
  )
  expect(aiMessage.content).toContain(
    'Gelöschte Dateien liegen dreißig Tage im Papierkorb und lassen sich von dort wiederherstellen.',
  )
  expect(aiMessage.content).not.toContain('Drucker')
})
