/**
 * The optional model judge (D140) on the two paths beyond the app: with CITATION_JUDGE=model a
 * visitor's answer and an API answer ask the model once about what the check could not vouch
 * for, and the visitor's `done`, conversation and the owner's inbox keep the model's verdict
 * beside the unchanged outcome.
 */
import { afterAll, beforeAll, expect, test } from 'vitest'
import { fillPath } from '#contracts/endpoint.ts'
import { ChatCompletionSchema, OPENAI_PATHS } from '#contracts/openai.ts'
import { publicEndpoints } from '#contracts/publishing.ts'
import { JUDGE_INSTRUCTIONS } from '#server/answering/citation-judge.ts'
import { estimatedTokens } from '#server/answering/token-usage.ts'
import type { App } from '#server/app.ts'
import { type FakeLlm, startFakeLlm } from '#tests/fakes/openai-compatible.ts'
import { publishedAllowancesBot, QUESTION } from '../support/allowances-bot.ts'
import { modelEnv } from '../support/chat-helpers.ts'
import type { Person } from '../support/drive-helpers.ts'
import { buildTestApp } from '../support/helper.ts'
import { newKey } from '../support/openai-helpers.ts'
import { askPublic, doneOf, visitorCookie } from '../support/publishing-helpers.ts'

const JUDGE = JUDGE_INSTRUCTIONS.slice(0, 40)

let llm: FakeLlm
let app: App
let owner: Person
let bot: { id: string; publicId: string }

const judgeRequests = () => llm.requests.filter((r) => r.body.messages.some((m) => m.content.includes(JUDGE)))

beforeAll(async () => {
  llm = await startFakeLlm()
  app = await buildTestApp({
    env: modelEnv(llm, { WHOLE_DOCUMENT_TOKEN_BUDGET: '0', CITATION_JUDGE: 'model' }),
  })
  ;({ owner, bot } = await publishedAllowancesBot(app, 'judged-owner'))
}, 60_000)
afterAll(async () => {
  await app?.close()
  await llm?.close()
})

test("a visitor's answer is judged once: the unverified sentence keeps its outcome and carries the model's verdict, for the visitor too", async () => {
  llm.replyTo(JUDGE, { kind: 'text', text: JSON.stringify([{ id: 1, verdict: 'supported' }]) })
  const asked = judgeRequests().length
  llm.reply({ kind: 'text', text: 'A taxi is 300 euros [1].' })

  const response = await askPublic(app, bot.publicId, { content: QUESTION })

  expect(judgeRequests().length - asked).toBe(1)
  const done = doneOf(response)
  expect(done.aiMessage.checks).toEqual([
    expect.objectContaining({ outcome: 'unverified', missing: ['300 euros'], judge: 'supported' }),
  ])
  const again = await app.inject({
    method: 'GET',
    url: fillPath(publicEndpoints.getVisitorConversation.path, { publicId: bot.publicId }),
    headers: { cookie: visitorCookie(response) },
  })
  const kept = publicEndpoints.getVisitorConversation.response.parse(again.json()).data.messages.at(-1)
  expect(kept?.checks).toEqual(done.aiMessage.checks)
  llm.replyTo(JUDGE, null)
})

test('an API answer is judged once, and what the judge spent is in its usage', async () => {
  const key = await newKey(app, owner.cookie)
  const ask = async () =>
    ChatCompletionSchema.parse(
      (
        await app.inject({
          method: 'POST',
          url: OPENAI_PATHS.chatCompletions,
          headers: { authorization: `Bearer ${key}` },
          payload: { model: bot.id, messages: [{ role: 'user', content: QUESTION }] },
        })
      ).json(),
    )
  llm.replyTo(JUDGE, { kind: 'text', text: JSON.stringify([{ id: 1, verdict: 'not-supported' }]) })
  const asked = judgeRequests().length
  const taxi = 'A taxi is 300 euros [1].'
  llm.reply({ kind: 'text', text: taxi })

  const judged = await ask()

  expect(judgeRequests().length - asked).toBe(1)
  expect(judged.citations?.[0]?.check).toBe('unverified')
  // The answer's own words are estimated (a stream reports no usage); the fake reports 1 + 1
  // tokens for the judge's call, which the answer spent too.
  expect(judged.usage?.completion_tokens).toBe(estimatedTokens([taxi]) + 1)
  llm.replyTo(JUDGE, null)
})
