import { ChatProvider } from '#src/features/chat/chat-provider.tsx'
import { useConversationUrl } from '#src/features/chat/use-conversation-url.ts'
import { DriveProvider } from '#src/features/integrations/drive-provider.tsx'
import { useAppDeps } from '#src/lib/app-deps.ts'
import { css } from '../../../styled-system/css'
import { DashboardActor } from './dashboard-actor.ts'
import { DashboardHeader } from './dashboard-header.tsx'
import { DashboardSidebar } from './dashboard-sidebar.tsx'
import { SectionOutlet } from './section-outlet.tsx'

/** SPEC §2 Dashboard: header, sidebar of five sections, and the chosen section. Lazy-loaded. */
export function DashboardView() {
  const { inspect } = useAppDeps()
  return (
    <DashboardActor.Provider options={{ inspect }}>
      {/* Chat state outlives a section switch: the sidebar, Chat and History share it. */}
      <ChatProvider>
        <ConversationUrl />
        <div
          className={css({
            // The shell fills the viewport and each part scrolls on its own: the chat keeps its
            // composer in view while the messages scroll.
            h: '100dvh',
            display: 'grid',
            gridTemplateRows: 'auto auto 1fr',
            gridTemplateColumns: '1fr',
            md: { gridTemplateRows: 'auto 1fr', gridTemplateColumns: '16rem 1fr' },
          })}
        >
          <DashboardHeader />
          <DashboardSidebar />
          <main
            className={css({
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
      </ChatProvider>
    </DashboardActor.Provider>
  )
}

/** `/dashboard/c/{id}` and the open conversation move together (see useConversationUrl). */
function ConversationUrl() {
  useConversationUrl()
  return null
}
