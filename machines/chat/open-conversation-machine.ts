/**
 * The conversation on screen (product §2, §4; D70, D93): its messages and files, the passage open
 * beside it, feedback and the reason for a dislike, other versions of an answer, and what it
 * searches (or, for a new chat, the draft of that). Feedback, version switches and scope saves run
 * as child actors named by what they change: "busy" is read off `snapshot.children`. What the
 * sender's exchanges do to the screen comes in as facts (open-conversation-model.ts); it tells
 * its surface which conversation is open. Calls are injected with provideOpenConversationMachine(deps).
 */
import { assign, enqueueActions, type SnapshotFrom, sendParent, setup, stopChild } from 'xstate'
import type { ScopeDocument } from '#contracts/chat.ts'
import {
  type Conversation,
  type DislikeReasonRequest,
  DislikeReasonRequestSchema,
  type Feedback,
  MAX_ANSWER_VERSIONS,
  type Message,
} from '#contracts/chat.ts'
import type { LibraryDocument } from '#contracts/documents.ts'
import { actionNotProvided, notProvided } from '#machines/shared/effects.ts'
import {
  chatActions,
  type OpenConversationDeps,
  openConversationActors,
  reportingNotProvided,
} from './chat-effects.ts'
import { canShowVersion, toMessageItem, withFeedback } from './chat-model.ts'
import {
  distinctDocuments,
  hasRoomFor,
  refusedDraftDocument,
  SCOPE_NOTICES,
  scopeDocuments,
  scopeOnScreen,
  withDocument,
  withoutDocument,
} from './chat-scope.ts'
import type { ChatEvent, ChatInput, ExchangeFact, OpenConversationContext } from './chat-types.ts'
import * as screen from './open-conversation-model.ts'

/** How long the thanks for a dislike's reason stays under the answer. */
export const REASON_THANKS_MS = 4000

/** The child actors whose running says an answer is being rated, or switched to another version. */
export const rateActorId = (messageId: string) => `setFeedback:${messageId}`
export const versionActorId = (messageId: string) => `showVersion:${messageId}`

export type OpenConversationEvent =
  | ChatEvent
  | ExchangeFact
  | { type: 'conversation.scopeKnown'; conversationId: string; scope: Conversation['scope'] | null }

const messageOf = ({ event }: { event: { messageId: string } }) => ({ messageId: event.messageId })
const logAs = (failure: string) => ({
  type: 'logFailure' as const,
  params: ({ event }: { event: { error: unknown } }) => ({ failure, error: event.error }),
})
const conversationSetup = setup({
  delays: { reasonThanks: REASON_THANKS_MS },
  types: {
    context: {} as OpenConversationContext,
    events: {} as OpenConversationEvent,
    input: {} as ChatInput,
    tags: {} as 'loading',
  },
  actors: {
    loadConversation: notProvided<
      { messages: Message[]; files: LibraryDocument[] },
      { conversationId: string }
    >('loadConversation'),
    setFeedback: reportingNotProvided<{ messageId: string; feedback: Feedback }>('setFeedback'),
    showVersion: reportingNotProvided<{ messageId: string; version: number }>('showVersion'),
    explainDislike: notProvided<Message, { messageId: string; why: DislikeReasonRequest }>('explainDislike'),
    setScope: reportingNotProvided<{ conversationId: string; documentIds: string[] | null }>('setScope'),
  },
  actions: {
    addFile: assign(({ context }, params: { conversationId: string; document: LibraryDocument }) =>
      context.conversationId === params.conversationId
        ? { files: [...context.files.filter((f) => f.id !== params.document.id), params.document] }
        : {},
    ),
    forgetReason: assign({ reasonFor: null }),
    logFailure: actionNotProvided<{ failure: string; error: unknown }>('logFailure'),
  },
  guards: {
    isOpen: ({ context }, params: { conversationId: string }) =>
      context.conversationId === params.conversationId,
    isReasonFor: ({ context }, params: { messageId: string }) => context.reasonFor === params.messageId,
    /** A reason or a note the server takes (the contract's rules), for the answer asked about. */
    canExplain: ({ context, event }) =>
      event.type === 'chat.explainDislike' &&
      event.messageId === context.reasonFor &&
      DislikeReasonRequestSchema.safeParse(event.why).success,
  },
})

/** Applies a pure change (open-conversation-model.ts) for events of `type`. */
const on = <T extends OpenConversationEvent['type']>(
  type: T,
  change: (
    context: OpenConversationContext,
    event: Extract<OpenConversationEvent, { type: T }>,
  ) => Partial<OpenConversationContext>,
) => ({
  actions: conversationSetup.assign(({ context, event }) =>
    event.type === type ? change(context, event as Extract<OpenConversationEvent, { type: T }>) : {},
  ),
})

/** Another conversation, or a new chat (null): the screen empties; the surface hears which is open. */
const open = conversationSetup.enqueueActions(({ event, enqueue }) => {
  const conversationId = event.type === 'chat.select' ? event.conversationId : null
  enqueue.assign({
    conversationId,
    messages: [],
    files: [],
    openSource: null,
    scope: null,
    scopeNotice: null,
  })
  enqueue.sendParent({ type: 'conversation.changed', conversationId })
})

const scopeActorId = (conversationId: string) => `setScope:${conversationId}`

/**
 * Changes what the chat on screen searches to what `change` makes of its documents. A new chat's
 * draft changes at once. An open conversation's scope is saved on the server (none left: the
 * whole library), and not optimistically: the chips change once it is stored, one change at a
 * time (its save is a child actor), so two quick changes never race each other to the server.
 */
const changeScope = (change: (documents: ScopeDocument[], event: OpenConversationEvent) => ScopeDocument[]) =>
  conversationSetup.enqueueActions(({ context, event, self, enqueue }) => {
    const { conversationId } = context
    if (conversationId === null) {
      enqueue.assign({ draftScope: change(context.draftScope, event), scopeNotice: null })
      return
    }
    const id = scopeActorId(conversationId)
    if (self.getSnapshot().children[id]) return
    const documents = change(scopeDocuments(scopeOnScreen(context)), event)
    enqueue.assign({ scopeNotice: null })
    enqueue.spawnChild('setScope', {
      id,
      input: { conversationId, documentIds: documents.length === 0 ? null : documents.map((d) => d.id) },
    })
  })

const addDocument = changeScope((documents, event) =>
  event.type === 'chat.scopeAdd' ? withDocument(documents, event.document) : documents,
)
const removeDocument = changeScope((documents, event) =>
  event.type === 'chat.scopeRemove' ? withoutDocument(documents, event.documentId) : documents,
)
const clearDocuments = changeScope(() => [])

/** One scope change at a time; a new chat's draft changes at once. */
const isSavingScope = (context: OpenConversationContext, self: { getSnapshot(): { children: object } }) =>
  context.conversationId !== null && scopeActorId(context.conversationId) in self.getSnapshot().children

export const openConversationMachine = conversationSetup.createMachine({
  id: 'conversation',
  type: 'parallel',
  context: ({ input }) => ({
    conversationId: null,
    messages: [],
    files: [],
    openSource: null,
    scope: null,
    draftScope: [],
    scopeNotice: null,
    reasonFor: null,
    now: input?.now ?? (() => new Date()),
  }),
  states: {
    messages: {
      initial: 'idle',
      on: {
        'chat.select': {
          target: '.loading',
          actions: open,
          description: 'Choosing again while one loads restarts the load for the newest choice.',
        },
        'chat.new': {
          target: '.idle',
          actions: open,
          description:
            'product §2: selecting the chat section clears the messages and the selection. The ' +
            "new chat's draft (its text and its chosen documents) stays, as the typed text always did.",
        },
        'chat.askAbout': {
          target: '.idle',
          actions: [
            open,
            assign(({ event }) => ({ draftScope: distinctDocuments(event.documents), scopeNotice: null })),
          ],
          description: '"Ask about this document": a new chat limited to those documents, on screen.',
        },
        'conversation.scopeKnown': on('conversation.scopeKnown', (context, e) =>
          context.conversationId === e.conversationId ? { scope: e.scope ?? null } : {},
        ),
        'chat.scopeAdd': {
          actions: enqueueActions(({ context, event, self, enqueue }) => {
            if (isSavingScope(context, self)) return
            if (!hasRoomFor(context, event.document)) enqueue.assign({ scopeNotice: SCOPE_NOTICES.full })
            else enqueue(addDocument)
          }),
        },
        'chat.scopeRemove': {
          actions: enqueueActions(({ context, self, enqueue }) => {
            if (!isSavingScope(context, self)) enqueue(removeDocument)
          }),
          description: 'Removing the last document lifts the limit: the whole library again.',
        },
        'chat.scopeClear': {
          actions: enqueueActions(({ context, self, enqueue }) => {
            if (!isSavingScope(context, self)) enqueue(clearDocuments)
          }),
        },
        'chat.scopeSaved': {
          actions: [
            assign(({ context, event }) =>
              context.conversationId === event.conversation._id
                ? { scope: event.conversation.scope ?? null }
                : {},
            ),
            stopChild(({ event }) => scopeActorId(event.conversation._id)),
            sendParent(({ event }) => ({
              type: 'conversation.scopeStored',
              conversation: event.conversation,
            })),
          ],
        },
        'chat.scopeFailed': {
          actions: [
            stopChild(({ event }) => scopeActorId(event.conversationId)),
            assign({ scopeNotice: SCOPE_NOTICES.saveFailed }),
            logAs('Changing the documents a conversation searches'),
          ],
        },
        'chat.conversationDeleted': {
          guard: {
            type: 'isOpen',
            params: ({ event }: { event: { conversationId: string } }) => ({
              conversationId: event.conversationId,
            }),
          },
          target: '.idle',
          actions: [
            assign({ conversationId: null, messages: [], files: [], openSource: null }),
            sendParent(({ event }) => ({
              type: 'conversation.changed',
              conversationId: null,
              closed: event.conversationId,
            })),
          ],
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
          actions: enqueueActions(({ context, event, self, enqueue }) => {
            const id = rateActorId(event.messageId)
            const changes = context.messages.some(
              (m) => m.id === event.messageId && m.feedback !== event.feedback,
            )
            if (self.getSnapshot().children[id] || !changes) return
            enqueue.spawnChild('setFeedback', {
              id,
              input: { messageId: event.messageId, feedback: event.feedback },
            })
          }),
          description:
            'product §4: the choice is highlighted only after the server has stored it; one at a time.',
        },
        'chat.feedbackSaved': {
          actions: [
            on('chat.feedbackSaved', (context, e) => ({
              messages: withFeedback(context.messages, e.messageId, e.feedback),
            })).actions,
            stopChild(({ event }) => rateActorId(event.messageId)),
          ],
        },
        'chat.feedbackFailed': {
          actions: [stopChild(({ event }) => rateActorId(event.messageId)), logAs('Saving feedback')],
        },
        'chat.showVersion': {
          actions: enqueueActions(({ context, event, self, system, enqueue }) => {
            const id = versionActorId(event.messageId)
            const sender = system.get('sender')
            const answering = sender !== undefined && !sender.getSnapshot().matches('idle')
            if (
              answering ||
              !self.getSnapshot().matches({ messages: 'idle' }) ||
              self.getSnapshot().children[id]
            )
              return
            if (!canShowVersion(context.messages, event.messageId, event.version)) return
            enqueue.spawnChild('showVersion', {
              id,
              input: { messageId: event.messageId, version: event.version },
            })
          }),
          description:
            'D93: the server stores the version shown (every device, the history and follow-ups ' +
            'read it) and answers it with its own sources; not while an answer is being written.',
        },
        'chat.versionShown': {
          actions: [
            enqueueActions(({ context, event, enqueue }) => {
              const { change, isLast } = screen.showStoredVersion(context, event.message)
              enqueue.assign(change)
              if (isLast && context.conversationId)
                enqueue.sendParent({
                  type: 'conversation.previewed',
                  conversationId: context.conversationId,
                  content: toMessageItem(event.message).content,
                })
            }),
            stopChild(({ event }) => versionActorId(event.messageId)),
          ],
        },
        'chat.versionFailed': {
          actions: [
            stopChild(({ event }) => versionActorId(event.messageId)),
            logAs('Showing another version of an answer'),
          ],
          description: 'Logged only, as the other chat failures (product §8): the version shown stays.',
        },
        'exchange.shown': on('exchange.shown', (context, e) => ({
          messages: [...context.messages, e.message],
        })),
        'exchange.created': {
          actions: enqueueActions(({ context, event, enqueue }) => {
            const change = screen.adoptCreated(context, event.tempId, event.conversation)
            enqueue.assign(change)
            if (change.conversationId)
              enqueue.sendParent({
                type: 'conversation.changed',
                conversationId: change.conversationId,
                started: true,
              })
          }),
          description: 'The first message of a new chat started this conversation: the app hears so (once).',
        },
        'exchange.refused': on(
          'exchange.refused',
          (context, e) => refusedDraftDocument(context, e.error) ?? {},
        ),
        'exchange.grew': on('exchange.grew', (c, e) =>
          screen.growAnswer(c, e.tempId, e.answer, e.sources, e.at),
        ),
        'exchange.sources': on('exchange.sources', (c, e) => screen.storeSources(c, e.answerId, e.sources)),
        'exchange.replied': on('exchange.replied', (c, e) =>
          screen.applyReply(c, e.conversationId, e.tempId, e.reply),
        ),
        'exchange.dropped': on('exchange.dropped', (c, e) => screen.dropExchange(c, e.tempId)),
        'exchange.discarded': {
          guard: {
            type: 'isOpen',
            params: ({ event }: { event: { conversationId: string } }) => ({
              conversationId: event.conversationId,
            }),
          },
          actions: [
            assign({ conversationId: null }),
            sendParent(({ event }) => ({
              type: 'conversation.changed',
              conversationId: null,
              closed: event.conversationId,
            })),
          ],
          description:
            'The conversation created for a message that got no answer closes (product §4 step 5).',
        },
        'exchange.stopped': on('exchange.stopped', (c, e) => screen.markStopped(c, e.tempId)),
        'exchange.stopStored': on('exchange.stopStored', (c, e) =>
          screen.adoptStoredStop(c, e.tempId, e.stored),
        ),
        'exchange.regenerating': on('exchange.regenerating', (c, e) =>
          screen.startRegenerating(c, e.messageId),
        ),
        'exchange.regeneratedGrew': on('exchange.regeneratedGrew', (c, e) =>
          screen.growRegenerated(c, e.messageId, e.text),
        ),
        'exchange.regenerated': on('exchange.regenerated', (c, e) =>
          screen.storeRegenerated(c, e.messageId, e.reply),
        ),
        'exchange.restored': on('exchange.restored', (c, e) => screen.restoreAnswer(c, e.previous)),
        'exchange.regenerateStopped': on('exchange.regenerateStopped', (c, e) =>
          screen.stopRegenerated(c, e.previous, MAX_ANSWER_VERSIONS),
        ),
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
            onError: { target: 'idle', actions: logAs('Loading messages') },
          },
        },
      },
    },
    dislikeReason: {
      initial: 'closed',
      description:
        'D93: after a dislike is stored, the person may say why (a reason, a short note) or skip; ' +
        'the spec’s feedback call and its highlight are unchanged.',
      on: {
        'chat.feedbackSaved': [
          {
            guard: ({ event }) => event.feedback === 'dislike',
            target: '.asking',
            reenter: true,
            actions: assign(({ event }) => ({ reasonFor: event.messageId })),
          },
          {
            guard: { type: 'isReasonFor', params: messageOf },
            target: '.closed',
            actions: 'forgetReason',
            description: 'A like instead: the reason (if any) went with the dislike.',
          },
        ],
        'chat.showVersion': {
          guard: { type: 'isReasonFor', params: messageOf },
          target: '.closed',
          actions: 'forgetReason',
        },
        'chat.regenerate': {
          guard: { type: 'isReasonFor', params: messageOf },
          target: '.closed',
          actions: 'forgetReason',
        },
        'chat.skipReason': { target: '.closed', actions: 'forgetReason' },
        'chat.select': { target: '.closed', actions: 'forgetReason' },
        'chat.new': { target: '.closed', actions: 'forgetReason' },
      },
      states: {
        closed: {},
        asking: { on: { 'chat.explainDislike': { guard: 'canExplain', target: 'sending' } } },
        sending: {
          invoke: {
            src: 'explainDislike',
            input: ({ event }) => {
              if (event.type !== 'chat.explainDislike') throw new Error('chat: no reason to send')
              return { messageId: event.messageId, why: event.why }
            },
            onDone: 'thanked',
            onError: { target: 'failed', actions: logAs('Saving the reason for a dislike') },
          },
        },
        failed: {
          on: { 'chat.explainDislike': { guard: 'canExplain', target: 'sending' } },
          description: 'Said under the form (the person typed it, so it is not dropped silently); try again.',
        },
        thanked: { after: { reasonThanks: { target: 'closed', actions: 'forgetReason' } } },
      },
    },
  },
})

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

export function provideOpenConversationMachine(deps: OpenConversationDeps) {
  return openConversationMachine.provide({ actors: openConversationActors(deps), actions: chatActions(deps) })
}
