/**
 * The browser half of chat (SPEC §4, §5, §8): the session list (loaded once, when the actor
 * starts with the dashboard), the conversation on screen, and the five send steps. Three parallel
 * regions, so a reply keeps arriving while another conversation is opened; deletions and feedback
 * run as spawned reporting requests. Every failure is logged only. Effects: provideChatMachine(deps).
 */
import {
  and,
  assign,
  type EventObject,
  enqueueActions,
  fromCallback,
  fromPromise,
  not,
  type SnapshotFrom,
  setup,
  stateIn,
  stopChild,
} from 'xstate'
import {
  type Conversation,
  type Feedback,
  MESSAGE_MAX_LENGTH,
  type Message,
  type SearchHit,
  type SendMessageResponse,
} from '#contracts/chat.ts'
import { actionNotProvided, notProvided } from '#machines/shared/effects.ts'
import { fromReportingRequest, reportingNotProvided } from './chat-effects.ts'
import {
  adoptCreatedSession,
  adoptStoredStop,
  answerIdOf,
  appendRegenerated,
  appendToken,
  applyReply,
  canRegenerate,
  createdSessionOf,
  dropOutgoing,
  forgetCreatedSession,
  keepStopped,
  mergeLoadedSessions,
  outgoingOf,
  outgoingTarget,
  restoreRegenerated,
  startRegenerating,
  startSending,
  stopRegenerated,
  storedStop,
  storeRegenerated,
  toMessageItem,
  toSessionItem,
  withFeedback,
  without,
  withoutSession,
} from './chat-model.ts'
import type { AnswerStream, ChatContext, ChatDeps, ChatEvent } from './chat-types.ts'

// Params builders for the many actions that take the event's ids or error as they are.
const sessionOf = ({ event }: { event: { sessionId: string } }) => ({ sessionId: event.sessionId })
const messageOf = ({ event }: { event: { messageId: string } }) => ({ messageId: event.messageId })
const logAs = (failure: string) => ({
  type: 'logFailure' as const,
  params: ({ event }: { event: { error: unknown } }) => ({ failure, error: event.error }),
})

const deleteActorId = (sessionId: string) => `deleteSession:${sessionId}`
const rateActorId = (messageId: string) => `setFeedback:${messageId}`

/**
 * After a Stop the server stores the answer so far when it sees the connection close, a moment
 * after the browser closed it: the conversation's messages are fetched until it is there, this
 * long apart, at most MAX_STOP_CHECKS times (then the bubbles keep their temporary ids, as before).
 */
export const STOP_CHECK_DELAY_MS = 150
export const MAX_STOP_CHECKS = 10

function isSendableText(text: string): boolean {
  const content = text.trim()
  return content !== '' && content.length <= MESSAGE_MAX_LENGTH
}

const chatSetup = setup({
  types: {
    context: {} as ChatContext,
    events: {} as ChatEvent,
    tags: {} as 'loading' | 'sending' | 'streaming' | 'sessionsLoading',
  },
  actors: {
    listSessions: notProvided<Conversation[]>('listSessions'),
    listMessages: notProvided<Message[], { sessionId: string }>('listMessages'),
    createSession: notProvided<Conversation, { title: string }>('createSession'),
    sendMessage: reportingNotProvided<{ sessionId: string; content: string }>('sendMessage'),
    regenerate: reportingNotProvided<{ sessionId: string; messageId: string }>('regenerate'),
    deleteSession: reportingNotProvided<{ sessionId: string }>('deleteSession'),
    setFeedback: reportingNotProvided<{ messageId: string; feedback: Feedback }>('setFeedback'),
    renameSession: reportingNotProvided<{ sessionId: string; title: string }>('renameSession'),
    searchSessions: notProvided<SearchHit[], { query: string }>('searchSessions'),
  },
  actions: {
    storeLoadedSessions: assign(({ context }, params: { sessions: Conversation[] }) => ({
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
    storeCreatedSession: assign(({ context }, params: { session: Conversation }) =>
      adoptCreatedSession(context, params.session),
    ),
    storeReply: assign(({ context }, params: { reply: SendMessageResponse }) =>
      applyReply(context, params.reply),
    ),
    dropOutgoing: assign(({ context }) => dropOutgoing(context)),
    appendToken: assign(({ context }, params: { text: string }) => appendToken(context, params.text)),
    keepStopped: assign(({ context }) => keepStopped(context)),
    storeDraft: assign((_, params: { text: string }) => ({ draft: params.text })),
    startRegenerating: assign(({ context }, params: { messageId: string }) =>
      startRegenerating(context, params.messageId),
    ),
    appendRegenerated: assign(({ context }, params: { text: string }) =>
      appendRegenerated(context, params.text),
    ),
    storeRegenerated: assign(({ context }, params: { reply: SendMessageResponse }) =>
      storeRegenerated(context, params.reply),
    ),
    restoreRegenerated: assign(({ context }) => restoreRegenerated(context)),
    stopRegenerated: assign(({ context }) => stopRegenerated(context)),
    forgetCreatedSession: assign(({ context }) => forgetCreatedSession(context)),
    adoptStoredStop: assign(({ context }, params: { messages: Message[] }) =>
      adoptStoredStop(context, params.messages),
    ),
    countStopCheck: assign(({ context }) => ({
      stoppedSend: context.stoppedSend && { ...context.stoppedSend, checks: context.stoppedSend.checks + 1 },
    })),
    forgetStoppedSend: assign({ stoppedSend: null }),
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
    storeRenamed: assign(({ context }, params: { session: Conversation }) => ({
      sessions: context.sessions.map((s) =>
        s.id === params.session._id ? { ...s, title: params.session.title } : s,
      ),
    })),
    storeSearchQuery: assign((_, params: { query: string }) => ({
      searchQuery: params.query.trim(),
      searchHits: null,
    })),
    storeSearchHits: assign((_, params: { hits: SearchHit[] }) => ({
      searchHits: params.hits.map((hit) => ({ session: toSessionItem(hit.session), snippet: hit.snippet })),
    })),
    logFailure: actionNotProvided<{ failure: string; error: unknown }>('logFailure'),
  },
  guards: {
    /** SPEC §5: blank or whitespace-only text is not sent; nor is text the server would refuse. */
    isSendable: ({ event }) => event.type === 'chat.send' && isSendableText(event.content),
    isConversationIdle: stateIn({ conversation: 'idle' }),
    hasAnswerSoFar: ({ context }) => (context.outgoing?.answer.trim() ?? '') !== '',
    hasStoppedSend: ({ context }) => context.stoppedSend !== null,
    isStopStored: ({ context }, params: { messages: Message[] }) =>
      storedStop(context, params.messages) !== null,
    canCheckStopAgain: ({ context }) => (context.stoppedSend?.checks ?? MAX_STOP_CHECKS) < MAX_STOP_CHECKS,
    canRegenerate: ({ context, event }) =>
      event.type === 'chat.regenerate' && canRegenerate(context, event.messageId),
    hasOpenSession: ({ context }) => context.selectedSessionId !== null,
    isOpenSession: ({ context }, params: { sessionId: string }) =>
      context.selectedSessionId === params.sessionId,
    canDelete: ({ context }, params: { sessionId: string }) =>
      !context.deletingSessionIds.includes(params.sessionId),
    canRate: ({ context }, params: { messageId: string; feedback: Feedback }) =>
      !context.ratingMessageIds.includes(params.messageId) &&
      context.messages.some((m) => m.id === params.messageId && m.feedback !== params.feedback),
  },
})

/** A conversation created for a message that got no answer is deleted again (SPEC §4 step 5). */
const deleteCreatedSession = chatSetup.enqueueActions(({ context, enqueue }) => {
  const sessionId = createdSessionOf(context)
  if (sessionId) enqueue.spawnChild('deleteSession', { id: deleteActorId(sessionId), input: { sessionId } })
})

export const chatMachine = chatSetup.createMachine({
  id: 'chat',
  type: 'parallel',
  context: {
    sessions: [],
    selectedSessionId: null,
    messages: [],
    outgoing: null,
    regenerating: null,
    stoppedSend: null,
    draft: '',
    sentCount: 0,
    deletingSessionIds: [],
    ratingMessageIds: [],
    searchQuery: '',
    searchHits: null,
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
        'chat.rename': {
          actions: enqueueActions(({ enqueue, event }) => {
            const title = event.title.trim()
            if (title === '') return
            enqueue.spawnChild('renameSession', {
              id: `renameSession:${event.sessionId}:${title}`,
              input: { sessionId: event.sessionId, title },
            })
          }),
          description: 'Not optimistic: the new title shows once the server has stored it.',
        },
        'chat.renamed': {
          actions: { type: 'storeRenamed', params: ({ event }) => ({ session: event.session }) },
        },
        'chat.renameFailed': { actions: logAs('Renaming a session') },
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
        'chat.type': { actions: { type: 'storeDraft', params: ({ event }) => ({ text: event.text }) } },
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
            'chat.regenerate': {
              guard: and(['isConversationIdle', 'canRegenerate']),
              target: 'regenerating',
              actions: { type: 'startRegenerating', params: messageOf },
            },
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
          tags: ['loading', 'sending', 'streaming'],
          invoke: { src: 'sendMessage', input: ({ context }) => outgoingTarget(context) },
          on: {
            'chat.token': { actions: { type: 'appendToken', params: ({ event }) => ({ text: event.text }) } },
            'chat.replied': {
              target: 'idle',
              actions: { type: 'storeReply', params: ({ event }) => ({ reply: event.reply }) },
            },
            'chat.answerFailed': {
              target: 'idle',
              actions: [
                deleteCreatedSession,
                'forgetCreatedSession',
                'dropOutgoing',
                logAs('Sending a message'),
              ],
              description:
                'SPEC §4 step 5: the temporary message goes away silently; the text goes back into ' +
                'the composer, and a conversation created for it is deleted.',
            },
            'chat.stop': [
              {
                guard: 'hasAnswerSoFar',
                target: 'findingStopped',
                actions: 'keepStopped',
                description: 'Leaving the state aborts the request; the server keeps the answer so far.',
              },
              {
                target: 'idle',
                actions: [deleteCreatedSession, 'forgetCreatedSession', 'dropOutgoing'],
                description: 'Stopped before any word arrived: as if it had not been sent.',
              },
            ],
          },
        },
        findingStopped: {
          tags: 'loading',
          always: { guard: not('hasStoppedSend'), target: 'idle' },
          invoke: {
            src: 'listMessages',
            input: ({ context }) => ({ sessionId: context.stoppedSend?.sessionId ?? '' }),
            onDone: [
              {
                guard: { type: 'isStopStored', params: ({ event }) => ({ messages: event.output }) },
                target: 'idle',
                actions: { type: 'adoptStoredStop', params: ({ event }) => ({ messages: event.output }) },
                description:
                  'The stopped question and answer take their stored ids: rate and regenerate work.',
              },
              { guard: 'canCheckStopAgain', target: 'waitingForStopped', actions: 'countStopCheck' },
              {
                target: 'idle',
                actions: [
                  'forgetStoppedSend',
                  { type: 'logFailure', params: { failure: 'Finding a stopped answer', error: null } },
                ],
              },
            ],
            onError: { target: 'idle', actions: ['forgetStoppedSend', logAs('Finding a stopped answer')] },
          },
          description:
            'A short wait with sending blocked (tag loading), so the next send does not meet the ' +
            'conversation still claimed by the stopped one (409).',
        },
        waitingForStopped: {
          tags: 'loading',
          after: { [STOP_CHECK_DELAY_MS]: 'findingStopped' },
        },
        regenerating: {
          tags: ['loading', 'sending', 'streaming'],
          invoke: {
            src: 'regenerate',
            input: ({ context }) => ({
              sessionId: context.regenerating?.sessionId ?? '',
              messageId: context.regenerating?.messageId ?? '',
            }),
          },
          on: {
            'chat.token': {
              actions: { type: 'appendRegenerated', params: ({ event }) => ({ text: event.text }) },
            },
            'chat.replied': {
              target: 'idle',
              actions: { type: 'storeRegenerated', params: ({ event }) => ({ reply: event.reply }) },
            },
            'chat.answerFailed': {
              target: 'idle',
              actions: ['restoreRegenerated', logAs('Regenerating an answer')],
            },
            'chat.stop': { target: 'idle', actions: 'stopRegenerated' },
          },
        },
      },
    },
    search: {
      initial: 'idle',
      on: {
        'chat.search': [
          {
            guard: ({ event }) => event.query.trim() === '',
            target: '.idle',
            actions: { type: 'storeSearchQuery', params: ({ event }) => ({ query: event.query }) },
          },
          {
            target: '.searching',
            reenter: true,
            actions: { type: 'storeSearchQuery', params: ({ event }) => ({ query: event.query }) },
            description: 'A newer search replaces one under way.',
          },
        ],
      },
      states: {
        idle: {},
        searching: {
          invoke: {
            src: 'searchSessions',
            input: ({ context }) => ({ query: context.searchQuery }),
            onDone: {
              target: 'idle',
              actions: { type: 'storeSearchHits', params: ({ event }) => ({ hits: event.output }) },
            },
            onError: { target: 'idle', actions: logAs('Searching conversations') },
          },
        },
      },
    },
  },
})

export type ChatSnapshot = SnapshotFrom<typeof chatMachine>

/**
 * The typing indicator (SPEC §2): a reply is awaited for the conversation on screen and none of
 * it has arrived yet (then the growing answer shows instead).
 */
export function isAwaitingReplyHere(snapshot: ChatSnapshot): boolean {
  const { outgoing, messages, regenerating } = snapshot.context
  if (!snapshot.hasTag('sending')) return false
  if (regenerating)
    return messages.some((m) => m.id === regenerating.messageId && m.streaming && m.content === '')
  return (
    outgoing !== null &&
    messages.some((m) => m.id === outgoing.tempId) &&
    !messages.some((m) => m.id === answerIdOf(outgoing.tempId))
  )
}

/** An answer is being written in the conversation on screen: the Stop button shows. */
export function isStreamingHere(snapshot: ChatSnapshot): boolean {
  const { outgoing, messages, regenerating } = snapshot.context
  if (!snapshot.hasTag('streaming')) return false
  if (regenerating) return messages.some((m) => m.id === regenerating.messageId)
  return outgoing !== null && messages.some((m) => m.id === outgoing.tempId)
}

/**
 * A streamed answer as a callback actor: tokens and the outcome come back as events; stopping the
 * actor (Stop, or leaving the state) aborts the request.
 */
function fromAnswerStream<TInput>(
  start: (input: TInput, stream: AnswerStream) => Promise<SendMessageResponse>,
) {
  return fromCallback<EventObject, TInput>(({ input, sendBack }) => {
    const stop = new AbortController()
    start(input, { onToken: (text) => sendBack({ type: 'chat.token', text }), signal: stop.signal }).then(
      (reply) => sendBack({ type: 'chat.replied', reply }),
      (error: unknown) => {
        if (!stop.signal.aborted) sendBack({ type: 'chat.answerFailed', error })
      },
    )
    return () => stop.abort()
  })
}

export function provideChatMachine(deps: ChatDeps) {
  return chatMachine.provide({
    actors: {
      listSessions: fromPromise(() => deps.listSessions()),
      listMessages: fromPromise(({ input }) => deps.listMessages(input.sessionId)),
      createSession: fromPromise(({ input }) => deps.createSession(input.title)),
      sendMessage: fromAnswerStream(
        ({ sessionId, content }: { sessionId: string; content: string }, stream) =>
          deps.sendMessage(sessionId, content, stream),
      ),
      regenerate: fromAnswerStream(
        ({ sessionId, messageId }: { sessionId: string; messageId: string }, stream) =>
          deps.regenerate(sessionId, messageId, stream),
      ),
      deleteSession: fromReportingRequest(
        ({ sessionId }: { sessionId: string }) => deps.deleteSession(sessionId),
        {
          done: ({ sessionId }): ChatEvent => ({ type: 'chat.sessionDeleted', sessionId }),
          failed: ({ sessionId }, error): ChatEvent => ({ type: 'chat.deleteFailed', sessionId, error }),
        },
      ),
      searchSessions: fromPromise(({ input }) => deps.searchSessions(input.query)),
      renameSession: fromReportingRequest(
        ({ sessionId, title }: { sessionId: string; title: string }) => deps.renameSession(sessionId, title),
        {
          done: (_, session): ChatEvent => ({ type: 'chat.renamed', session }),
          failed: ({ sessionId }, error): ChatEvent => ({ type: 'chat.renameFailed', sessionId, error }),
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
