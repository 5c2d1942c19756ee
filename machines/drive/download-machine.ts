/**
 * One click on a file's Download (product §2, §7, §8): a blank tab opens at once, the file is fetched
 * and the tab goes to its link (webContentLink, else webViewLink), or closes with an alert. Ends
 * there. The drive machine spawns one per click; the call, the tab, the alert and the logger come
 * from provideDownloadMachine(deps).
 */
import { fromPromise, setup } from 'xstate'
import type { DriveFile } from '#contracts/drive.ts'
import { safeExternalLink } from '#contracts/safe-link.ts'
import { actionNotProvided, type Logger, notProvided } from '#machines/shared/effects.ts'

/** product §8, word for word. */
export const DOWNLOAD_ALERTS = {
  noLink: 'Download link not available for this file',
  failed: 'Failed to download file',
} as const

/** `tab` names the tab this download opened, so the effect can find it again. */
export type DownloadInput = { fileId: string; email: string; tab: string }

/**
 * Browsers let a page open a tab only while handling the click: after the await the popup blocker
 * wins. So the tab opens blank in the click and is pointed at the link (or closed) later.
 */
export type DownloadTabs = {
  open: (tab: string) => void
  show: (tab: string, url: string) => void
  close: (tab: string) => void
}

export type DownloadDeps = {
  getFile: (fileId: string, email: string) => Promise<DriveFile>
  tabs: DownloadTabs
  alert: (message: string) => void
  log: Logger
}

/** The direct download link when Drive gives one (binary files), else the viewer page (Google Docs). */
export function downloadLinkOf(file: DriveFile): string | null {
  return safeExternalLink(file.webContentLink) ?? safeExternalLink(file.webViewLink)
}

export const downloadMachine = setup({
  types: { context: {} as DownloadInput, input: {} as DownloadInput },
  actors: {
    getFile: notProvided<DriveFile, { fileId: string; email: string }>('getFile'),
  },
  actions: {
    openTab: actionNotProvided<{ tab: string }>('openTab'),
    showInTab: actionNotProvided<{ tab: string; url: string }>('showInTab'),
    closeTab: actionNotProvided<{ tab: string }>('closeTab'),
    alert: actionNotProvided<{ message: string }>('alert'),
    logFailure: actionNotProvided<{ error: unknown }>('logFailure'),
  },
  guards: {
    hasLink: (_, params: { file: DriveFile }) => downloadLinkOf(params.file) !== null,
  },
}).createMachine({
  id: 'download',
  context: ({ input }) => input,
  initial: 'fetching',
  states: {
    fetching: {
      entry: { type: 'openTab', params: ({ context }) => ({ tab: context.tab }) },
      invoke: {
        src: 'getFile',
        input: ({ context }) => ({ fileId: context.fileId, email: context.email }),
        onDone: [
          {
            guard: { type: 'hasLink', params: ({ event }) => ({ file: event.output }) },
            target: 'done',
            actions: {
              type: 'showInTab',
              // The guard above has just checked that there is a link.
              params: ({ context, event }) => ({ tab: context.tab, url: downloadLinkOf(event.output) ?? '' }),
            },
          },
          {
            target: 'done',
            actions: [
              { type: 'closeTab', params: ({ context }) => ({ tab: context.tab }) },
              { type: 'alert', params: { message: DOWNLOAD_ALERTS.noLink } },
            ],
          },
        ],
        onError: {
          target: 'done',
          actions: [
            { type: 'closeTab', params: ({ context }) => ({ tab: context.tab }) },
            { type: 'logFailure', params: ({ event }) => ({ error: event.error }) },
            { type: 'alert', params: { message: DOWNLOAD_ALERTS.failed } },
          ],
        },
      },
    },
    done: { type: 'final' },
  },
})

export function provideDownloadMachine(deps: DownloadDeps) {
  return downloadMachine.provide({
    actors: { getFile: fromPromise(({ input }) => deps.getFile(input.fileId, input.email)) },
    actions: {
      openTab: (_, { tab }) => deps.tabs.open(tab),
      showInTab: (_, { tab, url }) => deps.tabs.show(tab, url),
      closeTab: (_, { tab }) => deps.tabs.close(tab),
      alert: (_, { message }) => deps.alert(message),
      logFailure: (_, { error }) => deps.log.error('Download failed', error),
    },
  })
}
