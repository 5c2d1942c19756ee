/**
 * The conversation list (product §4, History, Recent Conversations): loaded once when it starts,
 * searched as typed, renamed and deleted (not optimistically: each change shows once the server
 * stored it). Each deletion and rename runs as a child actor named by what it changes, so "being
 * deleted" is read off `snapshot.children`. It hears what the sender's exchanges did to the list
 * through the surface (chat-machine.ts); calls are injected with provideConversationListMachine(deps).
 */
import { assign, enqueueActions, type SnapshotFrom, sendParent, setup, stopChild } from 'xstate'
import type { Conversation, SearchHit } from '#contracts/chat.ts'
import { actionNotProvided, notProvided } from '#machines/shared/effects.ts'
import {
  type ConversationListDeps,
  chatActions,
  conversationListActors,
  reportingNotProvided,
} from './chat-effects.ts'
import {
  mergeLoadedConversations,
  plainText,
  toConversationItem,
  withoutConversation,
  withPreview,
  withReplyInConversation,
} from './chat-model.ts'
import type { ChatEvent, ConversationFact, ConversationListContext, ExchangeFact } from './chat-types.ts'

/** How long History's search waits after a keystroke before it asks the server. */
export const SEARCH_PAUSE_MS = 250

/** The child actor deleting a conversation: while it runs, the conversation is being deleted. */
export const deleteActorId = (conversationId: string) => `deleteConversation:${conversationId}`

type ListEvent = ChatEvent | ExchangeFact | ConversationFact

const logAs = (failure: string) => ({
  type: 'logFailure' as const,
  params: ({ event }: { event: { error: unknown } }) => ({ failure, error: event.error }),
})

const listSetup = setup({
  delays: { searchPause: SEARCH_PAUSE_MS },
  types: {
    context: {} as ConversationListContext,
    events: {} as ListEvent,
    tags: {} as 'conversationsLoading' | 'searching',
  },
  actors: {
    listConversations: notProvided<Conversation[]>('listConversations'),
    deleteConversation: reportingNotProvided<{ conversationId: string }>('deleteConversation'),
    renameConversation: reportingNotProvided<{ conversationId: string; title: string }>('renameConversation'),
    searchConversations: notProvided<SearchHit[], { query: string }>('searchConversations'),
  },
  actions: {
    storeLoaded: assign(({ context }, params: { conversations: Conversation[] }) => ({
      conversations: mergeLoadedConversations(context.conversations, params.conversations),
    })),
    // The last hits stay while the next keystroke's search runs (the list does not flash empty);
    // a cleared search forgets them.
    storeSearchQuery: assign(({ context }, params: { query: string }) => {
      const searchQuery = params.query.trim()
      return { searchQuery, searchHits: searchQuery === '' ? null : context.searchHits }
    }),
    storeSearchHits: assign((_, params: { hits: SearchHit[] }) => ({
      searchHits: params.hits.map((hit) => ({
        conversation: toConversationItem(hit.session),
        snippet: plainText(hit.snippet),
      })),
    })),
    logFailure: actionNotProvided<{ failure: string; error: unknown }>('logFailure'),
  },
})

type Conversations = ConversationListContext['conversations']

/** The list as `fn` makes it of the event. */
const update = (fn: (list: Conversations, event: ListEvent) => Conversations) =>
  listSetup.assign(({ context, event }) => ({ conversations: fn(context.conversations, event) }))

/**
 * Not optimistic, and one deletion per conversation at a time (its child actor says it runs). A
 * conversation created for a message that got no answer leaves the list at once, though.
 */
const startDeleting = listSetup.enqueueActions(({ event, self, enqueue }) => {
  if (event.type !== 'chat.delete' && event.type !== 'exchange.discarded') return
  const { conversationId } = event
  if (event.type === 'exchange.discarded')
    enqueue.assign(({ context }) => ({
      conversations: withoutConversation(context.conversations, conversationId),
    }))
  const id = deleteActorId(conversationId)
  if (!self.getSnapshot().children[id])
    enqueue.spawnChild('deleteConversation', { id, input: { conversationId } })
})

export const conversationListMachine = listSetup.createMachine({
  id: 'conversationList',
  type: 'parallel',
  context: { conversations: [], searchQuery: '', searchHits: null },
  states: {
    list: {
      initial: 'loading',
      on: {
        'chat.delete': {
          actions: startDeleting,
          description:
            'Not optimistic: the conversation leaves the list once the server has deleted it, so a ' +
            'failure (logged only, product §8) leaves everything as it was.',
        },
        'chat.conversationDeleted': {
          actions: [
            update((list, e) =>
              e.type === 'chat.conversationDeleted' ? withoutConversation(list, e.conversationId) : list,
            ),
            stopChild(({ event }) => deleteActorId(event.conversationId)),
            sendParent(({ event }) => ({ type: 'list.deleted', conversationId: event.conversationId })),
          ],
        },
        'chat.deleteFailed': {
          actions: [
            stopChild(({ event }) => deleteActorId(event.conversationId)),
            logAs('Deleting a conversation'),
          ],
        },
        'chat.rename': {
          actions: enqueueActions(({ enqueue, event }) => {
            const title = event.title.trim()
            if (title === '') return
            enqueue.spawnChild('renameConversation', {
              id: `renameConversation:${event.conversationId}:${title}`,
              input: { conversationId: event.conversationId, title },
            })
          }),
          description: 'Not optimistic: the new title shows once the server has stored it.',
        },
        'chat.renamed': {
          actions: update((list, e) =>
            e.type === 'chat.renamed'
              ? list.map((c) => (c.id === e.conversation._id ? { ...c, title: e.conversation.title } : c))
              : list,
          ),
        },
        'chat.renameFailed': { actions: logAs('Renaming a conversation') },
        'exchange.created': {
          actions: update((list, e) =>
            e.type === 'exchange.created' ? [toConversationItem(e.conversation), ...list] : list,
          ),
          description: 'product §4 step 2: the conversation created for a message goes first.',
        },
        'exchange.replied': {
          actions: update((list, e) =>
            e.type === 'exchange.replied' ? withReplyInConversation(list, e.conversationId, e.reply) : list,
          ),
        },
        'exchange.discarded': {
          actions: startDeleting,
          description:
            'A conversation created for a message that got no answer must not stay behind empty: it ' +
            'leaves the list at once while its deletion runs (product §4 step 5).',
        },
        'exchange.stopped': {
          actions: update((list, e) =>
            e.type === 'exchange.stopped' && e.conversationId
              ? withPreview(list, e.conversationId, e.answer, {
                  messageCount: (list.find((c) => c.id === e.conversationId)?.messageCount ?? 0) + 2,
                  timestamp: e.at,
                })
              : list,
          ),
        },
        'exchange.regenerated': {
          actions: update((list, e) =>
            e.type === 'exchange.regenerated'
              ? withPreview(list, e.conversationId, e.reply.aiMessage.content, {
                  timestamp: e.reply.aiMessage.createdAt,
                })
              : list,
          ),
        },
        'conversation.previewed': {
          actions: update((list, e) =>
            e.type === 'conversation.previewed' ? withPreview(list, e.conversationId, e.content) : list,
          ),
        },
        'conversation.scopeStored': {
          actions: update((list, e) =>
            e.type === 'conversation.scopeStored'
              ? list.map((c) =>
                  c.id === e.conversation._id ? { ...c, scope: e.conversation.scope ?? null } : c,
                )
              : list,
          ),
        },
      },
      states: {
        loading: {
          tags: 'conversationsLoading',
          invoke: {
            src: 'listConversations',
            onDone: {
              target: 'loaded',
              actions: [
                { type: 'storeLoaded', params: ({ event }) => ({ conversations: event.output }) },
                sendParent(({ context }) => ({ type: 'list.loaded', conversations: context.conversations })),
              ],
            },
            onError: {
              target: 'loaded',
              actions: logAs('Loading conversations'),
              description: 'product §8: logged only; the list stays empty.',
            },
          },
        },
        loaded: {
          description: 'product §4: conversations load once, when the dashboard opens; never again.',
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
            target: '.typing',
            reenter: true,
            actions: { type: 'storeSearchQuery', params: ({ event }) => ({ query: event.query }) },
            description:
              'Searched as typed: each keystroke restarts the pause, and a newer search replaces one under way.',
          },
        ],
      },
      states: {
        idle: {},
        typing: { tags: 'searching', after: { searchPause: 'searching' } },
        searching: {
          tags: 'searching',
          invoke: {
            src: 'searchConversations',
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

export type ConversationListSnapshot = SnapshotFrom<typeof conversationListMachine>

/** The conversations being deleted, read off the deletions running. */
export function deletingIdsOf(snapshot: ConversationListSnapshot): string[] {
  const prefix = deleteActorId('')
  return Object.keys(snapshot.children)
    .filter((id) => id.startsWith(prefix))
    .map((id) => id.slice(prefix.length))
}

export function provideConversationListMachine(deps: ConversationListDeps) {
  return conversationListMachine.provide({ actors: conversationListActors(deps), actions: chatActions(deps) })
}
