/**
 * The person's light/dark choice (D136), kept in this browser (localStorage) and shown as
 * `data-theme` on <html>, which panda.config.ts's dark and light conditions read. 'system' removes
 * the attribute: the colours then follow prefers-color-scheme. main.tsx applies it before the first
 * paint, on every page (sign-in included), so a dark choice never flashes light.
 */
import type { Theme } from '#machines/appearance/appearance-machine.ts'

export const THEME_KEY = 'docchat.theme'

/** The stored choice; 'system' when there is none, it is unreadable, or storage is off. */
export function readTheme(): Theme {
  try {
    const stored = localStorage.getItem(THEME_KEY)
    return stored === 'light' || stored === 'dark' ? stored : 'system'
  } catch {
    return 'system'
  }
}

export function applyTheme(theme: Theme): void {
  const root = document.documentElement
  if (theme === 'system') root.removeAttribute('data-theme')
  else root.dataset.theme = theme
}

/** Keeps the choice for next time (a storage that refuses only loses the memory) and applies it. */
export function saveTheme(theme: Theme): void {
  try {
    if (theme === 'system') localStorage.removeItem(THEME_KEY)
    else localStorage.setItem(THEME_KEY, theme)
  } catch {
    // Private mode or storage full: the choice still holds for this page.
  }
  applyTheme(theme)
}
