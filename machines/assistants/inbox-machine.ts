/**
 * The owner's inbox of an assistant's visitor conversations (issue 37): loads the assistant and
 * the first page (All or Unanswered), pages on with the server's cursor, shows one conversation's
 * messages beside the list, and deletes one or all once the owner confirmed (then the first page
 * loads again, so the counts and the chart follow). Calls are injected with provideInboxMachine(deps).
 */
import { assign, enqueueActions, fromPromise, setup } from 'xstate'
import type { Assistant } from '#contracts/assistants.ts'
import { notProvided, statusOf } from '#machines/shared/effects.ts'
import { sentenceOf } from './assistant-messages.ts'
import {
  INBOX_MESSAGES,
  type Inbox,
  type InboxContext,
  type InboxDeps,
  type InboxEvent,
  type InboxFilter,
  type OpenConversation,
  type RemoveInput,
} from './inbox-types.ts'

export const ALL = 'all'

type PageInput = { id: string; filter: InboxFilter; cursor: string | null }

const failed = (fallback: string) => ({
  type: 'storeProblem' as const,
  params: ({ event }: { event: { error: unknown } }) => ({ error: event.error, fallback }),
})

const firstPage = (inbox: Inbox) => ({
  conversations: inbox.conversations,
  next: inbox.next,
  topQuestions: inbox.topQuestions,
  perDay: inbox.perDay,
})

export const inboxMachine = setup({
  types: {
    context: {} as InboxContext,
    events: {} as InboxEvent,
    input: {} as { assistantId: string },
  },
  actors: {
    start: notProvided<{ assistant: Assistant; inbox: Inbox }, { id: string }>('start'),
    page: notProvided<Inbox, PageInput>('page'),
    conversation: notProvided<OpenConversation, { id: string; conversationId: string }>('conversation'),
    remove: notProvided<number | null, RemoveInput>('remove'),
  },
  actions: {
    storeProblem: assign((_, params: { error: unknown; fallback: string }) => ({
      problem: sentenceOf(params.error, params.fallback),
    })),
    clearProblem: assign({ problem: null, notice: null }),
    select: assign({
      selectedId: ({ event }) => (event.type === 'inbox.open' ? event.conversationId : null),
      openProblem: null,
    }),
  },
  guards: {
    isMissing: ({ event }) => 'error' in event && statusOf(event.error) === 404,
    hasMore: ({ context }) => context.next !== null,
  },
}).createMachine({
  id: 'inbox',
  type: 'parallel',
  context: ({ input }) => ({
    assistantId: input.assistantId,
    assistant: null,
    filter: 'all',
    conversations: [],
    next: null,
    topQuestions: { days7: [], days30: [] },
    perDay: [],
    selectedId: null,
    open: null,
    pendingDelete: null,
    problem: null,
    openProblem: null,
    notice: null,
  }),
  states: {
    list: {
      initial: 'loading',
      states: {
        loading: {
          tags: 'loading',
          entry: 'clearProblem',
          invoke: {
            src: 'start',
            input: ({ context }) => ({ id: context.assistantId }),
            onDone: {
              target: 'ready',
              actions: assign(({ event }) => ({
                assistant: event.output.assistant,
                ...firstPage(event.output.inbox),
              })),
            },
            onError: [
              { guard: 'isMissing', target: 'missing' },
              { target: 'failed', actions: failed(INBOX_MESSAGES.load) },
            ],
          },
        },
        missing: {},
        failed: { on: { 'inbox.retry': 'loading' } },
        ready: {
          on: {
            'inbox.filter': {
              target: 'refreshing',
              actions: assign({ filter: ({ event }) => event.filter }),
            },
            'inbox.more': { guard: 'hasMore', target: 'paging' },
            'inbox.askDelete': {
              target: 'confirmingDelete',
              actions: [
                'clearProblem',
                assign({ pendingDelete: ({ event }) => event.conversationId ?? ALL }),
              ],
            },
          },
        },
        refreshing: {
          tags: 'refreshing',
          on: {
            'inbox.filter': {
              target: 'refreshing',
              reenter: true,
              actions: assign({ filter: ({ event }) => event.filter }),
            },
          },
          invoke: {
            src: 'page',
            input: ({ context }) => ({ id: context.assistantId, filter: context.filter, cursor: null }),
            onDone: { target: 'ready', actions: assign(({ event }) => firstPage(event.output)) },
            onError: { target: 'ready', actions: failed(INBOX_MESSAGES.load) },
          },
        },
        paging: {
          tags: 'paging',
          entry: 'clearProblem',
          invoke: {
            src: 'page',
            input: ({ context }) => ({
              id: context.assistantId,
              filter: context.filter,
              cursor: context.next,
            }),
            onDone: {
              target: 'ready',
              actions: assign(({ context, event }) => ({
                conversations: [...context.conversations, ...event.output.conversations],
                next: event.output.next,
              })),
            },
            onError: { target: 'ready', actions: failed(INBOX_MESSAGES.more) },
          },
        },
        confirmingDelete: {
          on: {
            'inbox.cancelDelete': { target: 'ready', actions: assign({ pendingDelete: null }) },
            'inbox.confirmDelete': 'deleting',
          },
          description: 'Deleting is asked first: a deleted conversation cannot be brought back.',
        },
        deleting: {
          tags: ['deleting', 'confirming'],
          entry: 'clearProblem',
          invoke: {
            src: 'remove',
            input: ({ context }) => ({ id: context.assistantId, target: context.pendingDelete ?? ALL }),
            onDone: {
              target: 'refreshing',
              actions: enqueueActions(({ context, event, enqueue }) => {
                const target = context.pendingDelete
                if (target === ALL || target === context.selectedId) enqueue.raise({ type: 'inbox.close' })
                enqueue.assign({
                  pendingDelete: null,
                  notice:
                    event.output === null
                      ? INBOX_MESSAGES.deletedOne
                      : INBOX_MESSAGES.deletedAll(event.output),
                })
              }),
            },
            onError: { target: 'confirmingDelete', actions: failed(INBOX_MESSAGES.remove) },
          },
        },
      },
    },
    conversation: {
      initial: 'closed',
      on: {
        // Not `reenter` here: in a parallel machine that would start the list over too.
        'inbox.open': { target: '.opening', actions: 'select' },
        'inbox.close': {
          target: '.closed',
          actions: assign({ selectedId: null, open: null, openProblem: null }),
        },
      },
      states: {
        closed: {},
        opening: {
          tags: 'opening',
          on: { 'inbox.open': { target: 'opening', reenter: true, actions: 'select' } },
          invoke: {
            src: 'conversation',
            input: ({ context }) => ({ id: context.assistantId, conversationId: context.selectedId ?? '' }),
            onDone: { target: 'open', actions: assign({ open: ({ event }) => event.output }) },
            onError: {
              target: 'open',
              actions: assign({
                open: null,
                openProblem: ({ event }) => sentenceOf(event.error, INBOX_MESSAGES.open),
              }),
            },
          },
        },
        open: {},
      },
    },
  },
})

/** The inbox's calls; Delete all answers how many went (the notice says it), Delete one nothing. */
export function provideInboxMachine(deps: InboxDeps) {
  return inboxMachine.provide({
    actors: {
      start: fromPromise(async ({ input }) => {
        const [assistant, inbox] = await Promise.all([deps.get(input.id), deps.inbox(input.id, 'all', null)])
        return { assistant, inbox }
      }),
      page: fromPromise(({ input }) => deps.inbox(input.id, input.filter, input.cursor)),
      conversation: fromPromise(({ input }) => deps.inboxConversation(input.id, input.conversationId)),
      remove: fromPromise(async ({ input }) => {
        if (input.target === ALL) return deps.deleteInboxConversations(input.id)
        await deps.deleteInboxConversation(input.id, input.target)
        return null
      }),
    },
  })
}
