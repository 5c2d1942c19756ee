/**
 * "Try it" beside an assistant's form (issue 36, D116): a second chat surface over the chat's own
 * sender and open conversation (machines/chat, D105), not a copy. Its conversations are real ones,
 * created with the assistant (as saved) for the first message; feedback, versions and citations
 * go to the open conversation as in the chat. It keeps no list: "Start over" opens a new chat.
 * Calls are the chat's, injected with provideTryItMachine(deps, assistantId).
 */
import { type ActorRefFrom, assign, enqueueActions, type SnapshotFrom, setup } from 'xstate'
import type { OpenConversationDeps, SenderDeps } from '#machines/chat/chat-effects.ts'
import type { ReasonStatus } from '#machines/chat/chat-selectors.ts'
import type { ChatEvent, ChatInput, ConversationFact, ExchangeFact } from '#machines/chat/chat-types.ts'
import {
  dislikeReasonOf,
  openConversationMachine,
  provideOpenConversationMachine,
} from '#machines/chat/open-conversation-machine.ts'
import { provideSenderMachine, senderMachine } from '#machines/chat/sender-machine.ts'

export type TryItDeps = SenderDeps & OpenConversationDeps

const TO_CONVERSATION = [
  'chat.showSource',
  'chat.closeSource',
  'chat.rate',
  'chat.showVersion',
  'chat.explainDislike',
  'chat.skipReason',
] as const

type Children = { conversation: 'conversation'; sender: 'sender' }

const conversationRef = (children: Record<string, unknown>) =>
  children.conversation as ActorRefFrom<typeof openConversationMachine>

export const tryItMachine = setup({
  types: {
    context: {} as { now: (() => Date) | undefined },
    events: {} as ChatEvent | ExchangeFact | ConversationFact,
    children: {} as Children,
  },
  actors: { conversation: openConversationMachine, sender: senderMachine },
  actions: {
    /** A child's new snapshot makes a new one here, for the views' useSelector (as chat-machine.ts). */
    noteChildChange: assign(({ context }) => ({ ...context })),
    toConversation: enqueueActions(({ event, enqueue }) => enqueue.sendTo('conversation', event as never)),
  },
}).createMachine({
  id: 'tryIt',
  context: ({ input }) => ({ now: (input as ChatInput)?.now }),
  invoke: [
    {
      id: 'conversation',
      src: 'conversation',
      input: ({ context }) => ({ now: context.now }),
      onSnapshot: { actions: 'noteChildChange' },
    },
    {
      id: 'sender',
      src: 'sender',
      input: ({ context }) => ({ now: context.now }),
      onSnapshot: { actions: 'noteChildChange' },
    },
  ],
  on: {
    ...Object.fromEntries(TO_CONVERSATION.map((type) => [type, { actions: 'toConversation' as const }])),
    'chat.type': { actions: enqueueActions(({ event, enqueue }) => enqueue.sendTo('sender', event)) },
    'chat.stop': { actions: enqueueActions(({ event, enqueue }) => enqueue.sendTo('sender', event)) },
    'chat.send': {
      actions: enqueueActions(({ event, self, enqueue }) => {
        const conversation = conversationRef(self.getSnapshot().children).getSnapshot()
        if (conversation.hasTag('loading')) return
        enqueue.sendTo('sender', {
          type: 'sender.send',
          content: event.content,
          conversationId: conversation.context.conversationId,
          documentIds: [],
        })
      }),
    },
    'chat.new': {
      actions: enqueueActions(({ self, enqueue }) => {
        if (isBusy(self.getSnapshot())) return
        enqueue.sendTo('conversation', { type: 'chat.new' })
      }),
      description: '"Start over": a new chat with the assistant; not while an answer is on its way.',
    },
    'exchange.*': { actions: 'toConversation' },
  },
})

export type TryItSnapshot = SnapshotFrom<typeof tryItMachine>

function parts(snapshot: TryItSnapshot) {
  const { conversation, sender } = snapshot.children
  if (!conversation || !sender) throw new Error('tryIt: the actor is not running')
  return { conversation: conversation.getSnapshot(), sender: sender.getSnapshot() }
}

/** What the Try-it views read: the conversation's messages, the sender's draft, what is busy. */
export function tryItViewOf(snapshot: TryItSnapshot) {
  const { conversation, sender } = parts(snapshot)
  return {
    conversationId: conversation.context.conversationId,
    messages: conversation.context.messages,
    openSource: conversation.context.openSource,
    reasonAsk: reasonAskOf(conversation),
    draft: sender.context.draft,
    notice: sender.context.notice,
    streaming: sender.hasTag('streaming'),
    busy: isBusy(snapshot),
  }
}

/** The dislike whose reason is asked for, as the chat's MessageList takes it. */
function reasonAskOf(
  conversation: ReturnType<typeof parts>['conversation'],
): { messageId: string; status: ReasonStatus } | null {
  const reason = dislikeReasonOf(conversation)
  const messageId = reason.context.reasonFor
  if (messageId === null || reason.value === 'closed') return null
  return { messageId, status: reason.value }
}

/** A message is on its way or the conversation loads: the composer waits. */
export function isBusy(snapshot: TryItSnapshot): boolean {
  const { conversation, sender } = parts(snapshot)
  return conversation.hasTag('loading') || sender.hasTag('loading') || sender.hasTag('sending')
}

/** The chat's calls, with every conversation Try it starts created with this assistant. */
export function provideTryItMachine(deps: TryItDeps, assistantId: string) {
  const withAssistant: TryItDeps = {
    ...deps,
    createConversation: (title) => deps.createConversation(title, undefined, assistantId),
  }
  return tryItMachine.provide({
    actors: {
      conversation: provideOpenConversationMachine(withAssistant),
      sender: provideSenderMachine(withAssistant),
    },
  })
}
