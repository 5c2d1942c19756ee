/**
 * The browser half of chat (SPEC §4, §5, §8): the session list (loaded once, when the actor
 * starts with the dashboard), the conversation on screen, and the five send steps. Three parallel
 * regions, so a reply keeps arriving while another conversation is opened; deletions and feedback
 * run as spawned reporting requests. Every failure is logged only. Effects: provideChatMachine(deps).
 */
import {
  and,
  assign,
  enqueueActions,
  fromPromise,
  type SnapshotFrom,
  setup,
  stateIn,
  stopChild,
} from 'xstate'
import {
  type ChatSession,
  type Feedback,
  MESSAGE_MAX_LENGTH,
  type Message,
  type SendMessageResponse,
} from '#contracts/chat.ts'
import { actionNotProvided, notProvided } from '#machines/shared/effects.ts'
import { fromReportingRequest, reportingNotProvided } from './chat-effects.ts'
import {
  adoptCreatedSession,
  applyReply,
  dropOutgoing,
  mergeLoadedSessions,
  outgoingOf,
  outgoingTarget,
  startSending,
  toMessageItem,
  withFeedback,
  without,
  withoutSession,
} from './chat-model.ts'
import type { ChatContext, ChatDeps, ChatEvent } from './chat-types.ts'

// Params builders for the many actions that take the event's ids or error as they are.
const sessionOf = ({ event }: { event: { sessionId: string } }) => ({ sessionId: event.sessionId })
const messageOf = ({ event }: { event: { messageId: string } }) => ({ messageId: event.messageId })
const logAs = (failure: string) => ({
  type: 'logFailure' as const,
  params: ({ event }: { event: { error: unknown } }) => ({ failure, error: event.error }),
})

const deleteActorId = (sessionId: string) => `deleteSession:${sessionId}`
const rateActorId = (messageId: string) => `setFeedback:${messageId}`

function isSendableText(text: string): boolean {
  const content = text.trim()
  return content !== '' && content.length <= MESSAGE_MAX_LENGTH
}

export const chatMachine = setup({
  types: {
    context: {} as ChatContext,
    events: {} as ChatEvent,
    tags: {} as 'loading' | 'sending' | 'sessionsLoading',
  },
  actors: {
    listSessions: notProvided<ChatSession[]>('listSessions'),
    listMessages: notProvided<Message[], { sessionId: string }>('listMessages'),
    createSession: notProvided<ChatSession, { title: string }>('createSession'),
    sendMessage: notProvided<SendMessageResponse, { sessionId: string; content: string }>('sendMessage'),
    deleteSession: reportingNotProvided<{ sessionId: string }>('deleteSession'),
    setFeedback: reportingNotProvided<{ messageId: string; feedback: Feedback }>('setFeedback'),
  },
  actions: {
    storeLoadedSessions: assign(({ context }, params: { sessions: ChatSession[] }) => ({
      sessions: mergeLoadedSessions(context.sessions, params.sessions),
    })),
    openSession: assign((_, params: { sessionId: string }) => ({
      selectedSessionId: params.sessionId,
      messages: [],
    })),
    storeMessages: assign((_, params: { messages: Message[] }) => ({
      messages: params.messages.map(toMessageItem),
    })),
    clearConversation: assign({ selectedSessionId: null, messages: [] }),
    showOutgoing: assign(({ context }, params: { content: string }) => startSending(context, params.content)),
    storeCreatedSession: assign(({ context }, params: { session: ChatSession }) =>
      adoptCreatedSession(context, params.session),
    ),
    storeReply: assign(({ context }, params: { reply: SendMessageResponse }) =>
      applyReply(context, params.reply),
    ),
    dropOutgoing: assign(({ context }) => dropOutgoing(context)),
    markDeleting: assign(({ context }, params: { sessionId: string }) => ({
      deletingSessionIds: [...context.deletingSessionIds, params.sessionId],
    })),
    settleDeleting: assign(({ context }, params: { sessionId: string }) => ({
      deletingSessionIds: without(context.deletingSessionIds, params.sessionId),
    })),
    removeSession: assign(({ context }, params: { sessionId: string }) => ({
      sessions: withoutSession(context.sessions, params.sessionId),
    })),
    markRating: assign(({ context }, params: { messageId: string }) => ({
      ratingMessageIds: [...context.ratingMessageIds, params.messageId],
    })),
    settleRating: assign(({ context }, params: { messageId: string }) => ({
      ratingMessageIds: without(context.ratingMessageIds, params.messageId),
    })),
    storeFeedback: assign(({ context }, params: { messageId: string; feedback: Feedback | null }) => ({
      messages: withFeedback(context.messages, params.messageId, params.feedback),
    })),
    logFailure: actionNotProvided<{ failure: string; error: unknown }>('logFailure'),
  },
  guards: {
    /** SPEC §5: blank or whitespace-only text is not sent; nor is text the server would refuse. */
    isSendable: ({ event }) => event.type === 'chat.send' && isSendableText(event.content),
    isConversationIdle: stateIn({ conversation: 'idle' }),
    hasOpenSession: ({ context }) => context.selectedSessionId !== null,
    isOpenSession: ({ context }, params: { sessionId: string }) =>
      context.selectedSessionId === params.sessionId,
    canDelete: ({ context }, params: { sessionId: string }) =>
      !context.deletingSessionIds.includes(params.sessionId),
    canRate: ({ context }, params: { messageId: string; feedback: Feedback }) =>
      !context.ratingMessageIds.includes(params.messageId) &&
      context.messages.some((m) => m.id === params.messageId && m.feedback !== params.feedback),
  },
}).createMachine({
  id: 'chat',
  type: 'parallel',
  context: {
    sessions: [],
    selectedSessionId: null,
    messages: [],
    outgoing: null,
    sentCount: 0,
    deletingSessionIds: [],
    ratingMessageIds: [],
  },
  // Each handler sits in the region that owns what it changes: XState only looks at a parallel
  // state's own handlers when no region takes the event, so none are kept at the root.
  states: {
    sessions: {
      initial: 'loading',
      on: {
        'chat.delete': {
          guard: { type: 'canDelete', params: sessionOf },
          actions: [
            { type: 'markDeleting', params: sessionOf },
            enqueueActions(({ enqueue, event }) => {
              enqueue.spawnChild('deleteSession', {
                id: deleteActorId(event.sessionId),
                input: { sessionId: event.sessionId },
              })
            }),
          ],
          description:
            'Not optimistic: the conversation leaves the list once the server has deleted it, so a ' +
            'failure (logged only, SPEC §8) leaves everything as it was.',
        },
        'chat.sessionDeleted': {
          actions: [
            { type: 'removeSession', params: sessionOf },
            { type: 'settleDeleting', params: sessionOf },
            stopChild(({ event }) => deleteActorId(event.sessionId)),
          ],
        },
        'chat.deleteFailed': {
          actions: [
            { type: 'settleDeleting', params: sessionOf },
            stopChild(({ event }) => deleteActorId(event.sessionId)),
            logAs('Deleting a session'),
          ],
        },
      },
      states: {
        loading: {
          tags: 'sessionsLoading',
          invoke: {
            src: 'listSessions',
            onDone: {
              target: 'loaded',
              actions: { type: 'storeLoadedSessions', params: ({ event }) => ({ sessions: event.output }) },
            },
            onError: {
              target: 'loaded',
              actions: logAs('Loading sessions'),
              description: 'SPEC §8: logged only; the list stays empty.',
            },
          },
        },
        loaded: { description: 'SPEC §4: sessions load once, when the dashboard opens; never again.' },
      },
    },
    conversation: {
      initial: 'idle',
      on: {
        'chat.select': {
          target: '.loadingMessages',
          actions: { type: 'openSession', params: sessionOf },
          description: 'Choosing again while one loads restarts the load for the newest choice.',
        },
        'chat.new': {
          target: '.idle',
          actions: 'clearConversation',
          description: 'SPEC §2: selecting the chat section clears the messages and the selection.',
        },
        'chat.sessionDeleted': {
          guard: { type: 'isOpenSession', params: sessionOf },
          target: '.idle',
          actions: 'clearConversation',
          description: 'SPEC §4: deleting the open conversation clears it and resets the selection.',
        },
        'chat.rate': {
          guard: {
            type: 'canRate',
            params: ({ event }) => ({ messageId: event.messageId, feedback: event.feedback }),
          },
          actions: [
            { type: 'markRating', params: messageOf },
            enqueueActions(({ enqueue, event }) => {
              enqueue.spawnChild('setFeedback', {
                id: rateActorId(event.messageId),
                input: { messageId: event.messageId, feedback: event.feedback },
              })
            }),
          ],
          description: 'SPEC §4: the choice is highlighted only after the server has stored it.',
        },
        'chat.feedbackSaved': {
          actions: [
            {
              type: 'storeFeedback',
              params: ({ event }) => ({ messageId: event.messageId, feedback: event.feedback }),
            },
            { type: 'settleRating', params: messageOf },
            stopChild(({ event }) => rateActorId(event.messageId)),
          ],
        },
        'chat.feedbackFailed': {
          actions: [
            { type: 'settleRating', params: messageOf },
            stopChild(({ event }) => rateActorId(event.messageId)),
            logAs('Saving feedback'),
          ],
        },
      },
      states: {
        idle: {},
        loadingMessages: {
          tags: 'loading',
          invoke: {
            src: 'listMessages',
            input: ({ context }) => ({ sessionId: context.selectedSessionId ?? '' }),
            onDone: {
              target: 'idle',
              actions: { type: 'storeMessages', params: ({ event }) => ({ messages: event.output }) },
            },
            onError: {
              target: 'idle',
              actions: logAs('Loading messages'),
            },
          },
        },
      },
    },
    reply: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'chat.send': [
              {
                guard: and(['isSendable', 'isConversationIdle', 'hasOpenSession']),
                target: 'sendingMessage',
                actions: { type: 'showOutgoing', params: ({ event }) => ({ content: event.content }) },
              },
              {
                guard: and(['isSendable', 'isConversationIdle']),
                target: 'creatingSession',
                actions: { type: 'showOutgoing', params: ({ event }) => ({ content: event.content }) },
                description:
                  'SPEC §4 step 2: no conversation is open, so one is created, titled with the message.',
              },
            ],
          },
          description: 'Sending is blocked while loading (SPEC §5): only this state takes chat.send.',
        },
        creatingSession: {
          tags: ['loading', 'sending'],
          invoke: {
            src: 'createSession',
            input: ({ context }) => ({ title: outgoingOf(context).content }),
            onDone: {
              target: 'sendingMessage',
              actions: { type: 'storeCreatedSession', params: ({ event }) => ({ session: event.output }) },
            },
            onError: {
              target: 'idle',
              actions: ['dropOutgoing', logAs('Creating a session')],
              description: 'SPEC §4 step 5: the temporary message goes away silently.',
            },
          },
        },
        sendingMessage: {
          tags: ['loading', 'sending'],
          invoke: {
            src: 'sendMessage',
            input: ({ context }) => outgoingTarget(context),
            onDone: {
              target: 'idle',
              actions: { type: 'storeReply', params: ({ event }) => ({ reply: event.output }) },
            },
            onError: {
              target: 'idle',
              actions: ['dropOutgoing', logAs('Sending a message')],
              description: 'SPEC §4 step 5: the temporary message goes away silently.',
            },
          },
        },
      },
    },
  },
})

export type ChatSnapshot = SnapshotFrom<typeof chatMachine>

/** The typing indicator (SPEC §2): a reply is awaited for the conversation on screen. */
export function isAwaitingReplyHere(snapshot: ChatSnapshot): boolean {
  const { outgoing, messages } = snapshot.context
  return snapshot.hasTag('sending') && outgoing !== null && messages.some((m) => m.id === outgoing.tempId)
}

export function provideChatMachine(deps: ChatDeps) {
  return chatMachine.provide({
    actors: {
      listSessions: fromPromise(() => deps.listSessions()),
      listMessages: fromPromise(({ input }) => deps.listMessages(input.sessionId)),
      createSession: fromPromise(({ input }) => deps.createSession(input.title)),
      sendMessage: fromPromise(({ input }) => deps.sendMessage(input.sessionId, input.content)),
      deleteSession: fromReportingRequest(
        ({ sessionId }: { sessionId: string }) => deps.deleteSession(sessionId),
        {
          done: ({ sessionId }): ChatEvent => ({ type: 'chat.sessionDeleted', sessionId }),
          failed: ({ sessionId }, error): ChatEvent => ({ type: 'chat.deleteFailed', sessionId, error }),
        },
      ),
      setFeedback: fromReportingRequest(
        ({ messageId, feedback }: { messageId: string; feedback: Feedback }) =>
          deps.setFeedback(messageId, feedback),
        {
          done: ({ messageId }, saved): ChatEvent => ({
            type: 'chat.feedbackSaved',
            messageId,
            feedback: saved.feedback,
          }),
          failed: ({ messageId }, error): ChatEvent => ({ type: 'chat.feedbackFailed', messageId, error }),
        },
      ),
    },
    actions: {
      logFailure: (_, { failure, error }) => {
        deps.log.error(`Chat: ${failure} failed`, error)
      },
    },
  })
}
