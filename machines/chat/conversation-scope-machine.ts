/**
 * What the chat on screen searches (D70): the open conversation's scope as the server last said,
 * a new chat's draft of it, and a sentence about either. A draft changes at once; an open
 * conversation's scope is saved first, one change at a time (its save is a child actor,
 * `setScope:<id>`: "saving" is read off `snapshot.children`). A child of the open conversation,
 * which tells it what became of the conversation on screen. The call is injected with
 * provideConversationScopeMachine(deps).
 */
import { assign, enqueueActions, type SnapshotFrom, sendParent, setup, stopChild } from 'xstate'
import type { Conversation, ScopeDocument } from '#contracts/chat.ts'
import { actionNotProvided } from '#machines/shared/effects.ts'
import {
  type ConversationScopeDeps,
  chatActions,
  conversationScopeActors,
  reportingNotProvided,
} from './chat-effects.ts'
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
import type { ChatEvent, ConversationScopeContext, ExchangeFact, ScopeCommand } from './chat-types.ts'

export type ConversationScopeEvent =
  | ChatEvent
  | ScopeCommand
  | Extract<ExchangeFact, { type: 'exchange.refused' }>
  | { type: 'conversation.scopeKnown'; conversationId: string; scope: Conversation['scope'] | null }

/** The child actor whose running says the scope of conversation `conversationId` is being saved. */
export const scopeActorId = (conversationId: string) => `setScope:${conversationId}`

const scopeSetup = setup({
  types: { context: {} as ConversationScopeContext, events: {} as ConversationScopeEvent },
  actors: {
    setScope: reportingNotProvided<{ conversationId: string; documentIds: string[] | null }>('setScope'),
  },
  actions: {
    logFailure: actionNotProvided<{ failure: string; error: unknown }>('logFailure'),
  },
})

/** One scope change at a time; a new chat's draft changes at once. */
const isSaving = (context: ConversationScopeContext, self: { getSnapshot(): { children: object } }) =>
  context.conversationId !== null && scopeActorId(context.conversationId) in self.getSnapshot().children

/**
 * Changes what the chat on screen searches to what `change` makes of its documents. A new chat's
 * draft changes at once. An open conversation's scope is saved on the server (none left: the
 * whole library), and not optimistically: the chips change once it is stored, one change at a
 * time, so two quick changes never race each other to the server.
 */
const changeScope = (
  change: (documents: ScopeDocument[], event: ConversationScopeEvent) => ScopeDocument[],
) =>
  scopeSetup.enqueueActions(({ context, event, self, enqueue }) => {
    if (isSaving(context, self)) return
    const { conversationId } = context
    if (conversationId === null) {
      enqueue.assign({ draftScope: change(context.draftScope, event), scopeNotice: null })
      return
    }
    const documents = change(scopeDocuments(scopeOnScreen(context)), event)
    enqueue.assign({ scopeNotice: null })
    enqueue.spawnChild('setScope', {
      id: scopeActorId(conversationId),
      input: { conversationId, documentIds: documents.length === 0 ? null : documents.map((d) => d.id) },
    })
  })

const addDocument = changeScope((documents, event) =>
  event.type === 'chat.scopeAdd' ? withDocument(documents, event.document) : documents,
)

export const conversationScopeMachine = scopeSetup.createMachine({
  id: 'conversationScope',
  context: { conversationId: null, scope: null, draftScope: [], draftAssistant: null, scopeNotice: null },
  on: {
    'chat.select': {
      actions: assign(({ event }) => ({
        conversationId: event.conversationId,
        scope: null,
        scopeNotice: null,
      })),
    },
    'chat.new': {
      actions: assign(({ context, event }) => ({
        conversationId: null,
        scope: null,
        scopeNotice: null,
        draftAssistant: event.assistant === undefined ? context.draftAssistant : event.assistant,
      })),
      description:
        "The new chat's chosen documents stay, as its typed text does; its assistant changes only " +
        'when the person chose (issue 36), not when the address became the new chat.',
    },
    'chat.askAbout': {
      actions: assign(({ event }) => ({
        conversationId: null,
        scope: null,
        draftScope: distinctDocuments(event.documents),
        draftAssistant: null,
        scopeNotice: null,
      })),
      description: '"Ask about this document": a new chat limited to those documents.',
    },
    'scope.closed': { actions: assign({ conversationId: null }) },
    'scope.draftSent': {
      actions: assign(({ event }) =>
        event.opened
          ? {
              conversationId: event.opened._id,
              scope: event.opened.scope ?? null,
              draftScope: [],
              draftAssistant: null,
            }
          : { draftScope: [], draftAssistant: null },
      ),
      description: "The draft's documents went with the first message, into the conversation it created.",
    },
    'conversation.scopeKnown': {
      actions: assign(({ context, event }) =>
        context.conversationId === event.conversationId ? { scope: event.scope ?? null } : {},
      ),
    },
    'exchange.refused': {
      actions: assign(({ context, event }) => refusedDraftDocument(context, event.error) ?? {}),
    },
    'chat.scopeAdd': {
      actions: enqueueActions(({ context, event, self, enqueue }) => {
        if (isSaving(context, self)) return
        if (!hasRoomFor(context, event.document)) enqueue.assign({ scopeNotice: SCOPE_NOTICES.full })
        else enqueue(addDocument)
      }),
    },
    'chat.scopeRemove': {
      actions: changeScope((documents, event) =>
        event.type === 'chat.scopeRemove' ? withoutDocument(documents, event.documentId) : documents,
      ),
      description: 'Removing the last document lifts the limit: the whole library again.',
    },
    'chat.scopeClear': { actions: changeScope(() => []) },
    'chat.scopeSaved': {
      actions: [
        assign(({ context, event }) =>
          context.conversationId === event.conversation._id
            ? { scope: event.conversation.scope ?? null }
            : {},
        ),
        stopChild(({ event }) => scopeActorId(event.conversation._id)),
        sendParent(({ event }) => ({ type: 'conversation.scopeStored', conversation: event.conversation })),
      ],
    },
    'chat.scopeFailed': {
      actions: [
        stopChild(({ event }) => scopeActorId(event.conversationId)),
        assign({ scopeNotice: SCOPE_NOTICES.saveFailed }),
        {
          type: 'logFailure',
          params: ({ event }) => ({
            failure: 'Changing the documents a conversation searches',
            error: event.error,
          }),
        },
      ],
    },
  },
})

export type ConversationScopeSnapshot = SnapshotFrom<typeof conversationScopeMachine>

/** A change of the scope on screen is being saved (its child actor runs): its chips wait. */
export function isSavingScopeIn(snapshot: ConversationScopeSnapshot): boolean {
  return Object.keys(snapshot.children).some((id) => id.startsWith(scopeActorId('')))
}

export function provideConversationScopeMachine(deps: ConversationScopeDeps) {
  return conversationScopeMachine.provide({
    actors: conversationScopeActors(deps),
    actions: chatActions(deps),
  })
}
