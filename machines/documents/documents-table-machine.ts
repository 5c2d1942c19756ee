/**
 * The person's view of the Documents table (D89): what is typed in its search, its filters, its
 * sort and page, which row's action menu is open, and the deletion waiting for a confirmation.
 * The rows themselves come from the library and the Drive actors (documents-table.ts merges
 * them); a confirmed deletion is emitted for the library to carry out. It runs as long as the
 * dashboard (D112), which resets it each time Documents comes on screen. Nothing is injected.
 */
import { assign, emit, setup } from 'xstate'
import {
  INITIAL_VIEW,
  type SortColumn,
  type SortDirection,
  type StatusFilter,
  type TableView,
} from './documents-table.ts'

/** The direction a column sorts in when first chosen: names A–Z, newest first, attention first. */
const FIRST_DIRECTION: Record<SortColumn, SortDirection> = {
  name: 'ascending',
  modified: 'descending',
  status: 'ascending',
}

export type DocumentsTableContext = {
  view: TableView
  /** The row whose action menu is open. */
  menuFor: string | null
  /** The library document a deletion waits to be confirmed for. */
  confirming: { libraryId: string; name: string } | null
}

export type DocumentsTableEvent =
  | { type: 'table.search'; query: string }
  | { type: 'table.filter'; status?: StatusFilter; source?: TableView['source']; typeLabel?: string }
  | { type: 'table.sort'; column: SortColumn }
  | { type: 'table.page'; page: number }
  | { type: 'table.openMenu'; key: string }
  | { type: 'table.closeMenu' }
  | { type: 'table.askDelete'; libraryId: string; name: string }
  | { type: 'table.cancelDelete' }
  | { type: 'table.confirmDelete' }
  | { type: 'table.reset' }

export type DocumentsTableEmitted = { type: 'table.deleteConfirmed'; libraryId: string }

const INITIAL_CONTEXT: DocumentsTableContext = { view: INITIAL_VIEW, menuFor: null, confirming: null }

export const documentsTableMachine = setup({
  types: {
    context: {} as DocumentsTableContext,
    events: {} as DocumentsTableEvent,
    emitted: {} as DocumentsTableEmitted,
  },
  actions: {
    search: assign(({ context }, params: { query: string }) => ({
      view: { ...context.view, query: params.query, page: 0 },
    })),
    filter: assign(
      ({ context }, params: Omit<Extract<DocumentsTableEvent, { type: 'table.filter' }>, 'type'>) => ({
        view: {
          ...context.view,
          status: params.status ?? context.view.status,
          source: params.source ?? context.view.source,
          type: params.typeLabel ?? context.view.type,
          page: 0,
        },
      }),
    ),
    sort: assign(({ context }, params: { column: SortColumn }) => {
      const { sort } = context.view
      const direction =
        sort.column === params.column
          ? sort.direction === 'ascending'
            ? 'descending'
            : 'ascending'
          : FIRST_DIRECTION[params.column]
      return { view: { ...context.view, sort: { column: params.column, direction }, page: 0 } }
    }),
    turnPage: assign(({ context }, params: { page: number }) => ({
      view: { ...context.view, page: Math.max(0, params.page) },
    })),
    openMenu: assign((_, params: { key: string }) => ({ menuFor: params.key })),
    closeMenu: assign({ menuFor: null }),
    askDelete: assign((_, params: { libraryId: string; name: string }) => ({
      menuFor: null,
      confirming: { libraryId: params.libraryId, name: params.name },
    })),
    forgetDelete: assign({ confirming: null }),
    reset: assign(INITIAL_CONTEXT),
    announceDelete: emit(({ context }) => ({
      type: 'table.deleteConfirmed' as const,
      libraryId: context.confirming?.libraryId ?? '',
    })),
  },
  guards: {
    isConfirming: ({ context }) => context.confirming !== null,
  },
}).createMachine({
  id: 'documentsTable',
  context: INITIAL_CONTEXT,
  on: {
    'table.search': { actions: { type: 'search', params: ({ event }) => event } },
    'table.filter': { actions: { type: 'filter', params: ({ event }) => event } },
    'table.sort': {
      actions: { type: 'sort', params: ({ event }) => event },
      description: 'The same column again turns the order round; another starts in its own direction.',
    },
    'table.page': { actions: { type: 'turnPage', params: ({ event }) => event } },
    'table.openMenu': { actions: { type: 'openMenu', params: ({ event }) => event } },
    'table.closeMenu': { actions: 'closeMenu' },
    'table.askDelete': {
      actions: { type: 'askDelete', params: ({ event }) => event },
      description: 'Deleting takes the passages out of the library: it asks first.',
    },
    'table.cancelDelete': { actions: 'forgetDelete' },
    'table.confirmDelete': { guard: 'isConfirming', actions: ['announceDelete', 'forgetDelete'] },
    'table.reset': {
      actions: 'reset',
      description: 'Documents came on screen again: its search, filters, sort and page start afresh.',
    },
  },
})
