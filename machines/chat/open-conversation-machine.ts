/**
 * The conversation on screen (product §2, §4; D93): its messages and files, the passage open
 * beside it, feedback and other versions of an answer. Feedback and version switches run as child
 * actors named by what they change: "busy" is read off `snapshot.children`. What it searches
 * (conversation-scope-machine.ts) and the reason for a dislike (dislike-reason-machine.ts) are its
 * own child actors, which it hands what concerns them. What the sender's exchanges do to the
 * screen comes in as facts (open-conversation-model.ts); it tells its surface which conversation
 * is open. Calls are injected with provideOpenConversationMachine(deps), each child taking its slice.
 */
import { type ActorRefFrom, assign, type SnapshotFrom, sendParent, stopChild } from 'xstate'
import { statusOf } from '#machines/shared/effects.ts'
import { chatActions, type OpenConversationDeps, openConversationActors } from './chat-effects.ts'
import { toMessageItem, withFeedback } from './chat-model.ts'
import {
  type ConversationScopeSnapshot,
  type conversationScopeMachine,
  provideConversationScopeMachine,
} from './conversation-scope-machine.ts'
import {
  type DislikeReasonSnapshot,
  type dislikeReasonMachine,
  provideDislikeReasonMachine,
} from './dislike-reason-machine.ts'
import {
  adoptCreated,
  close,
  conversationSetup,
  exchangeOnScreen,
  forwardTo,
  isOpenConversation,
  logAs,
  on,
  open,
  rate,
  rateActorId,
  showVersion,
  storeVersion,
  versionActorId,
} from './open-conversation-actions.ts'

export const openConversationMachine = conversationSetup.createMachine({
  id: 'conversation',
  initial: 'idle',
  context: ({ input }) => ({
    conversationId: null,
    messages: [],
    files: [],
    openSource: null,
    now: input?.now ?? (() => new Date()),
  }),
  invoke: [
    { id: 'scope', src: 'scope', onSnapshot: { actions: 'noteChildChange' } },
    { id: 'dislikeReason', src: 'dislikeReason', onSnapshot: { actions: 'noteChildChange' } },
  ],
  on: {
    'chat.select': {
      target: '.loading',
      actions: [open, ...forwardTo('scope', 'dislikeReason')],
      description: 'Choosing again while one loads restarts the load for the newest choice.',
    },
    'chat.new': {
      target: '.idle',
      actions: [open, ...forwardTo('scope', 'dislikeReason')],
      description:
        'product §2: selecting the chat section clears the messages and the selection. The ' +
        "new chat's draft (its text and its chosen documents) stays, as the typed text always did.",
    },
    'chat.askAbout': {
      target: '.idle',
      actions: [open, ...forwardTo('scope')],
      description: '"Ask about this document": a new chat limited to those documents, on screen.',
    },
    'conversation.scopeKnown': { actions: forwardTo('scope') },
    'chat.scopeAdd': { actions: forwardTo('scope') },
    'chat.scopeRemove': { actions: forwardTo('scope') },
    'chat.scopeClear': { actions: forwardTo('scope') },
    'conversation.scopeStored': { actions: sendParent(({ event }) => event) },
    'chat.explainDislike': { actions: forwardTo('dislikeReason') },
    'chat.skipReason': { actions: forwardTo('dislikeReason') },
    'chat.regenerate': {
      actions: forwardTo('dislikeReason'),
      description: 'The answer written again is no longer the one disliked.',
    },
    'chat.conversationDeleted': {
      guard: isOpenConversation,
      target: '.idle',
      actions: close,
      description: 'product §4: deleting the open conversation clears it and resets the selection.',
    },
    'chat.showSource': {
      guard: ({ context, event }) =>
        context.messages.some(
          (m) => m.id === event.messageId && m.sources.some((s) => s.chunkId === event.chunkId),
        ),
      actions: assign(({ event }) => ({
        openSource: { messageId: event.messageId, chunkId: event.chunkId },
      })),
      description: 'One passage at a time, beside the conversation; another citation replaces it.',
    },
    'chat.closeSource': { actions: assign({ openSource: null }) },
    'chat.fileAdded': { actions: { type: 'addFile', params: ({ event }) => event } },
    'chat.rate': {
      actions: rate,
      description:
        'product §4: the choice is highlighted only after the server has stored it; one at a time.',
    },
    'chat.feedbackSaved': {
      actions: [
        on('chat.feedbackSaved', (context, e) => ({
          messages: withFeedback(context.messages, e.messageId, e.feedback),
        })).actions,
        stopChild(({ event }) => rateActorId(event.messageId)),
        ...forwardTo('dislikeReason'),
      ],
      description: 'D93: a stored dislike asks why; a like closes the question.',
    },
    'chat.feedbackFailed': {
      actions: [stopChild(({ event }) => rateActorId(event.messageId)), logAs('Saving feedback')],
    },
    'chat.showVersion': {
      actions: [showVersion, ...forwardTo('dislikeReason')],
      description:
        'D93: the server stores the version shown (every device, the history and follow-ups ' +
        'read it) and answers it with its own sources; not while an answer is being written.',
    },
    'chat.versionShown': {
      actions: [storeVersion, stopChild(({ event }) => versionActorId(event.messageId))],
    },
    'chat.versionFailed': {
      actions: [
        stopChild(({ event }) => versionActorId(event.messageId)),
        logAs('Showing another version of an answer'),
      ],
      description: 'Logged only, as the other chat failures (product §8): the version shown stays.',
    },
    ...exchangeOnScreen,
    'exchange.created': {
      actions: adoptCreated,
      description: 'The first message of a new chat started this conversation: the app hears so (once).',
    },
    'exchange.refused': { actions: forwardTo('scope') },
    'exchange.discarded': {
      guard: isOpenConversation,
      actions: close,
      description: 'The conversation created for a message that got no answer closes (product §4 step 5).',
    },
    'exchange.fileUploaded': { actions: { type: 'addFile', params: ({ event }) => event } },
  },
  states: {
    idle: {},
    loading: {
      tags: 'loading',
      invoke: {
        src: 'loadConversation',
        input: ({ context }) => ({ conversationId: context.conversationId ?? '' }),
        onDone: {
          target: 'idle',
          actions: assign(({ event }) => ({
            messages: event.output.messages.map(toMessageItem),
            files: event.output.files,
          })),
        },
        onError: [
          {
            guard: ({ event }) => isGone(event.error),
            target: 'missing',
            description:
              'A deleted or unknown conversation (404, or an id that cannot be one: 400) says so instead of ' +
              'passing for an empty new chat.',
          },
          { target: 'idle', actions: logAs('Loading messages') },
        ],
      },
    },
    missing: { tags: 'missing' },
  },
})

/** The server does not know this conversation for this person (or the address cannot name one). */
function isGone(error: unknown): boolean {
  const status = statusOf(error)
  return status === 404 || status === 400
}

export type OpenConversationSnapshot = SnapshotFrom<typeof openConversationMachine>

/** Ids of the answers whose child actor of kind `actorId` runs (being rated, being switched). */
export function runningFor(
  snapshot: OpenConversationSnapshot,
  actorId: (messageId: string) => string,
): string[] {
  const prefix = actorId('')
  return Object.keys(snapshot.children)
    .filter((id) => id.startsWith(prefix))
    .map((id) => id.slice(prefix.length))
}

/** The open conversation's children, as they are now: what it searches, and the dislike's reason. */
export function conversationScopeOf(snapshot: OpenConversationSnapshot): ConversationScopeSnapshot {
  return (snapshot.children.scope as ActorRefFrom<typeof conversationScopeMachine>).getSnapshot()
}
export function dislikeReasonOf(snapshot: OpenConversationSnapshot): DislikeReasonSnapshot {
  return (snapshot.children.dislikeReason as ActorRefFrom<typeof dislikeReasonMachine>).getSnapshot()
}

export function provideOpenConversationMachine(deps: OpenConversationDeps) {
  return openConversationMachine.provide({
    actors: {
      ...openConversationActors(deps),
      scope: provideConversationScopeMachine(deps),
      dislikeReason: provideDislikeReasonMachine(deps),
    },
    actions: chatActions(deps),
  })
}
