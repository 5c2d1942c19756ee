/**
 * Google Drive in the dashboard (product §2 Documents and Integrations, §4, §7, §8): the file list and
 * the connection flag it implies, ingesting into the assistant, the connect window and its
 * "connected" message, and one download child per click. An ingest's start and end are emitted
 * (the library follows them). A listing refused with 503 asks whether this server has Google at
 * all; if not, Drive is `unavailable` for good (D133). Lives as long as the dashboard. Calls,
 * window effects and the logger come from provideDriveMachine(deps); input names the user.
 */
import { assertEvent, assign, emit, fromCallback, fromPromise, raise, setup, spawnChild } from 'xstate'
import { DRIVE_CONNECTED_MESSAGE, type DriveFile, type IngestReport } from '#contracts/drive.ts'
import { actionNotProvided, notProvided, statusOf } from '#machines/shared/effects.ts'
import { downloadMachine, provideDownloadMachine } from './download-machine.ts'
import {
  DRIVE_MESSAGES,
  type DriveContext,
  type DriveDeps,
  type DriveEmitted,
  type DriveEvent,
  type DriveInput,
  ingestFailureOutcome,
  listFailureReason,
} from './drive-types.ts'

export const driveMachine = setup({
  types: {
    context: {} as DriveContext,
    events: {} as DriveEvent,
    input: {} as DriveInput,
    emitted: {} as DriveEmitted,
  },
  actors: {
    listFiles: notProvided<DriveFile[], { email: string }>('listFiles'),
    driveConfigured: notProvided<boolean>('driveConfigured'),
    ingestDocuments: notProvided<IngestReport, { email: string }>('ingestDocuments'),
    disconnect: notProvided<unknown, { documents: 'keep' | 'remove' }>('disconnect'),
    windowMessages: fromCallback<DriveEvent>(() => {
      throw new Error(
        'The "windowMessages" effect was not provided: build the machine with provideDriveMachine(deps).',
      )
    }),
    download: downloadMachine,
  },
  actions: {
    storeFiles: assign((_, params: { files: DriveFile[] }) => ({
      files: params.files,
      connected: true,
      loadFailure: null,
    })),
    storeLoadFailure: assign((_, params: { error: unknown }) => ({
      files: null,
      connected: false,
      loadFailure: { reason: listFailureReason(params.error) },
    })),
    clearLoadFailure: assign({ loadFailure: null }),
    storeUnavailable: assign({ files: null, connected: false, loadFailure: null, configured: false }),
    storeIngestReport: assign((_, params: { report: IngestReport }) => ({
      ingestOutcome: {
        kind: 'done',
        message: params.report.message.trim() || DRIVE_MESSAGES.ingested,
      } as const,
    })),
    storeIngestFailure: assign((_, params: { error: unknown }) => ({
      ingestOutcome: ingestFailureOutcome(params.error),
    })),
    clearIngestOutcome: assign({ ingestOutcome: null }),
    forgetConnection: assign({ files: null, connected: false, disconnectFailure: null }),
    storeDisconnectFailure: assign({ disconnectFailure: DRIVE_MESSAGES.disconnectFailed }),
    clearDisconnectFailure: assign({ disconnectFailure: null }),
    countDownload: assign(({ context }) => ({ downloads: context.downloads + 1 })),
    announceIngestStarted: emit({ type: 'drive.ingestStarted' as const }),
    announceIngestFinished: emit({ type: 'drive.ingestFinished' as const }),
    openConnectWindow: actionNotProvided('openConnectWindow'),
    logFailure: actionNotProvided<{ what: string; error: unknown }>('logFailure'),
  },
  guards: {
    isUnavailable: (_, params: { error: unknown }) => statusOf(params.error) === 503,
    isFalse: (_, params: { value: boolean }) => !params.value,
    isConnectedMessage: ({ context, event }) =>
      event.type === 'drive.messageReceived' &&
      event.origin === context.origin &&
      event.data === DRIVE_CONNECTED_MESSAGE,
  },
}).createMachine({
  id: 'drive',
  context: ({ input }) => ({
    ...input,
    files: null,
    connected: false,
    loadFailure: null,
    configured: true,
    ingestOutcome: null,
    disconnectFailure: null,
    downloads: 0,
  }),
  type: 'parallel',
  invoke: { src: 'windowMessages' },
  on: {
    'drive.connect': { actions: 'openConnectWindow' },
    'drive.download': {
      actions: [
        'countDownload',
        spawnChild('download', {
          input: ({ context, event }) => {
            assertEvent(event, 'drive.download')
            return { fileId: event.fileId, email: context.email, tab: `download-${context.downloads}` }
          },
        }),
      ],
      description: 'One child per click, so two downloads can be under way; it opens its tab in this click.',
    },
  },
  states: {
    files: {
      initial: 'unlisted',
      on: {
        'drive.messageReceived': {
          guard: 'isConnectedMessage',
          target: '.listing',
          reenter: true,
          description:
            'The connect window says Drive is now connected: list again, restarting a listing under way ' +
            '(it began before the connection and may fail).',
        },
      },
      states: {
        unlisted: {
          on: { 'drive.list': 'listing' },
        },
        listing: {
          tags: 'listing',
          entry: 'clearLoadFailure',
          invoke: {
            src: 'listFiles',
            input: ({ context }) => ({ email: context.email }),
            onDone: {
              target: 'listed',
              actions: { type: 'storeFiles', params: ({ event }) => ({ files: event.output }) },
            },
            onError: [
              {
                guard: { type: 'isUnavailable', params: ({ event }) => ({ error: event.error }) },
                target: 'checkingServer',
                actions: { type: 'storeLoadFailure', params: ({ event }) => ({ error: event.error }) },
                description:
                  'A 503 is Google busy or unreachable, or a server without Google at all: ask which (D133).',
              },
              {
                target: 'failed',
                actions: [
                  { type: 'storeLoadFailure', params: ({ event }) => ({ error: event.error }) },
                  {
                    type: 'logFailure',
                    params: ({ event }) => ({ what: 'Listing Drive files', error: event.error }),
                  },
                ],
              },
            ],
          },
          description: "'drive.list' is ignored meanwhile: the answer under way is just as fresh.",
        },
        checkingServer: {
          tags: 'listing',
          invoke: {
            src: 'driveConfigured',
            onDone: [
              {
                guard: { type: 'isFalse', params: ({ event }) => ({ value: event.output }) },
                target: 'unavailable',
                actions: 'storeUnavailable',
              },
              { target: 'failed' },
            ],
            onError: 'failed',
          },
        },
        unavailable: {
          tags: 'unavailable',
          description:
            'This server has no Google OAuth client: no listing, connecting or ingesting can work until its operator sets one.',
        },
        listed: {
          on: { 'drive.list': 'listing' },
        },
        failed: {
          on: { 'drive.list': 'listing' },
        },
      },
    },
    disconnect: {
      initial: 'idle',
      states: {
        idle: {
          on: { 'drive.disconnectAsk': { target: 'confirming', actions: 'clearDisconnectFailure' } },
        },
        confirming: {
          tags: 'confirmingDisconnect',
          on: {
            'drive.disconnectCancel': 'idle',
            'drive.disconnect': 'disconnecting',
          },
          description: 'The person chooses whether the documents that came from Drive stay in the library.',
        },
        disconnecting: {
          tags: 'disconnecting',
          invoke: {
            src: 'disconnect',
            input: ({ event }) => {
              assertEvent(event, 'drive.disconnect')
              return { documents: event.documents }
            },
            onDone: { target: 'idle', actions: ['forgetConnection', raise({ type: 'drive.list' })] },
            onError: {
              target: 'idle',
              actions: [
                'storeDisconnectFailure',
                {
                  type: 'logFailure',
                  params: ({ event }) => ({ what: 'Disconnecting Drive', error: event.error }),
                },
              ],
            },
          },
        },
      },
    },
    ingest: {
      initial: 'idle',
      states: {
        idle: {
          on: { 'drive.ingest': 'ingesting' },
        },
        ingesting: {
          tags: 'ingesting',
          entry: ['clearIngestOutcome', 'announceIngestStarted'],
          invoke: {
            src: 'ingestDocuments',
            input: ({ context }) => ({ email: context.email }),
            onDone: {
              target: 'idle',
              actions: [
                { type: 'storeIngestReport', params: ({ event }) => ({ report: event.output }) },
                'announceIngestFinished',
                raise({ type: 'drive.list' }),
              ],
              description: 'product §4: busy, then the message is shown, then the file list is reloaded.',
            },
            onError: {
              target: 'idle',
              actions: [
                { type: 'storeIngestFailure', params: ({ event }) => ({ error: event.error }) },
                'announceIngestFinished',
                {
                  type: 'logFailure',
                  params: ({ event }) => ({ what: 'Ingesting Drive documents', error: event.error }),
                },
              ],
            },
          },
        },
      },
    },
  },
})

export function provideDriveMachine(deps: DriveDeps) {
  return driveMachine.provide({
    actors: {
      listFiles: fromPromise(({ input }) => deps.listFiles(input.email)),
      driveConfigured: fromPromise(() => deps.driveConfigured()),
      ingestDocuments: fromPromise(({ input }) => deps.ingestDocuments(input.email)),
      disconnect: fromPromise(({ input }) => deps.disconnect(input.documents)),
      windowMessages: fromCallback<DriveEvent>(({ sendBack }) =>
        deps.onWindowMessage(({ origin, data }) => sendBack({ type: 'drive.messageReceived', origin, data })),
      ),
      download: provideDownloadMachine(deps),
    },
    actions: {
      openConnectWindow: () => deps.openConnectWindow(),
      logFailure: (_, { what, error }) => deps.log.error(`${what} failed`, error),
    },
  })
}
