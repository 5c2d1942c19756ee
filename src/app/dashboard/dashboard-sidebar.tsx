import type { ReactNode } from 'react'
import { Link } from 'wouter'
import type { DashboardSection } from '#machines/dashboard/dashboard-machine.ts'
import { AppsIcon, ChatIcon, DocumentIcon, HistoryIcon, SettingsIcon } from '#src/components/ui/icons.tsx'
import { paths } from '#src/lib/paths.ts'
import { css } from '../../../styled-system/css'
import { SidebarExtras } from './sidebar-extras.tsx'
import { useDashboard } from './use-dashboard.ts'

const SECTIONS: ReadonlyArray<{ id: DashboardSection; label: string; icon: ReactNode }> = [
  { id: 'chat', label: 'Chat with Docs', icon: <ChatIcon /> },
  { id: 'docs', label: 'Documents', icon: <DocumentIcon /> },
  { id: 'integrations', label: 'Integrations', icon: <AppsIcon /> },
  { id: 'history', label: 'Conversation History', icon: <HistoryIcon /> },
  { id: 'settings', label: 'Settings', icon: <SettingsIcon /> },
]

/** What each section is called: its sidebar entry, its heading and its document title. */
export const SECTION_LABELS: Readonly<Record<DashboardSection, string>> = Object.fromEntries(
  SECTIONS.map(({ id, label }) => [id, label]),
) as Record<DashboardSection, string>

const itemStyle = css({
  display: 'flex',
  alignItems: 'center',
  gap: '3',
  w: 'full',
  px: '3',
  py: '2',
  borderRadius: 'lg',
  fontSize: 'sm',
  fontWeight: 'medium',
  color: 'muted',
  whiteSpace: 'nowrap',
  textDecoration: 'none',
  transition: 'background 0.15s, color 0.15s',
  _hover: { bg: 'surfaceMuted', color: 'text' },
  '&[aria-current=page]': {
    bg: 'brand.50',
    color: 'brand.700',
    _hover: { bg: 'brand.100', color: 'brand.700' },
  },
})

/**
 * The five sections of product §2, each a link to its address (open it in a new tab, bookmark it); a
 * top strip on narrow screens, a column beside the content on wide ones.
 */
export function DashboardSidebar() {
  const { section, isShown, startNewChat, show } = useDashboard()
  return (
    <aside
      className={css({
        bg: 'surface',
        borderColor: 'border',
        borderBottomWidth: { base: '1px', md: '0' },
        borderRightWidth: { base: '0', md: '1px' },
        p: { base: '2', md: '4' },
        minW: '0',
        minH: '0',
        overflowY: { md: 'auto' },
      })}
    >
      <nav aria-label="Dashboard sections">
        <ul
          className={css({
            display: 'flex',
            flexDirection: { base: 'row', md: 'column' },
            gap: '1',
            overflowX: { base: 'auto', md: 'visible' },
          })}
        >
          {SECTIONS.map(({ id, label, icon }) => (
            <li key={id} className={css({ flexShrink: 0 })}>
              <Link
                href={paths[id]}
                replace={isShown(id)}
                className={itemStyle}
                aria-current={section === id ? 'page' : undefined}
                onClick={id === 'chat' ? startNewChat : undefined}
              >
                {icon}
                {label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {/* A new section starts with its extras folded away again (on phones). */}
      <SidebarExtras key={section} section={section} onOpenIntegrations={() => show('integrations')} />
    </aside>
  )
}
