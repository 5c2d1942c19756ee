/**
 * The window side of the drive machine: download tabs, alerts, the connect popup and messages
 * posted to this window. Kept out of the machine so its tests can pass fakes.
 */
import { DRIVE_CONNECT_PATH } from '#contracts/drive.ts'
import { safeExternalLink } from '#contracts/safe-link.ts'
import type { DriveDeps } from '#machines/drive/drive-types.ts'

/** A named window, so a second 'Connect Now' brings the same popup back instead of opening another. */
export const DRIVE_CONNECT_WINDOW = 'google-drive-connect'
const DRIVE_CONNECT_FEATURES = 'popup,width=520,height=640'

export type BrowserDriveEffects = Pick<DriveDeps, 'tabs' | 'alert' | 'openConnectWindow' | 'onWindowMessage'>

export function createBrowserDriveEffects(win: Window): BrowserDriveEffects {
  // Tabs opened blank in a Download click, waiting for their link.
  const pending = new Map<string, Window>()
  return {
    tabs: {
      open(tab) {
        const opened = win.open('', '_blank')
        if (!opened) return
        // The tab will show a Drive page: it gets no handle back to this one (reverse tabnabbing).
        opened.opener = null
        pending.set(tab, opened)
      },
      show(tab, link) {
        const opened = pending.get(tab)
        pending.delete(tab)
        // Checked again where it is opened: a non-https link never reaches a window.
        const url = safeExternalLink(link)
        if (url === null) {
          opened?.close()
          return
        }
        if (opened && !opened.closed) opened.location.href = url
        // The blank tab was blocked or closed meanwhile: try once more (may be blocked too).
        else win.open(url, '_blank', 'noopener,noreferrer')
      },
      close(tab) {
        pending.get(tab)?.close()
        pending.delete(tab)
      },
    },
    alert: (message) => win.alert(message),
    openConnectWindow() {
      win.open(DRIVE_CONNECT_PATH, DRIVE_CONNECT_WINDOW, DRIVE_CONNECT_FEATURES)
    },
    onWindowMessage(listener) {
      const onMessage = (event: MessageEvent) => listener({ origin: event.origin, data: event.data })
      win.addEventListener('message', onMessage)
      return () => win.removeEventListener('message', onMessage)
    },
  }
}
