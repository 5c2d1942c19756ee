import { expect, test } from 'vitest'
import type { Source } from '#contracts/chat.ts'
import { answerIdOf, shownMessage } from './chat-model.ts'
import { listedSources } from './listed-sources.ts'
import { markStopped } from './open-conversation-model.ts'

const passage = (citation: number | null, documentId = 'doc-1'): Source => ({
  documentId,
  documentName: `${documentId}.pdf`,
  chunkId: `c${citation}-${documentId}`,
  page: citation,
  link: null,
  citation,
})
const offered = [passage(1), passage(2, 'doc-2'), passage(3), passage(4, 'doc-2'), passage(5)]
const chunks = (groups: ReturnType<typeof listedSources>) =>
  groups.map((g) => g.sources.map((s) => s.chunkId))

test('a streaming answer lists only the passages it has cited so far, by document, in the order cited', () => {
  const message = { content: 'Late [4]. Early [1], see [4] and [3', sources: offered, streaming: true }

  expect(chunks(listedSources(message))).toEqual([['c4-doc-2'], ['c1-doc-1']])
  expect(chunks(listedSources({ ...message, content: `${message.content}]` }))).toEqual([
    ['c4-doc-2'],
    ['c1-doc-1', 'c3-doc-1'],
  ])
})

test('a stopped answer keeps only the passages it cited', () => {
  const tempId = 'temp-1'
  const answer = shownMessage(answerIdOf(tempId), 'bot', 'Half an answer [2]', '2025-01-01T00:00:00Z', {
    sources: offered,
    streaming: true,
  })
  const context = {
    conversationId: 's1',
    messages: [answer],
    files: [],
    openSource: null,
    now: () => new Date(0),
  }

  const stopped = markStopped(context, tempId).messages?.[0]

  expect(stopped?.sources.map((s) => s.citation)).toEqual([2])
  expect(stopped && chunks(listedSources(stopped))).toEqual([['c2-doc-2']])
})
