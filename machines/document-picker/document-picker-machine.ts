/**
 * The composer's `#` picker (D70): while a `#query` is typed it lists the person's ready
 * documents whose names hold the query (those the chat already searches left out), with one
 * highlighted that the arrow keys move and Enter chooses; choosing emits `picker.chosen` and
 * closes. The library is read each time the picker opens (so a document read a moment ago is
 * there). Escape dismisses it for that `#`. Calls come from provideDocumentPickerMachine(deps).
 */
import { assign, emit, fromPromise, setup } from 'xstate'
import type { ScopeDocument } from '#contracts/chat.ts'
import type { Library } from '#contracts/documents.ts'
import { notProvided } from '#machines/shared/effects.ts'

/** The most documents the picker lists at once: type more of a name to find another. */
export const PICKER_MAX_MATCHES = 8

export type DocumentPickerDeps = { listDocuments: () => Promise<Library> }

export type DocumentPickerContext = {
  /** The person's ready documents, from the last read of the library; null before the first. */
  documents: ScopeDocument[] | null
  /** Where the `#` being followed is in the composer's text, and what follows it. */
  at: number | null
  query: string
  /** Documents not to offer (the chat searches them already). */
  excluded: string[]
  highlighted: number
  /** The `#` Escape dismissed: the picker stays closed while that one is typed on. */
  dismissedAt: number | null
}

export type DocumentPickerEvent =
  /** A `#query` is being typed at `at`. */
  | { type: 'picker.search'; at: number; query: string; excluded: string[] }
  /** No `#query` at the caret any more. */
  | { type: 'picker.hide' }
  | { type: 'picker.dismiss' }
  | { type: 'picker.next' }
  | { type: 'picker.previous' }
  | { type: 'picker.highlight'; index: number }
  /** Chooses `documentId`, or the highlighted document. */
  | { type: 'picker.choose'; documentId?: string }

export type DocumentPickerEmitted = {
  type: 'picker.chosen'
  document: ScopeDocument
  /** The `#query` the document takes the place of. */
  at: number
  query: string
}

/** What the picker offers for its query: ready documents whose names hold it, not yet chosen. */
export function pickerMatches(context: DocumentPickerContext): ScopeDocument[] {
  const query = context.query.toLowerCase()
  return (context.documents ?? [])
    .filter((d) => !context.excluded.includes(d.id) && d.name.toLowerCase().includes(query))
    .slice(0, PICKER_MAX_MATCHES)
}

const wrap = (index: number, length: number) => (length === 0 ? 0 : (index + length) % length)

export const documentPickerMachine = setup({
  types: {
    context: {} as DocumentPickerContext,
    events: {} as DocumentPickerEvent,
    emitted: {} as DocumentPickerEmitted,
    tags: {} as 'open' | 'loading',
  },
  actors: {
    listDocuments: notProvided<ScopeDocument[]>('listDocuments'),
  },
  actions: {
    storeQuery: assign((_, params: { at: number; query: string; excluded: string[] }) => ({
      at: params.at,
      query: params.query,
      excluded: params.excluded,
      highlighted: 0,
    })),
    storeDocuments: assign((_, params: { documents: ScopeDocument[] }) => ({ documents: params.documents })),
    move: assign(({ context }, params: { by: number }) => ({
      highlighted: wrap(context.highlighted + params.by, pickerMatches(context).length),
    })),
    highlight: assign((_, params: { index: number }) => ({ highlighted: params.index })),
    dismiss: assign(({ context }) => ({ dismissedAt: context.at })),
    forget: assign({ at: null, query: '', dismissedAt: null }),
    announceChosen: emit(({ context }, params: { documentId?: string }) => {
      const matches = pickerMatches(context)
      const document =
        matches.find((d) => d.id === params.documentId) ?? matches[context.highlighted] ?? matches[0]
      return {
        type: 'picker.chosen' as const,
        document: document as ScopeDocument,
        at: context.at ?? 0,
        query: context.query,
      }
    }),
  },
  guards: {
    /** Escape closed the picker for the `#` at `dismissedAt`; a `#` elsewhere opens it again. */
    isNotDismissed: ({ context }, params: { at: number }) => context.dismissedAt !== params.at,
    hasMatch: ({ context }) => pickerMatches(context).length > 0,
  },
}).createMachine({
  id: 'documentPicker',
  context: { documents: null, at: null, query: '', excluded: [], highlighted: 0, dismissedAt: null },
  initial: 'closed',
  on: {
    'picker.hide': { target: '.closed', actions: 'forget' },
  },
  states: {
    closed: {
      on: {
        'picker.search': {
          guard: { type: 'isNotDismissed', params: ({ event }) => ({ at: event.at }) },
          target: 'open',
          actions: {
            type: 'storeQuery',
            params: ({ event }) => ({ at: event.at, query: event.query, excluded: event.excluded }),
          },
        },
      },
    },
    open: {
      tags: 'open',
      initial: 'loading',
      on: {
        'picker.search': {
          actions: {
            type: 'storeQuery',
            params: ({ event }) => ({ at: event.at, query: event.query, excluded: event.excluded }),
          },
        },
        'picker.dismiss': { target: 'closed', actions: 'dismiss' },
        'picker.next': { actions: { type: 'move', params: { by: 1 } } },
        'picker.previous': { actions: { type: 'move', params: { by: -1 } } },
        'picker.highlight': {
          actions: { type: 'highlight', params: ({ event }) => ({ index: event.index }) },
        },
        'picker.choose': {
          guard: 'hasMatch',
          target: 'closed',
          actions: [
            { type: 'announceChosen', params: ({ event }) => ({ documentId: event.documentId }) },
            'forget',
          ],
        },
      },
      states: {
        loading: {
          tags: 'loading',
          invoke: {
            src: 'listDocuments',
            onDone: {
              target: 'shown',
              actions: { type: 'storeDocuments', params: ({ event }) => ({ documents: event.output }) },
            },
            onError: 'failed',
          },
          description: 'The last list (if any) is offered meanwhile.',
        },
        shown: {},
        failed: {
          on: {
            'picker.search': {
              target: 'loading',
              actions: {
                type: 'storeQuery',
                params: ({ event }) => ({ at: event.at, query: event.query, excluded: event.excluded }),
              },
              description: 'Typing on tries again.',
            },
          },
        },
      },
    },
  },
})

/** The person's ready documents, as the picker offers them. */
function readyDocuments(library: Library): ScopeDocument[] {
  return library.documents.filter((d) => d.status === 'ready').map((d) => ({ id: d.id, name: d.name }))
}

export function provideDocumentPickerMachine(deps: DocumentPickerDeps) {
  return documentPickerMachine.provide({
    actors: { listDocuments: fromPromise(async () => readyDocuments(await deps.listDocuments())) },
  })
}
