/**
 * A message stored longer than anything the server writes today (an answer from before answers
 * were capped, D84) never costs a listing or a search more than a bounded part of it: the
 * conversation list carries LAST_MESSAGE_PREVIEW_LENGTH characters of it, and search reads its
 * first MESSAGE_SEARCH_CHARS (a word past them is not found), both cut in SQL.
 */
import { afterAll, beforeAll, expect, test } from 'vitest'
import { chatEndpoints, LAST_MESSAGE_PREVIEW_LENGTH } from '#contracts/chat.ts'
import type { App } from '#server/app.ts'
import { chatMessages, MESSAGE_SEARCH_CHARS } from '#server/db/schema.ts'
import { createConversation, listConversations } from '../support/chat-helpers.ts'
import { buildTestApp, register, signIn, uniqueEmail } from '../support/helper.ts'

let app: App

beforeAll(async () => {
  app = await buildTestApp()
})
afterAll(async () => {
  await app?.close()
})

test('a very long stored answer is listed and searched by a bounded part of it', async () => {
  const email = uniqueEmail()
  const userId = (await register(app, email))._id
  const { cookie } = await signIn(app, email)
  const conversation = await createConversation(app, cookie, 'Long')
  let filler = ''
  for (let i = 0; filler.length < MESSAGE_SEARCH_CHARS * 2; i++) filler += `filler${i % 997} `
  const content = `The heron code is HERON-5150. ${filler} The osprey code is OSPREY-7070.`
  await app.db
    .insert(chatMessages)
    .values({ conversationId: conversation._id, userId, isUser: false, content })
  const search = async (q: string) => {
    const response = await app.inject({
      method: 'GET',
      url: `${chatEndpoints.searchConversations.path}?q=${encodeURIComponent(q)}`,
      headers: { cookie },
    })
    return chatEndpoints.searchConversations.response.parse(response.json()).data
  }

  const [listed] = await listConversations(app, cookie)
  const heron = await search('heron code')
  const osprey = await search('osprey')

  expect(listed?.lastMessage).toBe(content.slice(0, LAST_MESSAGE_PREVIEW_LENGTH))
  expect(heron.map((hit) => hit.session._id)).toEqual([conversation._id])
  expect(heron[0]?.snippet).toContain('HERON-5150')
  expect(heron[0]?.snippet.length).toBeLessThan(400)
  // Past the first MESSAGE_SEARCH_CHARS characters nothing is read, so nothing is found.
  expect(osprey).toEqual([])
})
