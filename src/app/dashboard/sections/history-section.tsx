import { HistoryView } from '#src/features/chat/history-view.tsx'
import { useDashboard } from '../use-dashboard.ts'

/** product §2 History view (history feature); opening a conversation switches to Chat. */
export function HistorySection() {
  const { openConversation } = useDashboard()
  return <HistoryView onOpen={openConversation} />
}
