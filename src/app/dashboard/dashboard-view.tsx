import { type ReactNode, useLayoutEffect, useState } from 'react'
import { useLocation } from 'wouter'
import { type NavigateParams, provideDashboardMachine } from '#machines/dashboard/dashboard-machine.ts'
import { ChatActor } from '#src/features/chat/chat-actor.ts'
import { useChatLogic } from '#src/features/chat/chat-provider.tsx'
import { UploadProvider } from '#src/features/chat/upload-provider.tsx'
import { DriveProvider } from '#src/features/drive/drive-provider.tsx'
import { useAppDeps } from '#src/lib/app-deps.ts'
import { conversationPath, fromRoot, paths } from '#src/lib/paths.ts'
import { css } from '../../../styled-system/css'
import { DashboardActor } from './dashboard-actor.ts'
import { DashboardHeader } from './dashboard-header.tsx'
import { useDashboardScreen } from './dashboard-screens.tsx'
import { DashboardSidebar } from './dashboard-sidebar.tsx'
import { ScreenContext, type ScreenMatch } from './screen-match.ts'
import { SectionOutlet } from './section-outlet.tsx'
import { useDashboard } from './use-dashboard.ts'

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

/** Where the wiring actor sends the person, as an address (wouter's absolute form: D106). */
function addressOf(destination: NavigateParams): string {
  switch (destination.to) {
    case 'conversation':
      return fromRoot(conversationPath(destination.conversationId))
    case 'newChat':
      return fromRoot(paths.chat)
    case 'address':
      return fromRoot(destination.path)
  }
}

/**
 * product §2 Dashboard: header, sidebar of sections, and the screen its address names (the route
 * table, dashboard-screens.tsx), on the nested routes under /dashboard: moving between them never
 * remounts it (the conversations load once). The wiring actor (machines/dashboard) runs the chat
 * as its child and moves the address when the chat asks. Lazy-loaded.
 */
export function DashboardView() {
  const { inspect } = useAppDeps()
  const chat = useChatLogic()
  const [, navigate] = useLocation()
  const [logic] = useState(() =>
    provideDashboardMachine({
      chat,
      navigate: (destination) => navigate(addressOf(destination), { replace: destination.replace }),
    }),
  )
  const screen = useDashboardScreen()
  return (
    <DashboardActor.Provider logic={logic} options={{ inspect }}>
      <ScreenContext value={screen}>
        {/* Chat state outlives a section switch: the sidebar, Chat and History share it. */}
        <ChatOfDashboard>
          {screen ? <RouteToDashboard match={screen} /> : null}
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
        </ChatOfDashboard>
      </ScreenContext>
    </DashboardActor.Provider>
  )
}

/** The chat, the wiring actor's child, for the chat feature's hooks. */
function ChatOfDashboard({ children }: { children: ReactNode }) {
  const chat = DashboardActor.useSelector((snapshot) => snapshot.children.chat)
  return chat ? <ChatActor.Provider actor={chat}>{children}</ChatActor.Provider> : null
}

/**
 * The address on screen, told to the wiring actor. A layout effect: the chat hears of the screen
 * the address names before the browser paints, so Back never shows the previous one for a frame.
 */
function RouteToDashboard({ match }: { match: ScreenMatch }) {
  const dashboard = DashboardActor.useActorRef()
  const [path] = useLocation()
  const { section } = match.screen
  const conversationId = section === 'chat' ? (match.params.id ?? null) : null
  useLayoutEffect(() => {
    const route = {
      path: path === '/' ? paths.dashboard : `${paths.dashboard}${path}`,
      section,
      conversationId,
    }
    dashboard.send({ type: 'dashboard.routed', route })
  }, [dashboard, path, section, conversationId])
  return null
}
