import { useLocation } from 'wouter'
import { HistoryView } from '#src/features/chat/history-view.tsx'
import { SharedLinks } from '#src/features/sharing/shared-links.tsx'
import { SharesProvider } from '#src/features/sharing/shares-provider.tsx'
import { conversationPath, fromRoot } from '#src/lib/paths.ts'

/**
 * product §2 History view (history feature); opening a conversation switches to Chat. Below it,
 * the conversations shared by a link, each to copy or stop sharing (sharing feature, D73).
 */
export function HistorySection() {
  const [, navigate] = useLocation()
  // Opening a conversation goes to its address, which shows it in Chat.
  const openConversation = (conversationId: string) => navigate(fromRoot(conversationPath(conversationId)))
  return (
    <>
      <HistoryView onOpen={openConversation} />
      <SharesProvider>
        <SharedLinks onOpen={openConversation} />
      </SharesProvider>
    </>
  )
}
