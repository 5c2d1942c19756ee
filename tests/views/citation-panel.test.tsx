/** A cited passage beside the answer (D87): opened and closed by keyboard, the cited words marked. */
import { screen, waitFor, within } from '@testing-library/react'
import { HttpResponse, http } from 'msw'
import { expect, test } from 'vitest'
import { chatEndpoints, type SendMessageResponse } from '#contracts/chat.ts'
import { chatBackend, chatConversation, chatMessage, openChat, source } from './chat-fixtures.ts'
import { server, urlOf } from './msw-server.ts'

const quote = 'Travel is booked through the portal. The daily meal allowance abroad is 45 euros per person.'
const cited = [
  source({ citation: 1, chunkId: 'c1', quote }),
  source({ citation: 2, chunkId: 'c2', page: 7, quote: 'Taxis are reimbursed with a receipt.' }),
]

async function openAnswer() {
  const answer = chatMessage('a1', false, 'Meals abroad cost 45 euros a day [1]. Taxis need a receipt [2].', {
    sources: cited,
  })
  const backend = chatBackend({
    conversations: [chatConversation('s1')],
    messages: { s1: [chatMessage('q1', true, 'What about travel?'), answer] },
  })
  const app = await openChat(backend)
  await app.user.click(within(screen.getByRole('region', { name: 'Recent Conversations' })).getByRole('link'))
  await within(app.main).findByRole('button', { name: 'Show passage 1' })
  return app
}

test('a marker opens its passage beside the answer, moves the focus in, and Escape gives it back', async () => {
  const { user, main } = await openAnswer()
  const marker = within(main).getByRole('button', { name: 'Show passage 1' })

  marker.focus()
  await user.keyboard('{Enter}')

  const panel = within(main).getByRole('region', { name: 'Passage 1 from Quarterly report.pdf' })
  expect(document.activeElement).toBe(panel)
  expect(within(panel).getByRole('heading', { name: '[1] Quarterly report.pdf · p. 3' })).toBeTruthy()
  // The sentence the answer leans on is marked; the rest of the passage is not.
  const marks = panel.querySelectorAll('mark')
  expect([...marks].map((m) => m.textContent)).toEqual([
    'The daily meal allowance abroad is 45 euros per person.',
  ])
  expect(panel.querySelector('blockquote')?.textContent).toBe(quote)

  await user.keyboard('{Escape}')

  expect(within(main).queryByRole('region', { name: /^Passage/ })).toBeNull()
  expect(document.activeElement).toBe(marker)
})

test('Close closes it too and the focus goes back; another marker replaces the passage', async () => {
  const { user, main } = await openAnswer()

  await user.click(within(main).getByRole('button', { name: 'Show passage 1' }))
  await user.click(within(main).getByRole('button', { name: 'Show passage 2' }))
  const panel = within(main).getByRole('region', { name: 'Passage 2 from Quarterly report.pdf' })
  expect(within(panel).getByText('Taxis are reimbursed with a receipt.')).toBeTruthy()
  expect(within(main).getAllByRole('region', { name: /^Passage/ })).toHaveLength(1)

  await user.click(within(panel).getByRole('button', { name: 'Close' }))

  expect(within(main).queryByRole('region', { name: /^Passage/ })).toBeNull()
  expect(document.activeElement).toBe(within(main).getByRole('button', { name: 'Show passage 2' }))
})

test('a source under the answer opens the same panel', async () => {
  const { user, main } = await openAnswer()

  await user.click(
    within(main).getByRole('button', { name: 'Show the passage [2] from Quarterly report.pdf p. 7' }),
  )

  expect(within(main).getByRole('region', { name: 'Passage 2 from Quarterly report.pdf' })).toBeTruthy()
})

test('markers show as citations while the answer is still being written', async () => {
  const backend = chatBackend()
  const gate = Promise.withResolvers<void>()
  const reply: SendMessageResponse = {
    userMessage: chatMessage('q1', true, 'Meals?'),
    aiMessage: chatMessage('a1', false, 'Meals cost 45 euros [1].', { sources: [cited[0] ?? source()] }),
  }
  const encoder = new TextEncoder()
  const event = (name: string, data: unknown) =>
    encoder.encode(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`)
  const { user, main, input } = await openChat(backend)
  // After openChat, whose handlers it overrides: this answer stops halfway until the gate opens.
  server.use(
    http.post(urlOf(chatEndpoints.streamMessage), () => {
      const body = new ReadableStream<Uint8Array>({
        async start(controller) {
          controller.enqueue(event('sources', { sources: cited }))
          controller.enqueue(event('token', { text: 'Meals cost 45 euros [1]' }))
          await gate.promise
          controller.enqueue(event('token', { text: '.' }))
          controller.enqueue(event('sources', { sources: reply.aiMessage.sources }))
          controller.enqueue(event('done', reply))
          controller.close()
        },
      })
      return new HttpResponse(body, { headers: { 'content-type': 'text/event-stream' } })
    }),
  )

  await user.type(input(), 'Meals?{Enter}')

  const marker = await within(main).findByRole('button', { name: 'Show passage 1' }, { timeout: 5000 })
  expect(main.querySelector('li[data-streaming="true"]')).toBeTruthy()
  expect(within(main).queryByText('[1]', { exact: false, selector: 'p' })).toBeNull()
  gate.resolve()
  await waitFor(() => expect(main.querySelector('li[data-streaming="true"]')).toBeNull())
  expect(within(main).getByRole('button', { name: 'Show passage 1' })).toBeTruthy()
  expect(marker).toBeTruthy()
})
