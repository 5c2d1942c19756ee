import { type ReactNode, useLayoutEffect, useState } from 'react'
import { useLocation } from 'wouter'
import { provideDashboardMachine } from '#machines/dashboard/dashboard-machine.ts'
import type { NavigateParams } from '#machines/dashboard/dashboard-types.ts'
import { useAuthOptions } from '#src/features/auth/use-auth-options.ts'
import { ChatActor } from '#src/features/chat/chat-actor.ts'
import { useChatLogic } from '#src/features/chat/chat-provider.tsx'
import { UploadProvider, useUploadLogic } from '#src/features/chat/upload-provider.tsx'
import { DocumentsActor } from '#src/features/documents/documents-actor.ts'
import { useDocumentsLogic } from '#src/features/documents/documents-provider.tsx'
import { DocumentsTableActor } from '#src/features/documents/documents-table-actor.ts'
import { DriveActor } from '#src/features/drive/drive-actor.ts'
import { useDriveLogic } from '#src/features/drive/drive-provider.tsx'
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
 * remounts it (the conversations load once). The wiring actor (machines/dashboard) runs the chat,
 * the Upload dialog, Drive, the documents (the library) and the Documents table as its children, wires them
 * together, and moves the address when the chat asks (D106, D112). Lazy-loaded.
 */
export function DashboardView() {
  const { inspect } = useAppDeps()
  const chat = useChatLogic()
  const upload = useUploadLogic()
  const drive = useDriveLogic()
  const documents = useDocumentsLogic()
  const [, navigate] = useLocation()
  const [logic] = useState(() =>
    provideDashboardMachine({
      chat,
      upload,
      drive: drive.logic,
      documents,
      navigate: (destination) => navigate(addressOf(destination), { replace: destination.replace }),
    }),
  )
  const screen = useDashboardScreen()
  return (
    <DashboardActor.Provider logic={logic} options={{ inspect, input: { drive: drive.input } }}>
      <ScreenContext value={screen}>
        <ChildrenOfDashboard>
          {screen ? <RouteToDashboard match={screen} /> : null}
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
                pt: { base: '3', md: '8' },
                pb: { base: '4', md: '8' },
              })}
            >
              <SectionOutlet />
            </main>
          </div>
        </ChildrenOfDashboard>
      </ScreenContext>
    </DashboardActor.Provider>
  )
}

/**
 * The wiring actor's children, for the features' hooks. Their state outlives a section switch: the
 * sidebar, Chat and History share the chat; Documents and Integrations share Drive. The Upload
 * dialog opens from the chat and from the sidebar: one for the dashboard.
 */
function ChildrenOfDashboard({ children }: { children: ReactNode }) {
  const chat = DashboardActor.useSelector((snapshot) => snapshot.children.chat)
  const upload = DashboardActor.useSelector((snapshot) => snapshot.children.upload)
  const drive = DashboardActor.useSelector((snapshot) => snapshot.children.drive)
  const documents = DashboardActor.useSelector((snapshot) => snapshot.children.documents)
  const table = DashboardActor.useSelector((snapshot) => snapshot.children.documentsTable)
  // Offered until the server says it has no Google (D133): the answer comes long before a click.
  const driveOffered = useAuthOptions()?.google !== false
  if (!chat || !upload || !drive || !documents || !table) return null
  return (
    <ChatActor.Provider actor={chat}>
      <DriveActor.Provider actor={drive}>
        <DocumentsActor.Provider actor={documents}>
          <DocumentsTableActor.Provider actor={table}>
            <UploadProvider actor={upload} driveOffered={driveOffered}>
              {children}
            </UploadProvider>
          </DocumentsTableActor.Provider>
        </DocumentsActor.Provider>
      </DriveActor.Provider>
    </ChatActor.Provider>
  )
}

/**
 * The address on screen, told to the wiring actor. A layout effect: the chat hears of the screen
 * the address names before the browser paints, so Back never shows the previous one for a frame.
 */
function RouteToDashboard({ match }: { match: ScreenMatch }) {
  const dashboard = DashboardActor.useActorRef()
  const [path] = useLocation()
  const { id: screen, section } = match.screen
  const conversationId = section === 'chat' ? (match.params.id ?? null) : null
  useLayoutEffect(() => {
    const route = {
      path: path === '/' ? paths.dashboard : `${paths.dashboard}${path}`,
      screen,
      section,
      conversationId,
    }
    dashboard.send({ type: 'dashboard.routed', route })
  }, [dashboard, path, screen, section, conversationId])
  return null
}
