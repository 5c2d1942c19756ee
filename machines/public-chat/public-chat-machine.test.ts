import { expect, test, vi } from 'vitest'
import { createActor, waitFor } from 'xstate'
import type { PublicAskRequest, PublicAssistant, PublicMessage } from '#contracts/publishing.ts'
import { isBusy, type PublicChatSnapshot, providePublicChatMachine } from './public-chat-actor.ts'
import type { PublicChatDeps, VisitorStream } from './public-chat-effects.ts'
import type { PublicAnswer, VisitorConversation } from './public-chat-model.ts'

// The chat's sender running against a second set of calls (a visitor's): nothing of the
// dashboard's calls is provided, and the sender's steps still reach the screen.

const AT = new Date('2026-01-01T00:00:00.000Z')
const BUSY = 'The HR bot is busy. Try again after lunch.'

const assistant = (extra: Partial<PublicAssistant> = {}): PublicAssistant => ({
  publicId: 'pub-1',
  name: 'HR bot',
  description: 'Answers about leave',
  starterQuestions: ['How many days of leave?'],
  privacyNotice: 'Questions are kept 90 days.',
  requireChallenge: false,
  ...extra,
})

const message = (
  id: string,
  isUser: boolean,
  content: string,
  extra: Partial<PublicMessage> = {},
): PublicMessage => ({
  _id: id,
  isUser,
  content,
  createdAt: AT.toISOString(),
  feedback: null,
  sources: [],
  ...extra,
})

class HttpError extends Error {
  readonly status: number
  constructor(status: number, message: string) {
    super(message)
    this.status = status
  }
}

type Ask = {
  body: PublicAskRequest
  stream: VisitorStream
  resolve: (a: PublicAnswer) => void
  reject: (e: unknown) => void
}

function start(
  opts: {
    assistant?: PublicAssistant
    conversation?: VisitorConversation | null
    /** Signed users' conversations, by token (the server reads them by `sub`, on any device). */
    signed?: Record<string, VisitorConversation>
  } = {},
) {
  const asks: Ask[] = []
  let stored: VisitorConversation | null = opts.conversation ?? null
  const deps: PublicChatDeps = {
    getAssistant: vi.fn(async () => opts.assistant ?? assistant()),
    getConversation: vi.fn(async (userToken: string | null) =>
      userToken ? (opts.signed?.[userToken] ?? null) : stored,
    ),
    ask: vi.fn(
      (body: PublicAskRequest, stream: VisitorStream) =>
        new Promise<PublicAnswer>((resolve, reject) => asks.push({ body, stream, resolve, reject })),
    ),
    feedback: vi.fn(async () => {}),
    log: { error: vi.fn(), warn: vi.fn() },
  }
  const actor = createActor(providePublicChatMachine(deps), { input: { now: () => AT } }).start()
  const answer = (n: number, conversationId = 'conv-1'): PublicAnswer => {
    const reply = {
      conversationId,
      userMessage: message(`q${n}`, true, asks[n]?.body.content ?? ''),
      aiMessage: message(`a${n}`, false, 'Twenty-five days [1].', {
        sources: [{ citation: 1, documentName: null, page: 2, snippet: 'Staff get 25 days.' }],
      }),
    }
    stored = { conversationId, messages: [...(stored?.messages ?? []), reply.userMessage, reply.aiMessage] }
    return reply
  }
  const ready = () => waitFor(actor, (s) => s.matches({ ready: 'settled' }) && !isBusy(s))
  return { actor, deps, asks, answer, ready }
}

const texts = (s: PublicChatSnapshot) => s.context.messages.map((m) => `${m.sender}:${m.content}`)

test('a starter question is asked without a conversation, streams, and the conversation it made is kept', async () => {
  const { actor, asks, answer, ready } = start()
  await ready()

  actor.send({ type: 'public.send', content: 'How many days of leave?' })
  await vi.waitFor(() => expect(asks).toHaveLength(1))
  asks[0]?.stream.onToken('Twenty-five')
  expect(texts(actor.getSnapshot())).toEqual(['user:How many days of leave?', 'bot:Twenty-five'])
  expect(actor.getSnapshot().context.messages[1]?.streaming).toBe(true)
  asks[0]?.resolve(answer(0))
  await ready()

  expect(asks[0]?.body).toEqual({ content: 'How many days of leave?' })
  const { messages, conversationId } = actor.getSnapshot().context
  expect(conversationId).toBe('conv-1')
  expect(messages.map((m) => m.id)).toEqual(['q0', 'a0'])
  expect(messages[1]?.sources).toEqual([
    { citation: 1, documentName: null, page: 2, snippet: 'Staff get 25 days.' },
  ])
})

const ALICE: VisitorConversation = {
  conversationId: 'conv-alice',
  messages: [message('qa', true, 'Hi, I am Alice'), message('aa', false, 'Hello Alice')],
}
const ANONYMOUS: VisitorConversation = {
  conversationId: 'conv-9',
  messages: [message('q', true, 'Hi'), message('a', false, 'Hello')],
}

test("once the host names its user, the chat shows that user's conversation and carries it on with the token", async () => {
  const { actor, deps, asks, answer, ready } = start({
    conversation: ANONYMOUS,
    signed: { 'jwt.of.alice': ALICE },
  })
  await ready()
  expect(texts(actor.getSnapshot())).toEqual(['user:Hi', 'bot:Hello'])
  actor.send({ type: 'public.identify', token: 'jwt.of.alice' })
  await vi.waitFor(() =>
    expect(texts(actor.getSnapshot())).toEqual(['user:Hi, I am Alice', 'bot:Hello Alice']),
  )
  await ready()
  expect(deps.getConversation).toHaveBeenLastCalledWith('jwt.of.alice')

  actor.send({ type: 'public.type', text: 'And sick days?' })
  actor.send({ type: 'public.send' })
  await vi.waitFor(() => expect(asks).toHaveLength(1))

  expect(asks[0]?.body).toEqual({
    content: 'And sick days?',
    conversationId: 'conv-alice',
    userToken: 'jwt.of.alice',
  })
  asks[0]?.resolve(answer(0, 'conv-alice'))
  await ready()
  expect(texts(actor.getSnapshot())).toHaveLength(4)
})

test("a token that comes while the chat loads is used for the load: the cookie's conversation is never shown", async () => {
  const { actor, deps, ready } = start({ conversation: ANONYMOUS, signed: { 'jwt.of.alice': ALICE } })
  actor.send({ type: 'public.identify', token: 'jwt.of.alice' })
  await ready()
  expect(texts(actor.getSnapshot())).toEqual(['user:Hi, I am Alice', 'bot:Hello Alice'])
  expect(actor.getSnapshot().context.conversationId).toBe('conv-alice')
  expect(deps.getConversation).toHaveBeenLastCalledWith('jwt.of.alice')
})

test('a signed user with no conversation yet starts one, whatever the cookie had', async () => {
  const { actor, asks, ready } = start({ conversation: ANONYMOUS })
  await ready()
  actor.send({ type: 'public.identify', token: 'jwt.of.bob' })
  await vi.waitFor(() => expect(actor.getSnapshot().context.messages).toEqual([]))
  await ready()
  actor.send({ type: 'public.send', content: 'How many days of leave?' })
  await vi.waitFor(() => expect(asks).toHaveLength(1))
  expect(asks[0]?.body).toEqual({ content: 'How many days of leave?', userToken: 'jwt.of.bob' })
})

test("over a budget the owner's busy sentence is shown and the question goes back into the composer", async () => {
  const { actor, asks, ready } = start()
  await ready()
  actor.send({ type: 'public.type', text: 'Is it busy?' })
  actor.send({ type: 'public.send' })
  await vi.waitFor(() => expect(asks).toHaveLength(1))

  asks[0]?.reject(new HttpError(429, BUSY))
  await ready()

  const { context } = actor.getSnapshot()
  expect(context.answerNotice).toBe(BUSY)
  expect(context.draft).toBe('Is it busy?')
  expect(context.messages).toEqual([])
})

test("a refused question shows the server's sentence; an unreachable server, ours", async () => {
  const { actor, asks, ready } = start()
  await ready()
  actor.send({ type: 'public.send', content: 'x' })
  await vi.waitFor(() => expect(asks).toHaveLength(1))
  asks[0]?.reject(new HttpError(401, 'Your sign-in on this site has expired. Reload the page.'))
  await ready()
  expect(actor.getSnapshot().context.answerNotice).toBe(
    'Your sign-in on this site has expired. Reload the page.',
  )

  actor.send({ type: 'public.send', content: 'y' })
  await vi.waitFor(() => expect(asks).toHaveLength(2))
  asks[1]?.reject(new HttpError(0, 'Failed to fetch'))
  await ready()
  expect(actor.getSnapshot().context.answerNotice).toMatch(/could not be reached/)
})

test('New conversation empties the chat and the next question starts another one', async () => {
  const { actor, asks, ready } = start({
    conversation: {
      conversationId: 'conv-9',
      messages: [message('q', true, 'Hi'), message('a', false, 'Hello')],
    },
  })
  await ready()

  actor.send({ type: 'public.new' })
  expect(actor.getSnapshot().context.messages).toEqual([])
  actor.send({ type: 'public.send', content: 'Fresh start' })
  await vi.waitFor(() => expect(asks).toHaveLength(1))

  expect(asks[0]?.body).toEqual({ content: 'Fresh start' })
})

test('when the owner asks for a challenge, nothing is asked before it is solved, and its solution goes once', async () => {
  const { actor, asks, answer, ready } = start({ assistant: assistant({ requireChallenge: true }) })
  await ready()

  actor.send({ type: 'public.send', content: 'Too soon' })
  await new Promise((resolve) => setTimeout(resolve, 10))
  expect(asks).toHaveLength(0)

  actor.send({ type: 'public.challengeSolved', payload: 'altcha-payload' })
  actor.send({ type: 'public.send', content: 'Now' })
  await vi.waitFor(() => expect(asks).toHaveLength(1))
  asks[0]?.resolve(answer(0))
  await ready()
  actor.send({ type: 'public.send', content: 'Again' })
  await vi.waitFor(() => expect(asks).toHaveLength(2))

  expect(asks[0]?.body).toEqual({ content: 'Now', challenge: 'altcha-payload' })
  expect(asks[1]?.body).toEqual({ content: 'Again', conversationId: 'conv-1' })
})

test('a like that cannot be saved is taken back, with a sentence', async () => {
  const { actor, deps, ready } = start({
    conversation: {
      conversationId: 'conv-9',
      messages: [message('q', true, 'Hi'), message('a', false, 'Hello')],
    },
  })
  vi.mocked(deps.feedback).mockRejectedValueOnce(new HttpError(500, 'boom'))
  await ready()

  actor.send({ type: 'public.rate', messageId: 'a', feedback: 'like' })
  expect(actor.getSnapshot().context.messages[1]?.feedback).toBe('like')
  await vi.waitFor(() => expect(actor.getSnapshot().context.notice).not.toBeNull())

  expect(actor.getSnapshot().context.messages[1]?.feedback).toBeNull()
  expect(deps.feedback).toHaveBeenCalledWith('a', 'like', null)
})

test("a signed visitor's like goes with their token, and a second press after it is saved is sent too", async () => {
  const { actor, deps, ready } = start({ signed: { 'jwt.of.alice': ANONYMOUS } })
  await ready()
  actor.send({ type: 'public.identify', token: 'jwt.of.alice' })
  await vi.waitFor(() => expect(actor.getSnapshot().context.messages).toHaveLength(2))
  await ready()

  actor.send({ type: 'public.rate', messageId: 'a', feedback: 'like' })
  await vi.waitFor(() => expect(actor.getSnapshot().children['rate:a']).toBeUndefined())
  actor.send({ type: 'public.rate', messageId: 'a', feedback: 'dislike' })
  await vi.waitFor(() => expect(deps.feedback).toHaveBeenCalledTimes(2))

  expect(vi.mocked(deps.feedback).mock.calls).toEqual([
    ['a', 'like', 'jwt.of.alice'],
    ['a', 'dislike', 'jwt.of.alice'],
  ])
  expect(actor.getSnapshot().context.messages[1]?.feedback).toBe('dislike')
})

test("an unknown assistant shows the server's sentence", async () => {
  const { actor, deps } = start()
  vi.mocked(deps.getAssistant).mockRejectedValueOnce(new HttpError(404, 'No such assistant'))
  const again = createActor(providePublicChatMachine(deps), { input: { now: () => AT } }).start()
  await waitFor(again, (s) => s.matches('unavailable'))

  expect(again.getSnapshot().context.loadError).toBe('No such assistant')
  actor.stop()
})
