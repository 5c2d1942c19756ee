/**
 * The sources under an answer while it is written (issue 40, item 4): a passage is listed once
 * its [n] has arrived, grouped by document, in the order the answer cites them; the list only
 * grows, and the stored answer's list keeps that order.
 */
import { waitFor, within } from '@testing-library/react'
import { HttpResponse, http } from 'msw'
import { expect, test } from 'vitest'
import { chatEndpoints, type SendMessageResponse, type Source } from '#contracts/chat.ts'
import { chatBackend, chatMessage, openChat, source } from './chat-fixtures.ts'
import { server, urlOf } from './msw-server.ts'

const offered = [
  source({ citation: 1, chunkId: 'c1', page: 2, quote: 'Meals abroad: 45 euros a day.' }),
  source({ citation: 2, chunkId: 'c2', page: 7, quote: 'Taxis are reimbursed with a receipt.' }),
  source({ citation: 3, chunkId: 'c3', documentId: 'doc-2', documentName: 'Travel policy.txt', page: null }),
  source({ citation: 4, chunkId: 'c4', page: 9, quote: 'Hotels are booked by the office.' }),
]

/** The passages listed under the answer, as their buttons name them, in order. */
const listed = (main: HTMLElement) =>
  within(main)
    .queryAllByRole('link', { name: /^View in document: / })
    .map((link) => link.getAttribute('aria-label'))

test('a passage is listed under a streaming answer only once it is cited, grouped by document, and stays in place', async () => {
  const gates = [Promise.withResolvers<void>(), Promise.withResolvers<void>()]
  const stored: Source[] = [offered[0], offered[1], offered[2]].flatMap((s) => (s ? [s] : []))
  const reply: SendMessageResponse = {
    userMessage: chatMessage('q1', true, 'Travel?'),
    aiMessage: chatMessage(
      'a1',
      false,
      'Taxis need a receipt [2]. See the policy [3]. Meals are 45 euros [1].',
      {
        sources: stored,
      },
    ),
  }
  const encoder = new TextEncoder()
  const event = (name: string, data: unknown) =>
    encoder.encode(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`)
  const { user, main, input } = await openChat(chatBackend())
  server.use(
    http.post(urlOf(chatEndpoints.streamMessage), () => {
      const body = new ReadableStream<Uint8Array>({
        async start(controller) {
          controller.enqueue(event('sources', { sources: offered }))
          controller.enqueue(event('token', { text: 'Taxis need a receipt [2].' }))
          await gates[0]?.promise
          controller.enqueue(event('token', { text: ' See the policy [3]. Meals are 45 euros [1]' }))
          await gates[1]?.promise
          controller.enqueue(event('token', { text: '.' }))
          controller.enqueue(event('sources', { sources: stored }))
          controller.enqueue(event('done', reply))
          controller.close()
        },
      })
      return new HttpResponse(body, { headers: { 'content-type': 'text/event-stream' } })
    }),
  )

  await user.type(input(), 'Travel?{Enter}')

  await within(main).findByRole('button', { name: 'Show passage 2' }, { timeout: 5000 })
  expect(main.querySelector('li[data-streaming="true"]')).toBeTruthy()
  expect(listed(main)).toEqual(['View in document: Quarterly report.pdf p. 7'])

  gates[0]?.resolve()
  await within(main).findByRole('button', { name: 'Show passage 1' })
  const streaming = [
    'View in document: Quarterly report.pdf p. 7',
    'View in document: Quarterly report.pdf p. 2',
    'View in document: Travel policy.txt',
  ]
  // Grouped by document: the report's second passage joins its first, the policy follows.
  expect(listed(main)).toEqual(streaming)

  gates[1]?.resolve()
  await waitFor(() => expect(main.querySelector('li[data-streaming="true"]')).toBeNull())
  // Stored (the server lists [1], [2], [3]): the same list, in the same order.
  expect(listed(main)).toEqual(streaming)
})
