/**
 * A published assistant's chat as its visitors see it (issue 37, D120): the assistant and the
 * visitor's conversation loaded together, then the chat's own sender (machines/chat, D105) asking
 * through the visitor's calls; starter questions, Stop, like and dislike, New conversation, and
 * the owner's challenge before a first question when asked for. Calls are injected with
 * providePublicChatMachine(deps); the clock with the input.
 */
import { and, assign, enqueueActions, not, type SnapshotFrom, setup, stateIn, stopChild } from 'xstate'
import type { Feedback } from '#contracts/chat.ts'
import type { PublicAssistant } from '#contracts/publishing.ts'
import { reportingNotProvided } from '#machines/chat/chat-effects.ts'
import type { ChatInput, ExchangeFact } from '#machines/chat/chat-types.ts'
import { STOP_CHECK_DELAY_MS } from '#machines/chat/sender-actions.ts'
import { provideSenderMachine, type SenderSnapshot, senderMachine } from '#machines/chat/sender-machine.ts'
import { notProvided, serverSentence } from '#machines/shared/effects.ts'
import { publicChatActorSlots, type VisitorPass } from './public-chat-effects.ts'
import type { VisitorConversation } from './public-chat-model.ts'
import * as screen from './public-chat-model.ts'
import {
  NOT_AVAILABLE,
  type PublicChatContext,
  type PublicChatEvent,
  RATING_FAILED,
} from './public-chat-types.ts'

export type { PublicChatContext, PublicChatEvent }
export { NOT_AVAILABLE, RATING_FAILED }

export const publicChatMachine = setup({
  types: {
    context: {} as PublicChatContext,
    events: {} as PublicChatEvent | ExchangeFact,
    input: {} as ChatInput & { userToken?: string | null },
  },
  actors: publicChatActorSlots,
  actions: {
    /** Hands the pass to the sender's calls (providePublicChatMachine fills it). */
    sharePass: (_, _params: VisitorPass) => {},
    noteSender: assign((_, params: { snapshot: SenderSnapshot }) => ({
      draft: params.snapshot.context.draft,
      sending: params.snapshot.hasTag('loading') || params.snapshot.hasTag('sending'),
      answerNotice: params.snapshot.context.notice,
    })),
    storeConversation: assign((_, params: { conversation: VisitorConversation | null }) => ({
      conversationId: params.conversation?.conversationId ?? null,
      messages: screen.visitorMessagesOf(params.conversation?.messages ?? []),
    })),
  },
  guards: {
    isNewIdentity: ({ context, event }) =>
      event.type === 'public.identify' && event.token !== context.userToken,
    isSending: ({ context }) => context.sending,
    hasPassedChallenge: ({ context }) =>
      !screen.needsChallenge(context.assistant, context.challengePassed) || context.challenge !== null,
    isNewConversation: ({ context }) => context.conversationId === null,
    /** Nothing on its way and no conversation being read: a question or New conversation may start. */
    isIdle: and([not('isSending'), stateIn({ ready: 'settled' })]),
    isRatable: ({ context, event }) =>
      event.type === 'public.rate' &&
      screen.isRatable(context.messages.find((m) => m.id === event.messageId)),
  },
}).createMachine({
  id: 'publicChat',
  context: ({ input }) => ({
    assistant: null,
    conversationId: null,
    messages: [],
    loadError: null,
    notice: null,
    userToken: input?.userToken ?? null,
    challenge: null,
    challengePassed: false,
    draft: '',
    sending: false,
    answerNotice: null,
    now: input?.now,
  }),
  initial: 'loading',
  states: {
    loading: {
      on: {
        'public.identify': {
          guard: 'isNewIdentity',
          target: 'loading',
          reenter: true,
          actions: assign(({ event }) => ({ userToken: event.token })),
          description:
            "The host's token came while loading: load again as that user, never the cookie's conversation.",
        },
      },
      invoke: {
        src: 'load',
        input: ({ context }) => ({ userToken: context.userToken }),
        onDone: {
          target: 'ready',
          actions: [
            assign(({ event }) => ({
              assistant: event.output.assistant,
              challengePassed: (event.output.conversation?.messages.length ?? 0) > 0,
            })),
            {
              type: 'storeConversation',
              params: ({ event }) => ({ conversation: event.output.conversation }),
            },
          ],
        },
        onError: {
          target: 'unavailable',
          actions: assign(({ event }) => ({ loadError: serverSentence(event.error, NOT_AVAILABLE) })),
          description:
            "Unknown, unpublished and deleted answer alike (404): the page says so in the server's words.",
        },
      },
    },
    unavailable: {
      on: { 'public.identify': { actions: assign(({ event }) => ({ userToken: event.token })) } },
    },
    ready: {
      invoke: {
        id: 'sender',
        src: 'sender',
        input: ({ context }) => ({ now: context.now }),
        onSnapshot: {
          actions: {
            type: 'noteSender',
            params: ({ event }) => ({ snapshot: event.snapshot as SenderSnapshot }),
          },
        },
      },
      on: {
        'public.identify': [
          {
            guard: and(['isNewIdentity', not('isSending')]),
            target: '.learning',
            reenter: true,
            actions: assign(({ event }) => ({ userToken: event.token, conversationId: null })),
            description:
              'Another visitor now (signed in, or another user): their own conversation replaces what is shown.',
          },
          {
            guard: 'isNewIdentity',
            actions: assign(({ event }) => ({ userToken: event.token, conversationId: null })),
            description:
              "An answer is on its way: once it ends, the new user's conversation is read (as after a first answer).",
          },
        ],
        'public.type': {
          actions: enqueueActions(({ event, enqueue }) =>
            enqueue.sendTo('sender', { type: 'chat.type', text: event.text }),
          ),
        },
        'public.send': {
          guard: and(['isIdle', 'hasPassedChallenge']),
          actions: enqueueActions(({ context, event, enqueue }) => {
            enqueue({
              type: 'sharePass',
              params: { userToken: context.userToken, challenge: context.challenge },
            })
            enqueue.assign({ challenge: null, notice: null })
            enqueue.sendTo('sender', {
              type: 'sender.send',
              content: event.content ?? context.draft,
              // '' asks without a conversation: the server makes one with the first answer.
              conversationId: context.conversationId ?? '',
              documentIds: [],
            })
          }),
        },
        'public.stop': {
          actions: enqueueActions(({ enqueue }) => enqueue.sendTo('sender', { type: 'chat.stop' })),
        },
        'public.new': {
          guard: 'isIdle',
          actions: assign({ conversationId: null, messages: [], notice: null }),
          description: 'The next question starts a new conversation; the old one stays with the owner.',
        },
        'public.rate': {
          guard: 'isRatable',
          actions: enqueueActions(({ context, event, self, enqueue }) => {
            // One request per answer at a time: a second press waits for the first to settle.
            if (self.getSnapshot().children[`rate:${event.messageId}`]) return
            const previous = context.messages.find((m) => m.id === event.messageId)?.feedback ?? null
            enqueue.assign({
              messages: screen.rated(context.messages, event.messageId, event.feedback),
              notice: null,
            })
            enqueue.spawnChild('sendFeedback', {
              id: `rate:${event.messageId}`,
              input: {
                messageId: event.messageId,
                feedback: event.feedback,
                previous,
                userToken: context.userToken,
              },
            })
          }),
        },
        'public.rated': { actions: stopChild(({ event }) => `rate:${event.messageId}`) },
        'public.rateFailed': {
          actions: [
            stopChild(({ event }) => `rate:${event.messageId}`),
            assign(({ context, event }) => ({
              messages: screen.rated(context.messages, event.messageId, event.previous),
              notice: RATING_FAILED,
            })),
          ],
        },
        'public.challengeSolved': { actions: assign(({ event }) => ({ challenge: event.payload })) },
        'exchange.shown': {
          actions: assign(({ context, event }) => ({
            messages: screen.shown(context.messages, event.message),
          })),
        },
        'exchange.grew': {
          actions: assign(({ context, event }) => ({
            messages: screen.grew(context.messages, event.tempId, event.answer),
          })),
        },
        'exchange.dropped': {
          actions: assign(({ context, event }) => ({
            messages: screen.dropped(context.messages, event.tempId),
          })),
        },
        'exchange.replied': [
          {
            guard: 'isNewConversation',
            target: '.learning',
            actions: assign(({ context, event }) => ({
              messages: screen.replied(context.messages, event.tempId, event.reply),
              challengePassed: true,
            })),
            description:
              "The first answer made the conversation: its id is read from the visitor's current one.",
          },
          {
            actions: assign(({ context, event }) => ({
              messages: screen.replied(context.messages, event.tempId, event.reply),
              challengePassed: true,
            })),
          },
        ],
        'exchange.stopped': [
          {
            guard: 'isNewConversation',
            target: '.waitingToLearn',
            actions: assign(({ context, event }) => ({
              messages: screen.stopped(context.messages, event.tempId),
            })),
            description:
              'The server keeps a stopped answer once it sees the connection close, a moment later.',
          },
          {
            actions: assign(({ context, event }) => ({
              messages: screen.stopped(context.messages, event.tempId),
            })),
          },
        ],
        'exchange.stopStored': {
          actions: assign(({ context, event }) => ({
            messages: screen.stopped(
              screen.replied(context.messages, event.tempId, event.stored),
              event.tempId,
            ),
          })),
        },
      },
      initial: 'settled',
      states: {
        settled: {},
        waitingToLearn: { after: { [STOP_CHECK_DELAY_MS * 2]: 'learning' } },
        learning: {
          invoke: {
            src: 'learnConversation',
            input: ({ context }) => ({ userToken: context.userToken }),
            onDone: {
              target: 'settled',
              actions: { type: 'storeConversation', params: ({ event }) => ({ conversation: event.output }) },
            },
            onError: { target: 'settled' },
          },
        },
      },
    },
  },
})
