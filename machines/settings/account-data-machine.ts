/**
 * "Your data" in Settings (D78): the account is read first (whether it has a password decides how
 * deletion is confirmed); then export ('account.export': the file is handed to `saveFile`) and
 * deletion ('account.delete' with the password or the email typed again: `deleted`, and the app
 * signs the person out to /login). A failure leaves `ready` with a sentence and nothing deleted.
 */
import { assertEvent, assign, fromPromise, setup } from 'xstate'
import type { Account, AccountExport, DeleteAccountRequest } from '#contracts/account.ts'
import { actionNotProvided, notProvided, serverSentence } from '#machines/shared/effects.ts'

export const ACCOUNT_DATA_ERRORS = {
  load: 'Could not load your account.',
  export: 'Could not export your data. Try again.',
  delete: 'Could not delete your account. Nothing was deleted; try again.',
} as const

export type AccountDataContext = { account: Account | null; error: string | null }
export type AccountDataEvent =
  | { type: 'account.export' }
  | { type: 'account.delete'; confirmation: DeleteAccountRequest }
  | { type: 'account.retry' }
export type AccountDataDeps = {
  account: () => Promise<Account>
  exportAccount: () => Promise<AccountExport>
  deleteAccount: (confirmation: DeleteAccountRequest) => Promise<void>
  saveFile: (data: AccountExport) => void
  onDeleted: () => void
}

const fail = (fallback: string) => ({
  target: 'ready' as const,
  actions: {
    type: 'storeError' as const,
    params: ({ event }: { event: { error: unknown } }) => ({ error: event.error, fallback }),
  },
})

export const accountDataMachine = setup({
  types: { context: {} as AccountDataContext, events: {} as AccountDataEvent },
  actors: {
    loadAccount: notProvided<Account>('loadAccount'),
    exportAccount: notProvided<AccountExport>('exportAccount'),
    deleteAccount: notProvided<void, DeleteAccountRequest>('deleteAccount'),
  },
  actions: {
    storeAccount: assign((_, params: { account: Account }) => ({ account: params.account })),
    clearError: assign({ error: null }),
    storeError: assign((_, params: { error: unknown; fallback: string }) => ({
      error: serverSentence(params.error, params.fallback),
    })),
    saveFile: actionNotProvided<{ data: AccountExport }>('saveFile'),
    notifyDeleted: actionNotProvided('notifyDeleted'),
  },
}).createMachine({
  id: 'accountData',
  context: { account: null, error: null },
  initial: 'loading',
  states: {
    loading: {
      tags: 'loading',
      invoke: {
        src: 'loadAccount',
        onDone: {
          target: 'ready',
          actions: { type: 'storeAccount', params: ({ event }) => ({ account: event.output }) },
        },
        onError: {
          target: 'failed',
          actions: {
            type: 'storeError',
            params: ({ event }) => ({ error: event.error, fallback: ACCOUNT_DATA_ERRORS.load }),
          },
        },
      },
    },
    failed: { on: { 'account.retry': { target: 'loading', actions: 'clearError' } } },
    ready: {
      on: {
        'account.export': { target: 'exporting', actions: 'clearError' },
        'account.delete': { target: 'deleting', actions: 'clearError' },
      },
    },
    exporting: {
      tags: ['busy', 'exporting'],
      invoke: {
        src: 'exportAccount',
        onDone: {
          target: 'ready',
          actions: { type: 'saveFile', params: ({ event }) => ({ data: event.output }) },
        },
        onError: fail(ACCOUNT_DATA_ERRORS.export),
      },
    },
    deleting: {
      tags: ['busy', 'deleting'],
      invoke: {
        src: 'deleteAccount',
        input: ({ event }) => {
          assertEvent(event, 'account.delete')
          return event.confirmation
        },
        onDone: { target: 'deleted', actions: 'notifyDeleted' },
        onError: fail(ACCOUNT_DATA_ERRORS.delete),
      },
    },
    deleted: { type: 'final' },
  },
})

export function provideAccountDataMachine(deps: AccountDataDeps) {
  return accountDataMachine.provide({
    actors: {
      loadAccount: fromPromise(() => deps.account()),
      exportAccount: fromPromise(() => deps.exportAccount()),
      deleteAccount: fromPromise(({ input }) => deps.deleteAccount(input)),
    },
    actions: {
      saveFile: (_, { data }) => deps.saveFile(data),
      notifyDeleted: () => deps.onDeleted(),
    },
  })
}
