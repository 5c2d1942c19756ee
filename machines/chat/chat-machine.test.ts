import { expect, test, vi } from 'vitest'
import { type ActorRefFrom, createActor, enqueueActions, sendTo, setup } from 'xstate'
import type { Conversation, SendMessageResponse } from '#contracts/chat.ts'
import type { OpenConversationDeps, SenderDeps } from './chat-effects.ts'
import { message } from './chat-fixtures.ts'
import type { AnswerStream, ChatEvent, ConversationFact, ExchangeFact } from './chat-types.ts'
import { type openConversationMachine, provideOpenConversationMachine } from './open-conversation-machine.ts'
import { provideSenderMachine } from './sender-machine.ts'

test('without its effects the machine fails loudly instead of pretending', async () => {
  const { chatMachine } = await import('./chat-machine.ts')
  const chat = createActor(chatMachine)
  const errors: unknown[] = []
  chat.subscribe({ error: (error) => errors.push(error) })
  chat.start()
  await new Promise((resolve) => setTimeout(resolve, 0))

  expect(String(errors[0] ?? chat.getSnapshot().error)).toMatch(/was not provided/)
})

// Another chat surface (a published assistant's public chat): its own calls, no conversation
// list, no feedback, versions or scope. The sender and the open conversation run unchanged.

type PublicReply = { question: { id: string; text: string }; answer: { id: string; text: string } }
type PublicStream = (
  assistantId: string,
  text: string,
  on: { delta: (text: string) => void; signal: AbortSignal },
) => Promise<PublicReply>

const notOffered = () => Promise.reject(new Error('not offered in a public chat'))

/** The public call adapted to what the sender and the conversation take; nothing else is provided. */
function publicDeps(stream: PublicStream, at: Date): SenderDeps & OpenConversationDeps {
  const asMessage = (id: string, isUser: boolean, content: string) =>
    message(id, isUser, content, { createdAt: at.toISOString() })
  return {
    // One visit, one conversation, kept in the browser: nothing is created on the server.
    createConversation: async (title) =>
      ({
        _id: 'visit',
        title,
        createdAt: '',
        updatedAt: '',
        messageCount: 0,
        lastMessage: '',
      }) as Conversation,
    sendMessage: async (_conversationId, content, { onToken, signal }: AnswerStream) => {
      const reply = await stream('assistant-7', content, { delta: onToken, signal })
      return {
        userMessage: asMessage(reply.question.id, true, reply.question.text),
        aiMessage: asMessage(reply.answer.id, false, reply.answer.text),
      } satisfies SendMessageResponse
    },
    listMessages: async () => [],
    listConversationFiles: async () => [],
    uploadFile: notOffered,
    regenerate: notOffered,
    setFeedback: notOffered,
    showVersion: notOffered,
    explainDislike: notOffered,
    setScope: notOffered,
    log: { error: vi.fn(), warn: vi.fn() },
  }
}

/** The public chat's own small surface: it routes a message and hands the exchange to the screen. */
function publicChat(deps: SenderDeps & OpenConversationDeps, now: () => Date) {
  const surface = setup({
    types: { events: {} as ChatEvent | ExchangeFact | ConversationFact },
    actors: {
      sender: provideSenderMachine(deps),
      conversation: provideOpenConversationMachine(deps),
    },
  }).createMachine({
    invoke: [
      { id: 'conversation', systemId: 'conversation', src: 'conversation', input: { now } },
      { id: 'sender', systemId: 'sender', src: 'sender', input: { now } },
    ],
    on: {
      'chat.send': {
        actions: enqueueActions(({ event, self, enqueue }) => {
          const screen = self.getSnapshot().children.conversation as ActorRefFrom<
            typeof openConversationMachine
          >
          const { conversationId } = screen.getSnapshot().context
          enqueue.sendTo('sender', {
            type: 'sender.send',
            content: event.content,
            conversationId,
            documentIds: [],
          })
        }),
      },
      'exchange.*': { actions: sendTo('conversation', ({ event }) => event as ExchangeFact) },
    },
  })
  return createActor(surface).start()
}

test('the sender and the open conversation run unchanged against another surface’s calls and clock', async () => {
  const at = new Date()
  const gate = Promise.withResolvers<PublicReply>()
  let delta: ((text: string) => void) | undefined
  const stream = vi.fn<PublicStream>((_id, _text, on) => {
    delta = on.delta
    return gate.promise
  })
  const chat = publicChat(publicDeps(stream, at), () => at)
  const screen = () =>
    (chat.getSnapshot().children.conversation as ActorRefFrom<typeof openConversationMachine>).getSnapshot()
      .context

  chat.send({ type: 'chat.send', content: 'Opening hours?' })
  await vi.waitFor(() =>
    expect(stream).toHaveBeenCalledWith('assistant-7', 'Opening hours?', expect.anything()),
  )
  expect(screen().messages).toEqual([
    expect.objectContaining({
      id: 'temp-1',
      sender: 'user',
      content: 'Opening hours?',
      time: at.toISOString(),
    }),
  ])
  delta?.('Nine ')
  delta?.('to five.')
  expect(screen().messages.map((m) => [m.id, m.content, m.streaming])).toEqual([
    ['temp-1', 'Opening hours?', false],
    ['temp-1:answer', 'Nine to five.', true],
  ])

  gate.resolve({
    question: { id: 'q1', text: 'Opening hours?' },
    answer: { id: 'a1', text: 'Nine to five.' },
  })
  await vi.waitFor(() => expect(screen().messages.at(-1)?.id).toBe('a1'))
  expect(screen().conversationId).toBe('visit')
  expect(screen().messages.map((m) => [m.id, m.sender, m.content])).toEqual([
    ['q1', 'user', 'Opening hours?'],
    ['a1', 'bot', 'Nine to five.'],
  ])
})
