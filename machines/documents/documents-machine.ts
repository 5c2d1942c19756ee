/**
 * The document library on the Documents screen: each document's status and the overall progress,
 * kept live by polling while files are being read (or while an ingest the user started is under
 * way), and deleting, retrying or adding back (a removed Drive file) a document. It starts from the server's state, so a reload shows
 * a sync that is still running and keeps following it. It also keeps which ready documents the
 * person selected to ask about together (D70). It runs as long as the dashboard (D112): the
 * wiring actor loads it when Documents comes on screen and hides it when Documents goes, which
 * stops the polling and forgets it all, so each visit starts afresh. Calls come from
 * provideDocumentsMachine(deps).
 */
import { assertEvent, assign, fromPromise, setup } from 'xstate'
import { SCOPE_MAX_DOCUMENTS } from '#contracts/chat.ts'
import type { Library, LibraryDocument } from '#contracts/documents.ts'
import { messageOf, notProvided, statusOf } from '#machines/shared/effects.ts'

/** How often the library is read again while files are being read. */
export const DOCUMENTS_POLL_MS = 1_000

export const DOCUMENTS_MESSAGES = {
  loadFailed: 'Could not load the document library.',
  deleteFailed: 'Could not delete the document. Try again.',
  retryFailed: 'Could not retry the document. Try again.',
  restoreFailed: 'Could not add the document back. Try again.',
} as const

export type DocumentsDeps = {
  listDocuments: () => Promise<Library>
  deleteDocument: (id: string) => Promise<void>
  retryDocument: (id: string) => Promise<LibraryDocument>
  restoreDocument: (id: string) => Promise<LibraryDocument>
}

export type DocumentsInput = { pollMs?: number }

export type DocumentsContext = {
  library: Library | null
  /** The last failure to show (a load, a delete, a retry), or null. */
  problem: string | null
  /** True while an ingest the user started is under way: poll even before files are queued. */
  watching: boolean
  pollMs: number
  /** Ready documents chosen to ask about together, in the order chosen (at most SCOPE_MAX_DOCUMENTS). */
  selected: string[]
}

export type DocumentsEvent =
  | { type: 'documents.load' }
  | { type: 'documents.hide' }
  | { type: 'documents.watch' }
  | { type: 'documents.unwatch' }
  | { type: 'documents.delete'; id: string }
  | { type: 'documents.retry'; id: string }
  | { type: 'documents.restore'; id: string }
  | { type: 'documents.select'; id: string; selected: boolean }
  | { type: 'documents.clearSelection' }

/** A 4xx carries the server's sentence (e.g. "Document not found."); anything else gets ours. */
function problemOf(error: unknown, fallback: string): string {
  const status = statusOf(error)
  if (status !== undefined && status >= 400 && status < 500) return messageOf(error) ?? fallback
  return fallback
}

/** The document's id, from the delete, retry or add-back event that started the call. */
function documentId({ event }: { event: DocumentsEvent }): { id: string } {
  assertEvent(event, ['documents.delete', 'documents.retry', 'documents.restore'])
  return { id: event.id }
}

/**
 * A call on one document (delete, retry, add back): the list is read again whatever the outcome,
 * and a failure says why (the server's sentence for a 4xx, `failed` otherwise).
 */
function onDocument(src: 'deleteDocument' | 'retryDocument' | 'restoreDocument', failed: string) {
  return {
    invoke: {
      src,
      input: documentId,
      onDone: 'loading',
      onError: {
        target: 'loading',
        actions: {
          type: 'setProblem',
          params: ({ event }: { event: { error: unknown } }) => ({ problem: problemOf(event.error, failed) }),
        },
      },
    },
  } as const
}

function isReady(library: Library, id: string): boolean {
  return library.documents.some((d) => d.id === id && d.status === 'ready')
}

function initialContext(pollMs: number): DocumentsContext {
  return { library: null, problem: null, watching: false, pollMs, selected: [] }
}

export const documentsMachine = setup({
  types: {
    context: {} as DocumentsContext,
    events: {} as DocumentsEvent,
    input: {} as DocumentsInput,
  },
  actors: {
    listDocuments: notProvided<Library>('listDocuments'),
    deleteDocument: notProvided<void, { id: string }>('deleteDocument'),
    retryDocument: notProvided<LibraryDocument, { id: string }>('retryDocument'),
    restoreDocument: notProvided<LibraryDocument, { id: string }>('restoreDocument'),
  },
  actions: {
    /** A document no longer ready (deleted, read again) leaves the selection. */
    store: assign(({ context }, params: { library: Library }) => ({
      library: params.library,
      selected: context.selected.filter((id) => isReady(params.library, id)),
    })),
    select: assign(({ context }, params: { id: string; selected: boolean }) => {
      const others = context.selected.filter((id) => id !== params.id)
      const ready = context.library !== null && isReady(context.library, params.id)
      return {
        selected:
          params.selected && ready && others.length < SCOPE_MAX_DOCUMENTS ? [...others, params.id] : others,
      }
    }),
    clearSelection: assign({ selected: [] }),
    clearProblem: assign({ problem: null }),
    /** A successful read ends a load failure, not a delete's or a retry's. */
    clearLoadProblem: assign(({ context }) => ({
      problem: context.problem === DOCUMENTS_MESSAGES.loadFailed ? null : context.problem,
    })),
    setProblem: assign((_, params: { problem: string }) => ({ problem: params.problem })),
    forget: assign(({ context }) => initialContext(context.pollMs)),
    watch: assign({ watching: true }),
    unwatch: assign({ watching: false }),
  },
  guards: {
    keepsChanging: ({ context }) => context.watching || context.library?.progress.running === true,
  },
  delays: {
    poll: ({ context }) => context.pollMs,
  },
}).createMachine({
  id: 'documents',
  context: ({ input }) => initialContext(input.pollMs ?? DOCUMENTS_POLL_MS),
  initial: 'idle',
  on: {
    'documents.select': {
      actions: { type: 'select', params: ({ event }) => ({ id: event.id, selected: event.selected }) },
      description: `Only ready documents, at most ${SCOPE_MAX_DOCUMENTS} (as many as a conversation can search).`,
    },
    'documents.clearSelection': { actions: 'clearSelection' },
    'documents.load': '.loading',
    'documents.hide': {
      target: '.idle',
      actions: 'forget',
      description:
        'Documents left the screen: no more polling, and the next visit starts as the first did ' +
        '(nothing selected, no problem shown, the library read again).',
    },
    'documents.watch': { target: '.loading', actions: 'watch' },
    'documents.unwatch': {
      target: '.loading',
      actions: 'unwatch',
      description:
        'The ingest answered: read the library once more, then poll only if files are still queued.',
    },
    'documents.delete': { target: '.deleting', actions: 'clearProblem' },
    'documents.retry': { target: '.retrying', actions: 'clearProblem' },
    'documents.restore': {
      target: '.restoring',
      actions: 'clearProblem',
      description: 'The file comes back queued, so the next read of the library polls until it is done.',
    },
  },
  states: {
    idle: {},
    loading: {
      tags: 'loading',
      invoke: {
        src: 'listDocuments',
        onDone: {
          target: 'settled',
          actions: [
            { type: 'store', params: ({ event }) => ({ library: event.output }) },
            'clearLoadProblem',
          ],
        },
        onError: {
          target: 'failed',
          actions: { type: 'setProblem', params: { problem: DOCUMENTS_MESSAGES.loadFailed } },
        },
      },
    },
    settled: {
      always: [{ guard: 'keepsChanging', target: 'waiting' }, { target: 'shown' }],
    },
    waiting: {
      after: { poll: 'loading' },
    },
    shown: {},
    failed: {
      after: {
        poll: { guard: 'keepsChanging', target: 'loading' },
      },
      description: 'Keeps trying while a sync is followed; otherwise waits for the person to reload.',
    },
    deleting: onDocument('deleteDocument', DOCUMENTS_MESSAGES.deleteFailed),
    retrying: onDocument('retryDocument', DOCUMENTS_MESSAGES.retryFailed),
    restoring: onDocument('restoreDocument', DOCUMENTS_MESSAGES.restoreFailed),
  },
})

export function provideDocumentsMachine(deps: DocumentsDeps) {
  return documentsMachine.provide({
    actors: {
      listDocuments: fromPromise(() => deps.listDocuments()),
      deleteDocument: fromPromise(({ input }) => deps.deleteDocument(input.id)),
      retryDocument: fromPromise(({ input }) => deps.retryDocument(input.id)),
      restoreDocument: fromPromise(({ input }) => deps.restoreDocument(input.id)),
    },
  })
}
