import { EmptyState } from '#src/components/ui/empty-state.tsx'
import { HistoryIcon } from '#src/components/ui/icons.tsx'
import { SectionHeader } from '#src/components/ui/section-header.tsx'

/** SPEC §2 History view; the chat feature groups and lists the sessions here. */
export function HistorySection() {
  return (
    <section>
      <SectionHeader title="Conversation History" subtitle="View and manage your previous conversations" />
      <EmptyState icon={<HistoryIcon size={24} />} title="No conversations yet">
        Start chatting to see your conversation history here.
      </EmptyState>
    </section>
  )
}
