import { groupByAge } from '#machines/chat/chat-time.ts'
import { HistoryIcon } from '#src/components/ui/dashboard-icons.tsx'
import { EmptyState } from '#src/components/ui/empty-state.tsx'
import { SectionHeader } from '#src/components/ui/section-header.tsx'
import { useConversations } from '#src/features/chat/use-chat.ts'
import { css } from '../../../styled-system/css'
import { ConversationSearch, matchesOf, SearchResults } from './conversation-search.tsx'
import { HistoryItem } from './history-item.tsx'

/**
 * product §2 History view: conversations under 'Today', 'N days ago' or their date; a search typed
 * above replaces them with its matches. Opening one is
 * the dashboard's business (it also switches to Chat), so it comes in as `onOpen`.
 */
export function HistoryView({ onOpen }: { onOpen: (conversationId: string) => void }) {
  const {
    conversations,
    loaded,
    deletingConversationIds,
    remove,
    searchQuery,
    searchHits,
    searching,
    search,
  } = useConversations()
  const groups = searchQuery ? [] : groupByAge(conversations, new Date())
  return (
    <section aria-busy={!loaded || undefined}>
      <SectionHeader title="Conversation History" subtitle="View and manage your previous conversations" />
      {conversations.length > 0 ? <ConversationSearch query={searchQuery} onSearch={search} /> : null}
      {searchQuery ? (
        // While a search is typed the list is its matches (the titles and last messages at once,
        // with what the server found in every message once it answers).
        <SearchResults
          query={searchQuery}
          hits={matchesOf(conversations, searchQuery, searchHits)}
          searching={searching}
          onOpen={onOpen}
        />
      ) : null}
      {loaded && conversations.length === 0 ? (
        <EmptyState icon={<HistoryIcon size={24} />} title="No conversations yet">
          Start chatting to see your conversation history here.
        </EmptyState>
      ) : null}
      <div className={css({ display: 'flex', flexDirection: 'column', gap: '6', maxW: '3xl' })}>
        {groups.map((group) => (
          <section key={group.label} aria-label={group.label}>
            <h2 className={css({ fontSize: 'sm', fontWeight: 'semibold', color: 'muted', mb: '2' })}>
              {group.label}
            </h2>
            <ul className={css({ display: 'flex', flexDirection: 'column', gap: '2' })}>
              {group.items.map((conversation) => (
                <HistoryItem
                  key={conversation.id}
                  conversation={conversation}
                  deleting={deletingConversationIds.includes(conversation.id)}
                  onOpen={onOpen}
                  onDelete={remove}
                />
              ))}
            </ul>
          </section>
        ))}
      </div>
    </section>
  )
}
