import { screen, waitFor, within } from '@testing-library/react'
import { expect, test } from 'vitest'
import { authEndpoints } from '#contracts/auth.ts'
import { chatEndpoints, MESSAGE_MAX_LENGTH } from '#contracts/chat.ts'
import { documentEndpoints } from '#contracts/documents.ts'
import { answerTo, chatBackend, chatConversation, chatMessage, openChat, source } from './chat-fixtures.ts'
import { fail, ok, server, signedIn } from './msw-server.ts'
import { renderApp } from './render-app.tsx'

const question = 'What does my report say about Q1?'

test('shows the empty state and the composer with its hint', async () => {
  const { main, input } = await openChat(chatBackend())

  expect(within(main).getByText('Start a conversation')).toBeTruthy()
  expect(
    within(main).getByText(
      "Ask questions about your documents or start a general conversation. I'm here to help!",
    ),
  ).toBeTruthy()
  expect(input().getAttribute('placeholder')).toBe('Type your message...')
  expect(input().maxLength).toBe(MESSAGE_MAX_LENGTH)
  expect(within(main).getByRole('button', { name: 'Attach file' })).toBeTruthy()
  expect(within(main).getByRole('button', { name: 'Send message' })).toBeTruthy()
  expect(within(main).getByText('Press Enter to send, Shift + Enter for new line')).toBeTruthy()
})

test('conversations load once, however often I switch sections', async () => {
  const backend = chatBackend({ conversations: [chatConversation('s1')] })
  const { goTo } = await openChat(backend)

  await goTo('Conversation History')
  expect(await screen.findAllByText('Conversation s1')).toHaveLength(2)
  await goTo('Chat with Docs')
  await goTo('Conversation History')
  await goTo('Settings')

  expect(backend.calls.listConversations).toBe(1)
})

test('my message shows at once, the assistant types with the input disabled, then the reply arrives', async () => {
  const backend = chatBackend()
  const release = backend.holdReplies()
  const { user, main, input } = await openChat(backend)

  await user.type(input(), `${question}{Enter}`)

  const conversation = await within(main).findByRole('log', { name: 'Conversation' })
  expect(await within(conversation).findByText(question)).toBeTruthy()
  expect(await screen.findByRole('status', { name: 'Assistant is typing' })).toBeTruthy()
  expect(input().disabled).toBe(true)
  expect(input().value).toBe('')
  release()

  expect(await within(main).findByText(answerTo(question))).toBeTruthy()
  expect(screen.queryByRole('status', { name: 'Assistant is typing' })).toBeNull()
  expect(input().disabled).toBe(false)
  expect(backend.calls.created).toEqual([question])
  expect(backend.calls.sent).toEqual([{ conversationId: 'conversation-1', content: question }])
  // The new conversation is titled with the message, above it.
  expect(within(main).getByRole('heading', { name: question })).toBeTruthy()
  expect(conversation.querySelectorAll('time')).toHaveLength(2)
})

test('a new conversation appears first in Recent Conversations and in History', async () => {
  const backend = chatBackend({ conversations: [chatConversation('older', { title: 'An older talk' })] })
  const { user, main, input, goTo } = await openChat(backend)

  await user.type(input(), `${question}{Enter}`)
  await within(main).findByText(answerTo(question))
  await goTo('Conversation History')

  const recent = screen.getByRole('region', { name: 'Recent Conversations' })
  const [first, second] = within(recent).getAllByRole('link')
  expect(within(first as HTMLElement).getByText(question)).toBeTruthy()
  expect(within(first as HTMLElement).getByText(answerTo(question))).toBeTruthy()
  expect(within(first as HTMLElement).getByText('Just now')).toBeTruthy()
  expect(within(second as HTMLElement).getByText('An older talk')).toBeTruthy()
  const history = within(screen.getByRole('main'))
  const items = history.getAllByRole('listitem')
  expect(items[0]?.textContent).toContain(question)
  expect(items[0]?.textContent).toContain('2 messages')
})

test.each([
  ['sending', chatEndpoints.streamMessage],
  ['creating the conversation', chatEndpoints.createConversation],
])(
  'when %s fails, my message leaves the conversation silently and goes back into the composer',
  async (_, endpoint) => {
    const backend = chatBackend()
    const { user, main, input, log } = await openChat(backend)
    server.use(fail(endpoint, 500, 'Internal error'))

    await user.type(input(), `${question}{Enter}`)

    await waitFor(() => expect(log.error).toHaveBeenCalled())
    const conversation = () => within(main).queryByRole('log', { name: 'Conversation' })
    await waitFor(() => expect(conversation()?.textContent ?? '').not.toContain(question))
    expect(screen.queryByRole('alert')).toBeNull()
    expect(within(main).queryByText('Internal error')).toBeNull()
    expect(input().disabled).toBe(false)
    expect(input().value).toBe(question)
  },
)

test('refused for too many answers at once, I read why and my message is back in the composer', async () => {
  const sentence =
    'You already have 2 answers being written. Wait for one to finish (or stop it), then send again.'
  const backend = chatBackend()
  const { user, main, input } = await openChat(backend)
  server.use(fail(chatEndpoints.streamMessage, 429, sentence))

  await user.type(input(), `${question}{Enter}`)

  expect((await within(main).findByRole('alert')).textContent).toBe(sentence)
  expect(input().value).toBe(question)
  expect(input().disabled).toBe(false)
  expect(within(main).queryByRole('log', { name: 'Conversation' })?.textContent ?? '').not.toContain(question)

  // Once an answer has finished, sending the same text again goes through, and the notice goes.
  server.use(...backend.handlers)
  await user.type(input(), '{Enter}')
  expect(await within(main).findByText(answerTo(question))).toBeTruthy()
  expect(within(main).queryByRole('alert')).toBeNull()
})

test('a conversation created for a message that failed is deleted: no empty conversation stays', async () => {
  const backend = chatBackend()
  const { user, input, goTo } = await openChat(backend)
  server.use(fail(chatEndpoints.streamMessage, 502, 'The language model could not be reached.'))

  await user.type(input(), `${question}{Enter}`)

  await waitFor(() => expect(backend.calls.deleted).toEqual(['conversation-1']))
  await goTo('Conversation History')
  expect((await screen.findAllByText('No conversations yet')).length).toBeGreaterThan(0)
  expect(screen.queryByText(question)).toBeNull()
})

test('Shift+Enter makes a new line; Enter sends the lines as one message', async () => {
  const backend = chatBackend()
  const { user, input, findExact } = await openChat(backend)

  await user.type(input(), 'First line{Shift>}{Enter}{/Shift}Second line')
  expect(input().value).toBe('First line\nSecond line')
  expect(backend.calls.created).toEqual([])

  await user.keyboard('{Enter}')

  expect(await findExact(answerTo('First line\nSecond line'))).toBeTruthy()
  expect(backend.calls.sent[0]?.content).toBe('First line\nSecond line')
})

test('a blank message is not sent', async () => {
  const backend = chatBackend()
  const { user, main, input } = await openChat(backend)

  await user.type(input(), '   {Enter}')
  await user.click(within(main).getByRole('button', { name: 'Send message' }))

  expect(within(main).getByText('Start a conversation')).toBeTruthy()
  expect(backend.calls.created).toEqual([])
  expect(backend.calls.sent).toEqual([])
})

test('the send button sends too', async () => {
  const backend = chatBackend()
  const { user, main, input } = await openChat(backend)

  await user.type(input(), question)
  await user.click(within(main).getByRole('button', { name: 'Send message' }))

  expect(await within(main).findByText(answerTo(question))).toBeTruthy()
})

test('Copy puts the answer on the clipboard and says "Copied" for 1.5 s', async () => {
  const backend = chatBackend()
  const { user, main, input } = await openChat(backend)
  await user.type(input(), `${question}{Enter}`)
  await within(main).findByText(answerTo(question))

  await user.click(within(main).getByRole('button', { name: 'Copy' }))

  expect(await within(main).findByText('Copied')).toBeTruthy()
  const shownAt = Date.now()
  expect(await navigator.clipboard.readText()).toBe(answerTo(question))
  await waitFor(() => expect(within(main).queryByText('Copied')).toBeNull(), { timeout: 3000 })
  expect(Date.now() - shownAt).toBeGreaterThanOrEqual(1300)
  expect(within(main).getByRole('button', { name: 'Copy' })).toBeTruthy()
})

async function openConversation(...messages: ReturnType<typeof chatMessage>[]) {
  const backend = chatBackend({ conversations: [chatConversation('s1')], messages: { s1: messages } })
  const app = await openChat(backend)
  await app.goTo('Conversation History')
  await app.user.click(within(app.main).getByRole('button', { name: /Conversation s1/ }))
  const log = await within(app.main).findByRole('log', { name: 'Conversation' })
  await waitFor(() => expect(log.querySelectorAll('ol > li')).toHaveLength(messages.length))
  return { ...app, backend }
}

test('Like is highlighted only once the server has stored it', async () => {
  const answer = chatMessage('a1', false, 'An answer')
  const { user, main, backend } = await openConversation(chatMessage('u1', true, 'A question'), answer)
  const like = within(main).getByRole('button', { name: 'Like' })
  expect(like.getAttribute('aria-pressed')).toBe('false')

  await user.click(like)

  await waitFor(() => expect(like.getAttribute('aria-pressed')).toBe('true'))
  expect(backend.calls.feedback).toEqual([{ messageId: 'a1', feedback: 'like' }])
  expect(within(main).getByRole('button', { name: 'Dislike' }).getAttribute('aria-pressed')).toBe('false')
})

test('a failed Dislike changes nothing on screen', async () => {
  const answer = chatMessage('a1', false, 'An answer', { feedback: 'like' })
  const { user, main, log } = await openConversation(answer)
  server.use(fail(chatEndpoints.setFeedback, 500))

  await user.click(within(main).getByRole('button', { name: 'Dislike' }))

  await waitFor(() => expect(log.error).toHaveBeenCalled())
  expect(within(main).getByRole('button', { name: 'Dislike' }).getAttribute('aria-pressed')).toBe('false')
  expect(within(main).getByRole('button', { name: 'Like' }).getAttribute('aria-pressed')).toBe('true')
  expect(screen.queryByRole('alert')).toBeNull()
})

test('an answer lists its sources, as links that open in a new tab when they have one', async () => {
  const answer = chatMessage('a1', false, 'Q1 revenue grew.', {
    sources: [
      source(),
      source({ documentId: 'doc-2', documentName: 'notes.txt', chunkId: 'c2', page: null, link: null }),
      source({
        documentId: 'doc-3',
        documentName: 'evil.pdf',
        chunkId: 'c3',
        page: 1,
        link: 'javascript:alert(1)',
      }),
    ],
  })
  const { main } = await openConversation(answer)

  // One line per document: its name opens the file; each passage says its page.
  const link = within(main).getByRole('link', { name: 'Quarterly report.pdf' })
  expect(link.getAttribute('href')).toBe('https://drive.example/file/d/doc-1/view')
  expect(link.getAttribute('target')).toBe('_blank')
  expect(link.getAttribute('rel')).toBe('noopener noreferrer')
  expect(within(main).getByText('notes.txt')).toBeTruthy()
  expect(within(main).getByText('evil.pdf')).toBeTruthy()
  expect(within(main).getAllByText('p. 3')).toHaveLength(1)
  // Besides our own viewer's links ("View in document", one per source), the https one alone.
  const outside = within(main)
    .getAllByRole('link')
    .filter((a) => !a.getAttribute('href')?.startsWith('/dashboard/documents/'))
  expect(outside).toHaveLength(1)
  expect(within(main).getAllByRole('link', { name: /^View in document: / })).toHaveLength(3)
})

test('an answer whose search corrected a misspelled word says what it searched for', async () => {
  const corrected = chatMessage('a1', false, 'To reset your password, open Settings.', {
    corrections: [{ from: 'pasword', to: 'password' }],
  })
  const plain = chatMessage('a2', false, 'The office opens at eight.')
  const { main } = await openConversation(corrected, plain)

  const note = within(main).getByText('Searched for: password')
  expect(note.getAttribute('title')).toBe('You typed: pasword')
  expect(within(main).getAllByText(/Searched for:/)).toHaveLength(1)
})

test('HTML in a message is shown as text, line breaks kept', async () => {
  const html = '<img src=x onerror="alert(1)"><b>bold</b>\nnext line'
  const { main, findExact } = await openConversation(
    chatMessage('u1', true, 'Hi'),
    chatMessage('a1', false, html),
  )

  const bubble = await findExact(html)
  expect(bubble.tagName).toBe('P')
  expect(bubble.children).toHaveLength(0)
  expect(main.querySelector('img, b')).toBeNull()
})

test('Chat with Docs starts a new chat: the open conversation leaves the screen', async () => {
  const { user, main, sidebar } = await openConversation(chatMessage('u1', true, 'Earlier question'))

  await user.click(within(sidebar).getByRole('link', { name: 'Chat with Docs' }))

  expect(within(main).queryByText('Earlier question')).toBeNull()
  expect(within(main).getByText('Start a conversation')).toBeTruthy()
})

test('a conversation has its own address: opening one moves it, and the address opens it again', async () => {
  const backend = chatBackend({
    conversations: [chatConversation('s1', { title: 'Budget talk' })],
    messages: { s1: [chatMessage('m1', true, 'About the budget'), chatMessage('m2', false, 'It grew.')] },
  })
  server.use(signedIn(), ...backend.handlers)
  const reopened = renderApp('/dashboard/c/s1')
  await screen.findByRole('main')
  const main = () => screen.getByRole('main')
  expect(await within(main()).findByText('It grew.')).toBeTruthy()
  expect(reopened.currentPath()).toBe('/dashboard/c/s1')

  await reopened.user.click(
    within(screen.getByRole('navigation', { name: 'Dashboard sections' })).getByRole('link', {
      name: 'Chat with Docs',
    }),
  )
  await waitFor(() => expect(reopened.currentPath()).toBe('/dashboard/chat'))
  expect(within(main()).queryByText('It grew.')).toBeNull()
})

test('Rename gives the open conversation a new title, above it and in the list', async () => {
  const backend = chatBackend({
    conversations: [chatConversation('s1', { title: 'Budget talk' })],
    messages: { s1: [chatMessage('m1', true, 'About the budget'), chatMessage('m2', false, 'It grew.')] },
  })
  server.use(signedIn(), ...backend.handlers)
  const { user } = renderApp('/dashboard/c/s1')
  // The Loading... screen has a main of its own: wait for the conversation's before holding on to it.
  await screen.findByRole('heading', { name: 'Budget talk' })
  const main = screen.getByRole('main')

  await user.click(within(main).getByRole('button', { name: 'Rename' }))
  const field = within(main).getByRole('textbox', { name: 'Conversation title' })
  await user.clear(field)
  await user.type(field, 'Budget 2027{Enter}')

  expect(await within(main).findByRole('heading', { name: 'Budget 2027' })).toBeTruthy()
  const sidebar = screen.getByRole('navigation', { name: 'Dashboard sections' })
  await user.click(within(sidebar).getByRole('link', { name: 'Conversation History' }))
  const recent = await screen.findByRole('region', { name: 'Recent Conversations' })
  expect(within(recent).getByText('Budget 2027')).toBeTruthy()
})

test('an answer renders as markdown: a table, a code block with Copy code, safe links only', async () => {
  const markdown = [
    '## Costs',
    '',
    '| Item | Euros |',
    '|---|---|',
    '| Meals | 45 |',
    '',
    '```sh',
    'npm start',
    '```',
    '',
    '[Docs](https://docs.example) and [bad](javascript:alert(1)) <b>raw</b>',
  ].join('\n')
  const { main } = await openConversation(chatMessage('a1', false, markdown))

  const table = await within(main).findByRole('table')
  expect(within(table).getByRole('cell', { name: '45' })).toBeTruthy()
  expect(within(main).getByRole('heading', { name: 'Costs' })).toBeTruthy()
  expect(within(main).getByText('npm start').closest('pre')).toBeTruthy()
  // The copy button is in the block's header, before the code, not inside it.
  const copyCode = within(main).getByRole('button', { name: 'Copy code' })
  const pre = within(main).getByText('npm start').closest('pre') as HTMLElement
  expect(pre.contains(copyCode)).toBe(false)
  expect(copyCode.compareDocumentPosition(pre) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy()
  const link = within(main).getByRole('link', { name: 'Docs' })
  expect(link.getAttribute('rel')).toBe('noopener noreferrer')
  expect(within(main).queryByRole('link', { name: 'bad' })).toBeNull()
  expect(main.querySelector('b')).toBeNull()
})

test('a [1] citation shows its passage, its document and page; a marker naming no passage is not shown', async () => {
  const answer = chatMessage('a1', false, 'Meals cost 45 euros [1]. Taxis are free [7].', {
    sources: [source({ citation: 1, quote: 'The daily meal allowance abroad is 45 euros.' })],
  })
  const { main, user } = await openConversation(answer)

  await user.click(await within(main).findByRole('button', { name: 'Show passage 1' }))
  const panel = within(main).getByRole('region', { name: /Passage 1 from Quarterly report.pdf/ })
  expect(within(panel).getByText('The daily meal allowance abroad is 45 euros.')).toBeTruthy()
  expect(within(panel).getByText(/p\. 3/)).toBeTruthy()
  expect(within(panel).getByRole('link', { name: 'Open Quarterly report.pdf' }).getAttribute('href')).toBe(
    'https://drive.example/file/d/doc-1/view',
  )
  expect(within(main).queryByText(/\[7\]/)).toBeNull()
})

test('the empty chat says how many documents are ready and offers starter questions from their headings; one is sent as asked', async () => {
  const backend = chatBackend()
  server.use(
    ok(documentEndpoints.firstRun, {
      success: true,
      data: {
        ready: 12,
        questions: ['What does budget.md say about “Travel costs”?', 'What does plan.md say about “Goals”?'],
      },
    }),
  )
  const { user, main } = await openChat(backend)

  expect(await within(main).findByText('12 documents are ready to ask about.')).toBeTruthy()
  const starters = within(main).getByRole('list', { name: 'Starter questions' })
  expect(
    within(starters)
      .getAllByRole('button')
      .map((b) => b.textContent),
  ).toEqual(['What does budget.md say about “Travel costs”?', 'What does plan.md say about “Goals”?'])
  await user.click(
    within(starters).getByRole('button', { name: 'What does budget.md say about “Travel costs”?' }),
  )

  expect(
    await within(main).findByText(answerTo('What does budget.md say about “Travel costs”?')),
  ).toBeTruthy()
  expect(within(main).queryByRole('list', { name: 'Starter questions' })).toBeNull()
})

test('with no document ready, the empty chat says so and where to add some', async () => {
  server.use(
    ok(authEndpoints.options, {
      success: true,
      data: { google: true, passwordReset: true, signup: 'open', emailVerification: false },
    }),
  )
  const { main } = await openChat(chatBackend())

  expect(await within(main).findByText(/No documents are ready yet/)).toBeTruthy()
  expect(within(main).getByRole('link', { name: 'Connect Google Drive' }).getAttribute('href')).toBe(
    '/dashboard/integrations',
  )
  expect(within(main).queryByRole('list', { name: 'Starter questions' })).toBeNull()
})

test('on a server without Google Drive, the empty chat offers an upload, never Drive', async () => {
  const { main } = await openChat(chatBackend())

  expect(await within(main).findByText(/No documents are ready yet/)).toBeTruthy()
  expect(within(main).getByRole('link', { name: 'Upload a document' }).getAttribute('href')).toBe(
    '/dashboard/docs',
  )
  expect(within(main).queryByText(/Google Drive/)).toBeNull()
})

test('a deleted or unknown conversation address says it does not exist, with the way to a new chat', async () => {
  const { main, user, currentPath } = await openChat(
    chatBackend(),
    '/dashboard/c/0b5c7a52-6c2f-4f4e-9a51-00000000dead',
  )

  expect(await within(main).findByText('This conversation does not exist or was deleted.')).toBeTruthy()
  expect(within(main).queryByText('Start a conversation')).toBeNull()
  expect(within(main).queryByRole('textbox', { name: 'Message' })).toBeNull()

  await user.click(within(main).getByRole('link', { name: 'Start a new chat' }))
  await waitFor(() => expect(currentPath()).toBe('/dashboard/chat'))
  expect(await within(main).findByText('Start a conversation')).toBeTruthy()
})

test("inside a conversation the tab is named after it; a new chat's tab says Chat with Docs", async () => {
  const backend = chatBackend({
    conversations: [chatConversation('s1', { title: 'Travel allowance' })],
    messages: { s1: [chatMessage('m1', true, 'How much abroad?')] },
  })
  const { user } = await openChat(backend, '/dashboard/c/s1')

  await waitFor(() => expect(document.title).toBe('Travel allowance · DocChat'))
  await user.click(screen.getByRole('link', { name: 'New chat' }))
  await waitFor(() => expect(document.title).toBe('Chat with Docs · DocChat'))
})
