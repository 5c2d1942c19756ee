/**
 * The public chat (issue 37) as a visitor meets it: the real page (src/public/main.ts) against
 * the visitor's calls answered by MSW from contracts/publishing.ts.
 */
import { screen, waitFor, within } from '@testing-library/dom'
import userEvent from '@testing-library/user-event'
import { HttpResponse, http } from 'msw'
import { afterEach, expect, test } from 'vitest'
import type { PublicAssistant, PublicMessage } from '#contracts/publishing.ts'
import { publicEndpoints } from '#contracts/publishing.ts'
import { startPublicChat } from '#src/public/main.ts'
import { errorResponse, fail, ok, server, urlOf } from './msw-server.ts'

const BUSY = 'The HR bot has answered enough for today. Please come back tomorrow.'
const AT = '2026-01-01T00:00:00.000Z'

const assistant: PublicAssistant = {
  publicId: 'pub-1',
  name: 'HR bot',
  description: 'Answers about leave and pay',
  starterQuestions: ['How many days of leave?', 'When is payday?'],
  privacyNotice: 'Your questions are kept for 90 days and read by HR.',
  requireChallenge: false,
}

const message = (
  id: string,
  isUser: boolean,
  content: string,
  extra: Partial<PublicMessage> = {},
): PublicMessage => ({
  _id: id,
  isUser,
  content,
  createdAt: AT,
  feedback: null,
  sources: [],
  ...extra,
})

const answer = message('22222222-2222-4222-8222-222222222222', false, 'Twenty-five days [1] [2].', {
  sources: [
    { citation: 1, documentName: 'Leave policy.pdf', page: 3, snippet: 'Every employee gets 25 days.' },
    { citation: 2, documentName: null, page: null, snippet: 'Part-timers get it pro rata.' },
  ],
})

function stream(content: string) {
  const reply = { conversationId: 'conv-1', userMessage: message('q-1', true, content), aiMessage: answer }
  const events = [
    ['token', { text: 'Twenty-five ' }],
    ['token', { text: 'days [1] [2].' }],
    ['done', reply],
  ] as const
  const body = events.map(([event, data]) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`).join('')
  return new HttpResponse(body, { headers: { 'content-type': 'text/event-stream' } })
}

/** The visitor's calls; `asks` records each question's body. */
function visitorBackend(
  conversation: PublicMessage[] | null = null,
  askAnswer?: (content: string) => Response,
  answered: PublicMessage = answer,
) {
  const asks: unknown[] = []
  const feedback: unknown[] = []
  let stored = conversation
  server.use(
    ok(publicEndpoints.getPublicAssistant, { success: true, data: assistant }),
    http.get(urlOf(publicEndpoints.getVisitorConversation), () =>
      stored
        ? HttpResponse.json({ success: true, data: { conversationId: 'conv-1', messages: stored } })
        : errorResponse(404, 'No conversation yet'),
    ),
    http.post(urlOf(publicEndpoints.ask), async ({ request }) => {
      const body = (await request.json()) as { content: string }
      asks.push(body)
      stored = [message('q-1', true, body.content), answered]
      return askAnswer ? askAnswer(body.content) : stream(body.content)
    }),
    http.post(urlOf(publicEndpoints.feedback), async ({ request }) => {
      feedback.push(await request.json())
      return HttpResponse.json({ success: true, data: null })
    }),
  )
  return { asks, feedback }
}

function open() {
  const root = document.createElement('div')
  document.body.append(root)
  const actor = startPublicChat(root, { mode: 'page', publicId: 'pub-1' })
  return { root, actor }
}

let stop: (() => void) | null = null
afterEach(() => {
  stop?.()
  document.body.replaceChildren()
})

test('shows the assistant, the privacy line above the first message, and asks a starter question', async () => {
  const { asks } = visitorBackend()
  const { actor } = open()
  stop = () => actor.stop()

  expect(await screen.findByRole('heading', { name: 'HR bot' })).toBeTruthy()
  expect(screen.getByText('Answers about leave and pay')).toBeTruthy()
  const log = screen.getByRole('log', { name: 'Conversation' })
  expect(log.firstElementChild?.textContent).toBe(assistant.privacyNotice)
  await userEvent.click(screen.getByRole('button', { name: 'How many days of leave?' }))

  expect(await within(log).findByText('Twenty-five days [1] [2].')).toBeTruthy()
  expect(asks).toEqual([{ content: 'How many days of leave?' }])
  expect(screen.queryByRole('button', { name: 'When is payday?' })).toBeNull()
})

test('citations are numbered snippets with the document name when shown, never links', async () => {
  visitorBackend([message('q-1', true, 'Leave?'), answer])
  const { actor, root } = open()
  stop = () => actor.stop()

  const sources = await screen.findByRole('region', { name: 'Sources' })
  const [first, second] = within(sources).getAllByRole('listitem')
  expect(first?.textContent).toBe('[1] Leave policy.pdf, page 3Every employee gets 25 days.')
  expect(second?.textContent).toBe('[2]Part-timers get it pro rata.')
  expect(root.querySelectorAll('a')).toHaveLength(0)
})

test('an answer shows its markdown, not the marks it is written with, and HTML in it as text', async () => {
  visitorBackend([
    message('q-1', true, 'Leave?'),
    message('a-1', false, 'You get **25 days** [1]:\n\n- annual\n- <b>paid</b>'),
  ])
  const { actor } = open()
  stop = () => actor.stop()
  await screen.findByRole('textbox', { name: 'Your question' })

  const log = screen.getByRole('log', { name: 'Conversation' })
  // The renderer is loaded with the first answer (transformed on the spot here, a while on a busy machine).
  const strong = await waitFor(
    () => {
      const found = log.querySelector('.pc-bot strong')
      if (!found) throw new Error(`no bold yet: ${log.innerHTML}`)
      return found
    },
    { timeout: 10_000 },
  )
  expect(strong.textContent).toBe('25 days')
  expect([...log.querySelectorAll('.pc-bot li')].map((li) => li.textContent)).toEqual([
    'annual',
    '<b>paid</b>',
  ])
  expect(log.querySelector('.pc-bot b')).toBeNull()
  expect(log.textContent).not.toContain('**')
})

test('once the answer is complete its checked markers show ✓ or ⚠, named by their outcome as in the app', async () => {
  const checked = message('a-2', false, 'Leave is 25 days [1]. Parents get 300 days [2].', {
    sources: answer.sources,
    checks: [
      {
        marker: 1,
        sentence: 'Leave is 25 days.',
        outcome: 'repaired',
        sourceIndex: 1,
        movedFrom: 2,
        missing: [],
      },
      {
        marker: 2,
        sentence: 'Parents get 300 days.',
        outcome: 'unverified',
        sourceIndex: 2,
        missing: ['300 days'],
      },
    ],
  })
  visitorBackend(
    null,
    (content) => {
      const reply = {
        conversationId: 'conv-1',
        userMessage: message('q-1', true, content),
        aiMessage: checked,
      }
      const body = [
        `event: token\ndata: ${JSON.stringify({ text: 'Leave is 25 days [2]. Parents get 300 days [2].' })}\n\n`,
        `event: done\ndata: ${JSON.stringify(reply)}\n\n`,
      ].join('')
      return new HttpResponse(body, { headers: { 'content-type': 'text/event-stream' } })
    },
    checked,
  )
  const { actor } = open()
  stop = () => actor.stop()
  await userEvent.type(await screen.findByRole('textbox', { name: 'Your question' }), 'Leave?{Enter}')

  const log = screen.getByRole('log', { name: 'Conversation' })
  const moved = await within(log).findByRole(
    'img',
    { name: 'Passage 1, checked (moved here from passage 2)' },
    { timeout: 10_000 },
  )
  const missing = within(log).getByRole('img', { name: 'Passage 2: 300 days not found in the passage' })
  expect(moved.textContent).toBe('[1✓]')
  expect(missing.textContent).toBe('[2⚠]')
  expect(missing.getAttribute('title')).toBe('Passage 2: 300 days not found in the passage')
  expect(log.querySelector('.pc-bot .pc-text')?.textContent).toBe(
    'Leave is 25 days [1✓]. Parents get 300 days [2⚠].',
  )
})

test("over the owner's budget the owner's busy sentence shows and the question stays in the composer", async () => {
  visitorBackend(null, () => errorResponse(429, BUSY))
  const { actor } = open()
  stop = () => actor.stop()
  const input = await screen.findByRole('textbox', { name: 'Your question' })

  await userEvent.type(input, 'Anyone there?{Enter}')

  expect((await screen.findByRole('alert')).textContent).toBe(BUSY)
  expect((input as HTMLTextAreaElement).value).toBe('Anyone there?')
})

test("a refused question shows the server's sentence as it is", async () => {
  visitorBackend(null, () => errorResponse(400, 'A question can be at most 2000 characters'))
  const { actor } = open()
  stop = () => actor.stop()
  await userEvent.type(await screen.findByRole('textbox', { name: 'Your question' }), 'Too long{Enter}')

  expect((await screen.findByRole('alert')).textContent).toBe('A question can be at most 2000 characters')
})

test('the conversation is back after a reload; New conversation empties it and the next question starts another', async () => {
  const { asks } = visitorBackend([
    message('q-0', true, 'Earlier question'),
    message('a-0', false, 'Earlier answer'),
  ])
  const { actor } = open()
  stop = () => actor.stop()
  expect(await screen.findByText('Earlier answer')).toBeTruthy()

  await userEvent.click(screen.getByRole('button', { name: 'New conversation' }))
  expect(screen.queryByText('Earlier answer')).toBeNull()
  await userEvent.click(screen.getByRole('button', { name: 'When is payday?' }))

  await screen.findByText('Twenty-five days [1] [2].')
  expect(asks).toEqual([{ content: 'When is payday?' }])
})

test('an answer can be liked, and the like shows pressed', async () => {
  const { feedback } = visitorBackend([message('q-1', true, 'Leave?'), answer])
  const { actor } = open()
  stop = () => actor.stop()

  const like = await screen.findByRole('button', { name: 'Helpful' })
  await userEvent.click(like)

  await waitFor(() => expect(feedback).toEqual([{ feedback: 'like' }]))
  expect(like.getAttribute('aria-pressed')).toBe('true')
})

test("an unknown assistant says so in the server's words", async () => {
  server.use(
    fail(publicEndpoints.getPublicAssistant, 404, 'No such assistant'),
    fail(publicEndpoints.getVisitorConversation, 404, 'No such assistant'),
  )
  const { actor } = open()
  stop = () => actor.stop()

  expect(await screen.findByRole('heading', { name: 'No such assistant' })).toBeTruthy()
  expect(screen.queryByRole('textbox')).toBeNull()
})
