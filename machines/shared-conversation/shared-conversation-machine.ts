/**
 * The public page of a shared conversation (`/s/{token}`, D73): loads the snapshot the link names
 * for anyone, signed in or not; a link that is unknown or was revoked is `missing` (the server
 * answers both alike), any other failure can be tried again. `loadShared` is injected with
 * provideSharedConversationMachine(deps).
 */
import { assign, fromPromise, setup } from 'xstate'
import type { SharedConversation } from '#contracts/sharing.ts'
import { notProvided, statusOf } from '#machines/shared/effects.ts'

export type SharedConversationContext = {
  token: string
  conversation: SharedConversation | null
}

export type SharedConversationDeps = { loadShared: (token: string) => Promise<SharedConversation> }

export const sharedConversationMachine = setup({
  types: {
    context: {} as SharedConversationContext,
    events: {} as { type: 'shared.retry' },
    input: {} as { token: string },
  },
  actors: { loadShared: notProvided<SharedConversation, { token: string }>('loadShared') },
  actions: {
    storeConversation: assign((_, params: { conversation: SharedConversation }) => ({
      conversation: params.conversation,
    })),
  },
  guards: {
    isMissing: (_, params: { error: unknown }) => {
      const status = statusOf(params.error)
      return status === 404 || status === 400
    },
  },
}).createMachine({
  id: 'sharedConversation',
  context: ({ input }) => ({ token: input.token, conversation: null }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        src: 'loadShared',
        input: ({ context }) => ({ token: context.token }),
        onDone: {
          target: 'ready',
          actions: { type: 'storeConversation', params: ({ event }) => ({ conversation: event.output }) },
        },
        onError: [
          {
            guard: { type: 'isMissing', params: ({ event }) => ({ error: event.error }) },
            target: 'missing',
          },
          { target: 'failed' },
        ],
      },
    },
    ready: {},
    missing: { description: 'Unknown, revoked or malformed: the page says the link leads nowhere.' },
    failed: { on: { 'shared.retry': { target: 'loading' } } },
  },
})

export function provideSharedConversationMachine(deps: SharedConversationDeps) {
  return sharedConversationMachine.provide({
    actors: {
      loadShared: fromPromise(({ input }: { input: { token: string } }) => deps.loadShared(input.token)),
    },
  })
}
