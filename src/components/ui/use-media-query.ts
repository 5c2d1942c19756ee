import { useCallback, useMemo, useSyncExternalStore } from 'react'

/** Below Panda's `md` breakpoint (768 px): the phone layout. */
export const PHONE_QUERY = '(max-width: 767.98px)'

const hasMatchMedia = () => typeof window !== 'undefined' && typeof window.matchMedia === 'function'

/**
 * Whether a media query matches now, following it as the window changes. For what CSS alone cannot
 * do: a different set of controls, not the same ones drawn differently. Without matchMedia (jsdom)
 * nothing matches: the wide layout.
 */
export function useMediaQuery(query: string): boolean {
  // One list per query for the component's life: matchMedia builds (and evaluates) a new one each
  // call, and an inline subscribe made React unsubscribe and subscribe again on every render.
  const list = useMemo(() => (hasMatchMedia() ? window.matchMedia(query) : null), [query])
  const subscribe = useCallback(
    (onChange: () => void) => {
      list?.addEventListener('change', onChange)
      return () => list?.removeEventListener('change', onChange)
    },
    [list],
  )
  return useSyncExternalStore(
    subscribe,
    () => list?.matches ?? false,
    () => false,
  )
}
