import { useSyncExternalStore } from 'react'

/** Below Panda's `md` breakpoint (768 px): the phone layout. */
export const PHONE_QUERY = '(max-width: 767.98px)'

const hasMatchMedia = () => typeof window !== 'undefined' && typeof window.matchMedia === 'function'

/**
 * Whether a media query matches now, following it as the window changes. For what CSS alone cannot
 * do: a different set of controls, not the same ones drawn differently. Without matchMedia (jsdom)
 * nothing matches: the wide layout.
 */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      if (!hasMatchMedia()) return () => {}
      const list = window.matchMedia(query)
      list.addEventListener('change', onChange)
      return () => list.removeEventListener('change', onChange)
    },
    () => hasMatchMedia() && window.matchMedia(query).matches,
    () => false,
  )
}
