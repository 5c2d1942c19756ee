/**
 * The citation judge alone (D140): its own timeout bounds it even when the model's client would
 * wait a minute, the answer's signal stops it, passages are cut, and a reply counts only as the
 * JSON asked for.
 */
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { CitationCheck } from '#server/answering/citation-checks/types.ts'
import {
  JUDGE_MAX_TOKENS,
  JUDGE_PASSAGE_CHARS,
  judgeCitations,
  parseVerdicts,
} from '#server/answering/citation-judge.ts'
import { createLlm } from '#server/answering/llm.ts'
import { type FakeLlm, startFakeLlm } from '#tests/fakes/openai-compatible.ts'

let fake: FakeLlm
beforeAll(async () => {
  fake = await startFakeLlm()
})
afterAll(async () => {
  await fake?.close()
})

const model = () =>
  createLlm({ baseUrl: fake.baseUrl, apiKey: '', model: 'm', timeoutMs: 60_000, models: [] })

const loose: CitationCheck = {
  marker: 1,
  sentence: 'The rules apply while travelling.',
  outcome: 'nothing-to-check',
  sourceIndex: 1,
  missing: [],
}

test('a model that never answers is given up after the timeout: the checks stay as they were, the prompt is counted', async () => {
  fake.reply({ kind: 'hang' })
  const started = performance.now()

  const judged = await judgeCitations({ llm: model(), checks: [loose], passages: ['Rules.'], timeoutMs: 300 })

  expect(performance.now() - started).toBeLessThan(5_000)
  expect(judged.checks).toEqual([loose])
  expect(judged.error).toBeInstanceOf(Error)
  expect(judged.usage?.promptTokens).toBeGreaterThan(0)
})

test("the answer's signal stops the judge, and an answer already stopped asks nothing", async () => {
  fake.reply({ kind: 'hang' })
  const stop = new AbortController()
  setTimeout(() => stop.abort(), 100)

  const judged = await judgeCitations({
    llm: model(),
    checks: [loose],
    passages: ['Rules.'],
    signal: stop.signal,
  })

  expect(judged.checks).toEqual([loose])
  expect(judged.error).toBeDefined()
  const before = fake.requests.length
  const none = await judgeCitations({
    llm: model(),
    checks: [loose],
    passages: ['Rules.'],
    signal: stop.signal,
  })
  expect(fake.requests.length).toBe(before)
  expect(none).toMatchObject({ checks: [loose], usage: null, asked: 0 })
})

test('each passage is cut to 800 characters and the request names its small token limit', async () => {
  fake.reply({ kind: 'text', text: '[{"id": 1, "verdict": "not-supported"}]' })
  const long = `${'a'.repeat(JUDGE_PASSAGE_CHARS)}TAIL`

  const judged = await judgeCitations({ llm: model(), checks: [loose], passages: [long] })

  const request = fake.requests.at(-1)?.body
  expect(request?.max_tokens).toBe(JUDGE_MAX_TOKENS)
  expect(request?.messages.at(-1)?.content).not.toContain('TAIL')
  expect(judged.checks).toEqual([{ ...loose, judge: 'not-supported' }])
})

test('only the JSON asked for counts: ids out of range, unknown verdicts and repeats are dropped', () => {
  expect(parseVerdicts('no', 2).size).toBe(0)
  expect(parseVerdicts('[{"id": 1, "verdict": "supported"', 2).size).toBe(0)
  expect(parseVerdicts('{"id": 1, "verdict": "supported"}', 2).size).toBe(0)
  const parsed = parseVerdicts(
    'Here: [{"id": 1, "verdict": "supported"}, {"id": 1, "verdict": "not-supported"}, {"id": 3, "verdict": "supported"}, {"id": 2, "verdict": "maybe"}, {"id": 2.5, "verdict": "supported"}, null]',
    2,
  )
  expect([...parsed]).toEqual([[1, 'supported']])
})
