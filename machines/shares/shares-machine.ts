/**
 * The person's read-only links (D73): which conversations are shared, sharing one (or updating
 * its snapshot: the link stays), and revoking one. Loads the list when it starts; one change at a
 * time, and a failed one keeps the list as it was with a sentence. Effects are injected with
 * provideSharesMachine(deps).
 */
import { assign, fromPromise, setup } from 'xstate'
import type { Share } from '#contracts/sharing.ts'
import { notProvided } from '#machines/shared/effects.ts'

export const SHARES_MESSAGES = {
  load: 'Could not load your shared links.',
  share: 'Could not share the conversation. Try again.',
  revoke: 'Could not stop sharing. Try again.',
} as const

export type SharesContext = {
  shares: Share[]
  /** The conversation being shared or revoked, while the server works on it. */
  pendingId: string | null
  problem: string | null
}

export type SharesEvent =
  | { type: 'shares.load' }
  | { type: 'shares.share'; conversationId: string }
  | { type: 'shares.revoke'; conversationId: string }

export type SharesDeps = {
  listShares: () => Promise<Share[]>
  shareConversation: (id: string) => Promise<Share>
  unshareConversation: (id: string) => Promise<void>
}

/** The server's sentence when it sent one (a 4xx), else ours. */
const sentence = (error: unknown, fallback: string) => {
  const status = typeof error === 'object' && error !== null && 'status' in error ? error.status : undefined
  return typeof status === 'number' && status >= 400 && status < 500 && error instanceof Error
    ? error.message
    : fallback
}

export const sharesMachine = setup({
  types: { context: {} as SharesContext, events: {} as SharesEvent },
  actors: {
    listShares: notProvided<Share[]>('listShares'),
    shareConversation: notProvided<Share, { id: string }>('shareConversation'),
    unshareConversation: notProvided<void, { id: string }>('unshareConversation'),
  },
  actions: {
    storeShares: assign((_, params: { shares: Share[] }) => ({ shares: params.shares, problem: null })),
    storePending: assign((_, params: { id: string }) => ({ pendingId: params.id, problem: null })),
    storeShare: assign(({ context }, params: { share: Share }) => ({
      shares: [
        params.share,
        ...context.shares.filter((s) => s.conversationId !== params.share.conversationId),
      ],
      pendingId: null,
    })),
    dropShare: assign(({ context }) => ({
      shares: context.shares.filter((s) => s.conversationId !== context.pendingId),
      pendingId: null,
    })),
    storeProblem: assign((_, params: { problem: string }) => ({ problem: params.problem, pendingId: null })),
  },
}).createMachine({
  id: 'shares',
  context: { shares: [], pendingId: null, problem: null },
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        src: 'listShares',
        onDone: {
          target: 'ready',
          actions: { type: 'storeShares', params: ({ event }) => ({ shares: event.output }) },
        },
        onError: {
          target: 'ready',
          actions: { type: 'storeProblem', params: { problem: SHARES_MESSAGES.load } },
        },
      },
    },
    ready: {
      on: {
        'shares.load': { target: 'loading' },
        'shares.share': {
          target: 'sharing',
          actions: { type: 'storePending', params: ({ event }) => ({ id: event.conversationId }) },
        },
        'shares.revoke': {
          target: 'revoking',
          actions: { type: 'storePending', params: ({ event }) => ({ id: event.conversationId }) },
        },
      },
    },
    sharing: {
      tags: ['busy'],
      invoke: {
        src: 'shareConversation',
        input: ({ context }) => ({ id: context.pendingId ?? '' }),
        onDone: {
          target: 'ready',
          actions: { type: 'storeShare', params: ({ event }) => ({ share: event.output }) },
        },
        onError: {
          target: 'ready',
          actions: {
            type: 'storeProblem',
            params: ({ event }) => ({ problem: sentence(event.error, SHARES_MESSAGES.share) }),
          },
        },
      },
    },
    revoking: {
      tags: ['busy'],
      invoke: {
        src: 'unshareConversation',
        input: ({ context }) => ({ id: context.pendingId ?? '' }),
        onDone: { target: 'ready', actions: 'dropShare' },
        onError: {
          target: 'ready',
          actions: {
            type: 'storeProblem',
            params: ({ event }) => ({ problem: sentence(event.error, SHARES_MESSAGES.revoke) }),
          },
        },
      },
    },
  },
})

export function provideSharesMachine(deps: SharesDeps) {
  return sharesMachine.provide({
    actors: {
      listShares: fromPromise(() => deps.listShares()),
      shareConversation: fromPromise(({ input }: { input: { id: string } }) =>
        deps.shareConversation(input.id),
      ),
      unshareConversation: fromPromise(({ input }: { input: { id: string } }) =>
        deps.unshareConversation(input.id),
      ),
    },
  })
}
