/**
 * The open conversation's setup (its slots, actions and guards) and the named actions its machine
 * (open-conversation-machine.ts) takes: opening and closing a conversation, rating, switching a
 * version, and what each of the sender's facts does to the screen (open-conversation-model.ts).
 */
import { assign, setup } from 'xstate'
import { type Conversation, type Feedback, MAX_ANSWER_VERSIONS, type Message } from '#contracts/chat.ts'
import type { LibraryDocument } from '#contracts/documents.ts'
import { actionNotProvided, notProvided } from '#machines/shared/effects.ts'
import { reportingNotProvided } from './chat-effects.ts'
import { canShowVersion, toMessageItem } from './chat-model.ts'
import type { ChatEvent, ChatInput, ExchangeFact, OpenConversationContext } from './chat-types.ts'
import { conversationScopeMachine } from './conversation-scope-machine.ts'
import { dislikeReasonMachine } from './dislike-reason-machine.ts'
import * as screen from './open-conversation-model.ts'

/** The child actors whose running says an answer is being rated, or switched to another version. */
export const rateActorId = (messageId: string) => `setFeedback:${messageId}`
export const versionActorId = (messageId: string) => `showVersion:${messageId}`

export type OpenConversationEvent =
  | ChatEvent
  | ExchangeFact
  | { type: 'conversation.scopeKnown'; conversationId: string; scope: Conversation['scope'] | null }
  | { type: 'conversation.scopeStored'; conversation: Conversation }

export type Child = 'scope' | 'dislikeReason'

export const logAs = (failure: string) => ({
  type: 'logFailure' as const,
  params: ({ event }: { event: { error: unknown } }) => ({ failure, error: event.error }),
})
export const conversationSetup = setup({
  types: {
    context: {} as OpenConversationContext,
    events: {} as OpenConversationEvent,
    input: {} as ChatInput,
    tags: {} as 'loading' | 'missing',
  },
  actors: {
    scope: conversationScopeMachine,
    dislikeReason: dislikeReasonMachine,
    loadConversation: notProvided<
      { messages: Message[]; files: LibraryDocument[] },
      { conversationId: string }
    >('loadConversation'),
    setFeedback: reportingNotProvided<{ messageId: string; feedback: Feedback }>('setFeedback'),
    showVersion: reportingNotProvided<{ messageId: string; version: number }>('showVersion'),
  },
  actions: {
    addFile: assign(({ context }, params: { conversationId: string; document: LibraryDocument }) =>
      context.conversationId === params.conversationId
        ? { files: [...context.files.filter((f) => f.id !== params.document.id), params.document] }
        : {},
    ),
    /** A child's new snapshot makes a new snapshot here, so the surface (and its views) look again. */
    noteChildChange: assign(({ context }) => ({ ...context })),
    logFailure: actionNotProvided<{ failure: string; error: unknown }>('logFailure'),
  },
})

/** Hands the event on as it is, to each child of `to`. */
export const forwardTo = (...to: Child[]) =>
  to.map((id) => conversationSetup.sendTo(id, ({ event }) => event as never))

/** Applies a pure change (open-conversation-model.ts) for events of `type`. */
export const on = <T extends OpenConversationEvent['type']>(
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
export const open = conversationSetup.enqueueActions(({ event, enqueue }) => {
  const conversationId = event.type === 'chat.select' ? event.conversationId : null
  enqueue.assign({ conversationId, messages: [], files: [], openSource: null })
  enqueue.sendParent({ type: 'conversation.changed', conversationId })
})

/** The conversation on screen went away (deleted, or discarded unanswered): the surface hears it closed. */
export const close = conversationSetup.enqueueActions(({ event, enqueue }) => {
  if (event.type !== 'chat.conversationDeleted' && event.type !== 'exchange.discarded') return
  if (event.type === 'chat.conversationDeleted') enqueue.assign({ messages: [], files: [], openSource: null })
  enqueue.assign({ conversationId: null })
  enqueue.sendTo('scope', { type: 'scope.closed' })
  enqueue.sendParent({ type: 'conversation.changed', conversationId: null, closed: event.conversationId })
})

/** The event is about the conversation on screen. */
export const isOpenConversation = ({
  context,
  event,
}: {
  context: OpenConversationContext
  event: { conversationId: string }
}) => context.conversationId === event.conversationId

/** product §4: the choice is highlighted once stored; one rating of an answer at a time. */
export const rate = conversationSetup.enqueueActions(({ context, event, self, enqueue }) => {
  if (event.type !== 'chat.rate') return
  const id = rateActorId(event.messageId)
  const changes = context.messages.some((m) => m.id === event.messageId && m.feedback !== event.feedback)
  if (self.getSnapshot().children[id] || !changes) return
  enqueue.spawnChild('setFeedback', { id, input: { messageId: event.messageId, feedback: event.feedback } })
})

/** D93: one switch of an answer at a time, not while it loads or an answer is being written. */
export const showVersion = conversationSetup.enqueueActions(({ context, event, self, system, enqueue }) => {
  if (event.type !== 'chat.showVersion') return
  const id = versionActorId(event.messageId)
  const sender = system.get('sender')
  const answering = sender !== undefined && !sender.getSnapshot().matches('idle')
  if (answering || !self.getSnapshot().matches('idle') || self.getSnapshot().children[id]) return
  if (!canShowVersion(context.messages, event.messageId, event.version)) return
  enqueue.spawnChild('showVersion', { id, input: { messageId: event.messageId, version: event.version } })
})

/** The version the server now shows; the list's preview follows when it is the last answer. */
export const storeVersion = conversationSetup.enqueueActions(({ context, event, enqueue }) => {
  if (event.type !== 'chat.versionShown') return
  const { change, isLast } = screen.showStoredVersion(context, event.message)
  enqueue.assign(change)
  if (isLast && context.conversationId)
    enqueue.sendParent({
      type: 'conversation.previewed',
      conversationId: context.conversationId,
      content: toMessageItem(event.message).content,
    })
})

/** Step 2's conversation becomes the open one if its question is still on screen; the draft went with it. */
export const adoptCreated = conversationSetup.enqueueActions(({ context, event, enqueue }) => {
  if (event.type !== 'exchange.created') return
  const change = screen.adoptCreated(context, event.tempId, event.conversation)
  enqueue.assign(change)
  enqueue.sendTo('scope', {
    type: 'scope.draftSent',
    opened: change.conversationId ? event.conversation : null,
  })
  if (change.conversationId)
    enqueue.sendParent({ type: 'conversation.changed', conversationId: change.conversationId, started: true })
})

/** What the sender's facts do to the messages on screen (pure rules in open-conversation-model.ts). */
export const exchangeOnScreen = {
  'exchange.shown': on('exchange.shown', (context, e) => ({ messages: [...context.messages, e.message] })),
  'exchange.grew': on('exchange.grew', (c, e) => screen.growAnswer(c, e.tempId, e.answer, e.sources, e.at)),
  'exchange.sources': on('exchange.sources', (c, e) => screen.storeSources(c, e.answerId, e.sources)),
  'exchange.replied': on('exchange.replied', (c, e) =>
    screen.applyReply(c, e.conversationId, e.tempId, e.reply),
  ),
  'exchange.dropped': on('exchange.dropped', (c, e) => screen.dropExchange(c, e.tempId)),
  'exchange.stopped': on('exchange.stopped', (c, e) => screen.markStopped(c, e.tempId)),
  'exchange.stopStored': on('exchange.stopStored', (c, e) => screen.adoptStoredStop(c, e.tempId, e.stored)),
  'exchange.regenerating': on('exchange.regenerating', (c, e) => screen.startRegenerating(c, e.messageId)),
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
}
