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

/**
 * True when the file named in a chunk error is no longer on the server (404): the page is from an
 * older build, and only a reload helps. False when it cannot be told (offline, or no file named).
 */
export async function isChunkGone(error: unknown): Promise<boolean> {
  const file = error instanceof Error ? /\S*\/assets\/\S+?\.(?:js|css)/.exec(error.message)?.[0] : undefined
  if (!file) return false
  try {
    const response = await fetch(file, { method: 'HEAD', cache: 'no-store' })
    return response.status === 404
  } catch {
    return false
  }
}

/**
 * React.lazy keeps a failed import for good; `retry()` makes the next render import again, so a
 * "Try again" after a network failure can succeed.
 */
export function retryableLazy<P extends object>(load: () => Promise<ComponentType<P>>) {
  const make = () => lazy(async () => ({ default: await load() }))
  let Current = make()
  function Lazy(props: P) {
    return <Current {...props} />
  }
  return {
    Lazy,
    retry() {
      Current = make()
    },
  }
}
