/**
 * The signed-in chat (product §2, §4, §5, §8) as a surface over three actors it runs for the
 * dashboard's lifetime: the conversation list, the open conversation and the sender. It routes
 * each intent to the actor that owns it (with what a sibling says about it: sending waits while
 * a conversation loads), hands the sender's facts to the conversation and the list, and tells the
 * app what it did on its own (emitted events). It keeps one thing itself: which conversation is
 * open, for the address. Calls are injected with provideChatMachine(deps); views read chat-selectors.ts.
 */
import { type ActorRefFrom, assign, emit, enqueueActions, type SnapshotFrom, setup } from 'xstate'
import { canRegenerate } from './chat-model.ts'
import type {
  ChatDeps,
  ChatEmitted,
  ChatEvent,
  ChatInput,
  ConversationFact,
  ExchangeFact,
  ListFact,
} from './chat-types.ts'
import { conversationListMachine, provideConversationListMachine } from './conversation-list-machine.ts'
import { versionActorId } from './open-conversation-actions.ts'
import {
  conversationScopeOf,
  openConversationMachine,
  provideOpenConversationMachine,
  runningFor,
} from './open-conversation-machine.ts'
import { provideSenderMachine, senderMachine } from './sender-machine.ts'

type Conversation = ActorRefFrom<typeof openConversationMachine>
type List = ActorRefFrom<typeof conversationListMachine>
type ChatChildEvent = ExchangeFact | ConversationFact | ListFact

/** The open conversation's actor (always running while the chat runs). */
const conversationRef = (children: Record<string, unknown>) => children.conversation as Conversation
const listRef = (children: Record<string, unknown>) => children.conversationList as List | undefined

const TO_CONVERSATION = [
  'chat.new',
  'chat.showSource',
  'chat.closeSource',
  'chat.fileAdded',
  'chat.rate',
  'chat.showVersion',
  'chat.explainDislike',
  'chat.skipReason',
  'chat.scopeAdd',
  'chat.scopeRemove',
  'chat.scopeClear',
] as const
const TO_LIST = ['chat.delete', 'chat.rename', 'chat.search'] as const
const TO_SENDER = ['chat.type', 'chat.stop'] as const
const EXCHANGE_FACTS = [
  'exchange.shown',
  'exchange.created',
  'exchange.refused',
  'exchange.grew',
  'exchange.sources',
  'exchange.replied',
  'exchange.dropped',
  'exchange.discarded',
  'exchange.stopped',
  'exchange.stopStored',
  'exchange.regenerating',
  'exchange.regeneratedGrew',
  'exchange.regenerated',
  'exchange.restored',
  'exchange.regenerateStopped',
  'exchange.fileUploaded',
] as const

const chatSetup = setup({
  types: {
    context: {} as { selectedConversationId: string | null; now: (() => Date) | undefined },
    events: {} as ChatEvent | ChatChildEvent,
    emitted: {} as ChatEmitted,
    children: {} as { conversationList: 'conversationList'; conversation: 'conversation'; sender: 'sender' },
  },
  actors: {
    conversationList: conversationListMachine,
    conversation: openConversationMachine,
    sender: senderMachine,
  },
  actions: {
    /**
     * A child's new snapshot makes a new chat snapshot: views select from the chat actor, and
     * React's useSelector only looks again when the snapshot it holds is another object.
     */
    noteChildChange: assign(({ context }) => ({ ...context })),
    /** Hands the event on as it is, to each of `to`. */
    forward: enqueueActions(
      ({ event, enqueue }, params: { to: ('conversationList' | 'conversation' | 'sender')[] }) => {
        for (const id of params.to) enqueue.sendTo(id, event as never)
      },
    ),
  },
})

const forwardTo = (...to: ('conversationList' | 'conversation' | 'sender')[]) => ({
  type: 'forward' as const,
  params: { to },
})

const routes = <T extends string>(types: readonly T[], action: ReturnType<typeof forwardTo>) =>
  Object.fromEntries(types.map((type) => [type, { actions: action }])) as Record<
    T,
    { actions: typeof action }
  >

export const chatMachine = chatSetup.createMachine({
  id: 'chat',
  // The clock is optional input (tests and other surfaces pass theirs); undeclared, so the app need not.
  context: ({ input }) => ({ selectedConversationId: null, now: (input as ChatInput)?.now }),
  invoke: [
    {
      id: 'conversationList',
      systemId: 'conversationList',
      src: 'conversationList',
      onSnapshot: { actions: 'noteChildChange' },
    },
    {
      id: 'conversation',
      systemId: 'conversation',
      src: 'conversation',
      input: ({ context }) => ({ now: context.now }),
      onSnapshot: { actions: 'noteChildChange' },
    },
    {
      id: 'sender',
      systemId: 'sender',
      src: 'sender',
      input: ({ context }) => ({ now: context.now }),
      onSnapshot: { actions: 'noteChildChange' },
    },
  ],
  on: {
    ...routes(TO_CONVERSATION, forwardTo('conversation')),
    ...routes(TO_LIST, forwardTo('conversationList')),
    ...routes(TO_SENDER, forwardTo('sender')),
    ...routes(EXCHANGE_FACTS, forwardTo('conversation', 'conversationList')),
    'chat.select': {
      actions: [
        forwardTo('conversation', 'sender'),
        enqueueActions(({ event, self, enqueue }) => {
          const list = listRef(self.getSnapshot().children)?.getSnapshot()
          const known = list?.context.conversations.find((c) => c.id === event.conversationId)
          if (known)
            enqueue.sendTo('conversation', {
              type: 'conversation.scopeKnown',
              conversationId: known.id,
              scope: known.scope,
            })
        }),
      ],
    },
    'chat.askAbout': { actions: [forwardTo('conversation'), emit({ type: 'chat.askingAbout' })] },
    'chat.send': {
      actions: enqueueActions(({ event, self, enqueue }) => {
        const conversation = conversationRef(self.getSnapshot().children).getSnapshot()
        if (conversation.hasTag('loading')) return
        const { conversationId } = conversation.context
        const { draftScope, draftAssistant } = conversationScopeOf(conversation).context
        enqueue.sendTo('sender', {
          type: 'sender.send',
          content: event.content,
          conversationId,
          documentIds: conversationId === null ? draftScope.map((d) => d.id) : [],
          assistantId: conversationId === null ? (draftAssistant?.id ?? null) : null,
        })
      }),
      description: 'Sending is blocked while a conversation loads (product §5).',
    },
    'chat.regenerate': {
      actions: [
        forwardTo('conversation'),
        enqueueActions(({ event, self, enqueue }) => {
          const conversation = conversationRef(self.getSnapshot().children).getSnapshot()
          const { conversationId, messages } = conversation.context
          const switching = runningFor(conversation, versionActorId).includes(event.messageId)
          const previous = messages.find((m) => m.id === event.messageId)
          if (conversation.hasTag('loading') || conversationId === null || !previous) return
          if (!canRegenerate(messages, event.messageId, switching)) return
          enqueue.sendTo('sender', { type: 'sender.regenerate', conversationId, previous })
        }),
      ],
      description: 'Only the last answer, fewer than ten versions, not while it switches version (D93).',
    },
    'chat.attach': {
      actions: enqueueActions(({ event, self, enqueue }) => {
        if (conversationRef(self.getSnapshot().children).getSnapshot().context.conversationId === null)
          enqueue.sendTo('sender', event)
      }),
      description: 'Only a new chat takes a file in its composer; an open conversation uploads at once.',
    },
    'chat.detach': {
      actions: enqueueActions(({ event, self, enqueue }) => {
        if (!conversationRef(self.getSnapshot().children).getSnapshot().hasTag('loading'))
          enqueue.sendTo('sender', event)
      }),
    },
    'conversation.changed': {
      actions: [
        assign(({ event }) => ({ selectedConversationId: event.conversationId })),
        enqueueActions(({ event, enqueue }) => {
          if (event.started && event.conversationId)
            enqueue.emit({ type: 'chat.conversationStarted', conversationId: event.conversationId })
          if (event.closed) enqueue.emit({ type: 'chat.conversationClosed', conversationId: event.closed })
        }),
      ],
      description:
        'The app hears of a conversation the chat started or closed on its own (the address follows).',
    },
    'conversation.scopeStored': { actions: forwardTo('conversationList') },
    'conversation.previewed': { actions: forwardTo('conversationList') },
    'list.loaded': {
      actions: enqueueActions(({ event, context, enqueue }) => {
        const open = event.conversations.find((c) => c.id === context.selectedConversationId)
        if (open)
          enqueue.sendTo('conversation', {
            type: 'conversation.scopeKnown',
            conversationId: open.id,
            scope: open.scope,
          })
      }),
      description: 'A conversation opened by its address before the list loaded learns what it searches.',
    },
    'list.deleted': {
      actions: enqueueActions(({ event, enqueue }) => {
        enqueue.sendTo('conversation', {
          type: 'chat.conversationDeleted',
          conversationId: event.conversationId,
        })
      }),
    },
  },
})

export type ChatSnapshot = SnapshotFrom<typeof chatMachine>

export function provideChatMachine(deps: ChatDeps) {
  return chatMachine.provide({
    actors: {
      conversationList: provideConversationListMachine(deps),
      conversation: provideOpenConversationMachine(deps),
      sender: provideSenderMachine(deps),
    },
  })
}
