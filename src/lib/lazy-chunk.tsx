/**
 * Code that loads on demand (the dashboard, the markdown renderer) and what can go wrong with it:
 * the request for its file fails (offline, a server restart), or the file is gone because a new
 * version was deployed while the tab was open (file names carry a hash of their contents).
 */
import { type ComponentType, lazy } from 'react'

// Chromium, Firefox, Safari; and Vite's preload helper when a chunk's stylesheet did not load.
const CHUNK_FAILURE =
  /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS/i

/** The error is a file of the app that did not load, not a bug in it. */
export function isChunkLoadError(error: unknown): boolean {
  return error instanceof Error && CHUNK_FAILURE.test(error.message)
}

/** The address of the file a chunk error names, if it names one. */
function chunkUrlOf(error: unknown): string | undefined {
  return error instanceof Error ? /\S*\/assets\/\S+?\.(?:js|css)/.exec(error.message)?.[0] : undefined
}

/**
 * True when the file named in a chunk error is no longer on the server (404): the page is from an
 * older build, and only a reload helps. False when it cannot be told (offline, or no file named).
 */
export async function isChunkGone(error: unknown): Promise<boolean> {
  const file = chunkUrlOf(error)
  if (!file) return false
  try {
    const response = await fetch(file, { method: 'HEAD', cache: 'no-store' })
    return response.status === 404
  } catch {
    return false
  }
}

const importByUrl = <M,>(url: string): Promise<M> => import(/* @vite-ignore */ url)

/**
 * A lazy component whose `retry()` makes the next render load it again. React.lazy keeps a failed
 * import for good, and so does the browser (a module that failed to fetch stays failed for that
 * URL), so a retry imports the file named in the error under a fresh query string; the modules it
 * imports are the ones already loaded. `importAgain` is the browser's import(), replaceable in tests.
 */
export function retryableLazy<M, P extends object>(
  load: () => Promise<M>,
  pick: (module: M) => ComponentType<P>,
  importAgain: (url: string) => Promise<M> = importByUrl,
) {
  let failedUrl: string | undefined
  let attempts = 0
  const make = () =>
    lazy(async () => {
      try {
        return {
          default: pick(failedUrl ? await importAgain(`${failedUrl}?retry=${attempts}`) : await load()),
        }
      } catch (error) {
        failedUrl ??= chunkUrlOf(error)
        throw error
      }
    })
  let Current = make()
  function Lazy(props: P) {
    return <Current {...props} />
  }
  return {
    Lazy,
    retry() {
      attempts += 1
      Current = make()
    },
  }
}
