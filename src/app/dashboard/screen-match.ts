/**
 * What a dashboard screen is (an entry of the route table, dashboard-screens.tsx: D106), which one
 * an address shows, and the one on show, for the views inside the dashboard. Apart from the
 * table, which imports the sections: a section's own views read the screen on show from here.
 */
import { type ComponentType, createContext, type ReactNode, use } from 'react'
import { matchRoute, type Parser, useParams } from 'wouter'

export type DashboardScreen = {
  /** Its name: a sidebar entry's is its section's ('chat', 'documents', …). */
  id: string
  /** Where it is, under /dashboard: a wouter pattern. */
  path: string
  /** Also what /dashboard itself shows (product §2: sign-in lands on the chat). */
  index?: boolean
  /**
   * The sidebar entry lit while it is on screen (its id): its own for an entry of the sidebar, the
   * section it belongs to for a screen reached by a link (a conversation, a document).
   */
  section: string
  /** What it is called: its sidebar entry, and in the log its error boundary's area. */
  label: string
  /** The area its error boundary names in the log, when not 'The {label} section'. */
  area?: string
  icon?: ReactNode
  /** Listed in the sidebar, in the table's order. */
  inSidebar: boolean
  /** The window's title; null leaves it to the screen (the viewer names its document). */
  title: string | null
  /**
   * The main area. Sections load with the dashboard's file, never /login's; a heavy one loads
   * its own file on demand (the document section does: the viewer and pdf.js).
   */
  Section: ComponentType
  /** Below the sidebar's entries while the section is on screen (product §2 sidebar extras). */
  Extras?: ComponentType
  /**
   * What keeps the screen mounted: screens with the same key are one screen at several addresses
   * (a new chat and its conversations). Its section when not given.
   */
  key?: (params: Record<string, string>) => string
}

export type ScreenMatch = {
  screen: DashboardScreen
  /** The pattern that matched: the screen's path, or '/' for /dashboard itself. */
  pattern: string
  /** The path's parameters, decoded (`/c/a%20b` gives `{ id: 'a b' }`). */
  params: Record<string, string>
  /** What keeps it mounted (DashboardScreen.key). */
  key: string
}

// The addresses are matched as written: /dashboard/Chat names no screen, as before D106 (wouter's
// own patterns ignore case).
const exactCase =
  (parser: Parser): Parser =>
  (route, loose) => {
    const { pattern, keys } = parser(route, loose)
    return { keys, pattern: pattern instanceof RegExp ? new RegExp(pattern.source) : pattern }
  }

/**
 * The screen an address under /dashboard shows (`path` relative to it), or null when it names
 * none (an unknown section, or a parameter that does not decode).
 */
export function screenAt(
  screens: readonly DashboardScreen[],
  path: string,
  parser: Parser,
): ScreenMatch | null {
  const exact = exactCase(parser)
  for (const screen of screens) {
    const pattern = screen.index && path === '/' ? '/' : screen.path
    const [matches, raw] = matchRoute(exact, pattern, path)
    if (!matches) continue
    const params = decoded(raw ?? {})
    if (!params) return null
    return { screen, pattern, params, key: screen.key?.(params) ?? screen.section }
  }
  return null
}

function decoded(raw: Record<string, string | undefined>): Record<string, string> | null {
  const params: Record<string, string> = {}
  try {
    for (const [name, value] of Object.entries(raw)) {
      if (value !== undefined && !/^\d+$/.test(name)) params[name] = decodeURIComponent(value)
    }
  } catch {
    return null
  }
  return params
}

/** The screen on show; DashboardView provides it. */
export const ScreenContext = createContext<ScreenMatch | null>(null)

export function useScreen(): ScreenMatch | null {
  return use(ScreenContext)
}

/** A parameter of the screen's path, decoded: `useParams().id` of `/documents/a%20b` is `a b`. */
export function useScreenParam(name: string): string | null {
  const raw = useParams()[name]
  if (raw === undefined) return null
  try {
    return decodeURIComponent(raw)
  } catch {
    return null
  }
}
