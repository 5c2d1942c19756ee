import { useState } from 'react'
import { Redirect } from 'wouter'
import { dashboardMachine } from '#machines/dashboard/dashboard-machine.ts'
import { ChatProvider } from '#src/features/chat/chat-provider.tsx'
import { UploadProvider } from '#src/features/chat/upload-provider.tsx'
import { DriveProvider } from '#src/features/drive/drive-provider.tsx'
import { useAppDeps } from '#src/lib/app-deps.ts'
import { paths } from '#src/lib/paths.ts'
import { css } from '../../../styled-system/css'
import { DashboardActor } from './dashboard-actor.ts'
import { DashboardHeader } from './dashboard-header.tsx'
import { DashboardSidebar } from './dashboard-sidebar.tsx'
import { SectionOutlet } from './section-outlet.tsx'
import { useDashboard } from './use-dashboard.ts'
import {
  type DashboardRoute,
  useAddressFollowsChat,
  useDashboardRoute,
  useRouteTellsMachines,
} from './use-dashboard-route.ts'

const MAIN_ID = 'main-content'

/**
 * WCAG 2.4.1: the first stop of the Tab key jumps over the header and the sidebar. It moves the
 * focus itself instead of following `#main-content`, which would put a hash in the URL.
 */
function SkipLink() {
  const { section } = useDashboard()
  return (
    <a
      href={`#${MAIN_ID}`}
      onClick={(event) => {
        event.preventDefault()
        document.getElementById(MAIN_ID)?.focus()
      }}
      className={css({
        position: 'absolute',
        top: '2',
        left: '2',
        zIndex: '10',
        px: '4',
        py: '2',
        bg: 'surface',
        color: 'accent',
        fontWeight: 'medium',
        borderRadius: 'lg',
        boxShadow: 'lg',
        transform: 'translateY(-200%)',
        _focus: { transform: 'none' },
      })}
    >
      {section === 'chat' ? 'Skip to conversation' : 'Skip to main content'}
    </a>
  )
}

/**
 * product §2 Dashboard: header, sidebar of five sections, and the section its address names. One
 * route for every address under /dashboard, so moving between them never remounts it (the
 * conversations load once). Lazy-loaded.
 */
export function DashboardView() {
  const { inspect } = useAppDeps()
  const route = useDashboardRoute()
  // The section on screen from the first paint is the address's, not the machine's first state.
  const [snapshot] = useState(() => dashboardMachine.resolveState({ value: route?.section ?? 'chat' }))
  return (
    <DashboardActor.Provider options={{ inspect, snapshot }}>
      {/* Chat state outlives a section switch: the sidebar, Chat and History share it. */}
      <ChatProvider>
        {route ? <RouteToMachines route={route} /> : <Redirect to={paths.chat} replace />}
        {/* The Upload dialog opens from the chat and from the sidebar: one for the dashboard. */}
        <UploadProvider>
          <div
            className={css({
              // The shell fills the viewport and each part scrolls on its own: the chat keeps its
              // composer in view while the messages scroll.
              h: '100dvh',
              display: 'grid',
              gridTemplateRows: 'auto auto 1fr',
              // minmax(0, …): a column never grows past the window to fit its widest line, so at
              // 320 px (or 400 % zoom) nothing scrolls sideways and Logout stays on screen.
              gridTemplateColumns: 'minmax(0, 1fr)',
              md: { gridTemplateRows: 'auto 1fr', gridTemplateColumns: '16rem minmax(0, 1fr)' },
            })}
          >
            <SkipLink />
            <DashboardHeader />
            <DashboardSidebar />
            <main
              id={MAIN_ID}
              tabIndex={-1}
              className={css({
                _focusVisible: { outline: 'none' },
                minW: '0',
                minH: '0',
                overflowY: 'auto',
                px: { base: '4', md: '8' },
                py: { base: '6', md: '8' },
              })}
            >
              {/* Drive state outlives a section switch: Documents and Integrations share it. */}
              <DriveProvider>
                <SectionOutlet />
              </DriveProvider>
            </main>
          </div>
        </UploadProvider>
      </ChatProvider>
    </DashboardActor.Provider>
  )
}

/** The address tells the machines; the chat's own starts and closes replace the address. */
function RouteToMachines({ route }: { route: DashboardRoute }) {
  useRouteTellsMachines(route)
  useAddressFollowsChat(route)
  return null
}
