/**
 * Settings → API keys (issue 38, D124): loading (the keys, and the assistants a key may be limited
 * to) → ready. Making a key: composing → creating → showing the key once (it is kept only in this
 * state's context and dropped when the dialog closes). Revoking is asked first: confirming →
 * revoking → the list read again. The calls are injected with provideApiKeysMachine(deps).
 */
import { assertEvent, assign, fromPromise, setup } from 'xstate'
import type { ApiKey, CreateApiKeyRequest, CreatedApiKey } from '#contracts/api-keys.ts'
import { notProvided, serverSentence } from '#machines/shared/effects.ts'

export const API_KEYS_ERRORS = {
  load: 'Could not load your API keys.',
  create: 'Could not make the key. Try again.',
  revoke: 'Could not revoke the key. Try again.',
} as const

export type AssistantChoice = { _id: string; name: string }
export type ApiKeysData = { keys: ApiKey[]; assistants: AssistantChoice[] }

export type ApiKeysContext = ApiKeysData & {
  /** The key just made, shown once; null otherwise. */
  created: CreatedApiKey | null
  /** The key asked about before revoking. */
  revokingId: string | null
  error: string | null
}
export type ApiKeysEvent =
  | { type: 'apiKeys.compose' }
  | { type: 'apiKeys.create'; request: CreateApiKeyRequest }
  | { type: 'apiKeys.cancel' }
  | { type: 'apiKeys.closeKey' }
  | { type: 'apiKeys.revoke'; id: string }
  | { type: 'apiKeys.confirmRevoke' }
  | { type: 'apiKeys.retry' }
export type ApiKeysDeps = {
  load: () => Promise<ApiKeysData>
  createKey: (request: CreateApiKeyRequest) => Promise<CreatedApiKey>
  revokeKey: (id: string) => Promise<void>
}

const failWith = (fallback: string) => ({
  type: 'storeError' as const,
  params: ({ event }: { event: { error: unknown } }) => ({ error: event.error, fallback }),
})

export const apiKeysMachine = setup({
  types: { context: {} as ApiKeysContext, events: {} as ApiKeysEvent },
  actors: {
    load: notProvided<ApiKeysData>('load'),
    createKey: notProvided<CreatedApiKey, CreateApiKeyRequest>('createKey'),
    revokeKey: notProvided<void, string>('revokeKey'),
  },
  actions: {
    storeData: assign((_, params: ApiKeysData) => params),
    storeCreated: assign(({ context }, params: { created: CreatedApiKey }) => {
      const { key: _, ...listed } = params.created
      return { created: params.created, keys: [listed, ...context.keys] }
    }),
    clearCreated: assign({ created: null }),
    storeRevoking: assign((_, params: { id: string }) => ({ revokingId: params.id })),
    clearRevoking: assign({ revokingId: null }),
    clearError: assign({ error: null }),
    storeError: assign((_, params: { error: unknown; fallback: string }) => ({
      error: serverSentence(params.error, params.fallback),
    })),
  },
}).createMachine({
  id: 'apiKeys',
  context: { keys: [], assistants: [], created: null, revokingId: null, error: null },
  initial: 'loading',
  states: {
    loading: {
      tags: 'loading',
      invoke: {
        src: 'load',
        onDone: { target: 'ready', actions: { type: 'storeData', params: ({ event }) => event.output } },
        onError: { target: 'failed', actions: failWith(API_KEYS_ERRORS.load) },
      },
    },
    failed: { on: { 'apiKeys.retry': { target: 'loading', actions: 'clearError' } } },
    ready: {
      on: {
        'apiKeys.compose': { target: 'composing', actions: 'clearError' },
        'apiKeys.revoke': {
          target: 'confirming',
          actions: ['clearError', { type: 'storeRevoking', params: ({ event }) => ({ id: event.id }) }],
        },
      },
    },
    composing: {
      tags: 'composing',
      on: {
        'apiKeys.create': { target: 'creating', actions: 'clearError' },
        'apiKeys.cancel': { target: 'ready', actions: 'clearError' },
      },
    },
    creating: {
      tags: ['composing', 'busy'],
      invoke: {
        src: 'createKey',
        input: ({ event }) => {
          assertEvent(event, 'apiKeys.create')
          return event.request
        },
        onDone: {
          target: 'showing',
          actions: { type: 'storeCreated', params: ({ event }) => ({ created: event.output }) },
        },
        onError: { target: 'composing', actions: failWith(API_KEYS_ERRORS.create) },
      },
    },
    showing: {
      tags: 'showing',
      on: {
        'apiKeys.closeKey': {
          target: 'ready',
          actions: 'clearCreated',
          description: 'The key is forgotten here: it is never shown again.',
        },
      },
    },
    confirming: {
      tags: 'confirming',
      on: {
        'apiKeys.confirmRevoke': 'revoking',
        'apiKeys.cancel': { target: 'ready', actions: 'clearRevoking' },
      },
    },
    revoking: {
      tags: ['confirming', 'busy'],
      invoke: {
        src: 'revokeKey',
        input: ({ context }) => context.revokingId ?? '',
        onDone: { target: 'loading', actions: 'clearRevoking' },
        onError: { target: 'loading', actions: ['clearRevoking', failWith(API_KEYS_ERRORS.revoke)] },
      },
    },
  },
})

export function provideApiKeysMachine(deps: ApiKeysDeps) {
  return apiKeysMachine.provide({
    actors: {
      load: fromPromise(() => deps.load()),
      createKey: fromPromise(({ input }) => deps.createKey(input)),
      revokeKey: fromPromise(({ input }) => deps.revokeKey(input)),
    },
  })
}
