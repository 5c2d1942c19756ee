import { useState } from 'react'
import { SEARCH_MAX_LENGTH } from '#contracts/chat.ts'
import type { ConversationItem } from '#machines/chat/chat-types.ts'
import { Button } from '#src/components/ui/button.tsx'
import { css } from '../../../styled-system/css'

type ConversationSearchProps = {
  query: string
  hits: { conversation: ConversationItem; snippet: string }[] | null
  onSearch: (query: string) => void
  onOpen: (conversationId: string) => void
}

/** Search across my conversations' titles and messages; Enter searches, Clear goes back to the list. */
export function ConversationSearch({ query, hits, onSearch, onOpen }: ConversationSearchProps) {
  const [typed, setTyped] = useState(query)
  return (
    <section aria-label="Search conversations" className={css({ maxW: '3xl', mb: '6' })}>
      <form
        className={css({ display: 'flex', gap: '2' })}
        onSubmit={(event) => {
          event.preventDefault()
          onSearch(typed)
        }}
      >
        <input
          type="search"
          aria-label="Search conversations"
          placeholder="Search your conversations..."
          value={typed}
          maxLength={SEARCH_MAX_LENGTH}
          onChange={(event) => setTyped(event.target.value)}
          className={css({
            flex: '1',
            minW: '0',
            px: '3',
            py: '2',
            borderWidth: '1px',
            borderColor: 'border',
            borderRadius: 'lg',
            bg: 'surface',
          })}
        />
        <Button type="submit" variant="secondary">
          Search
        </Button>
        {query ? (
          <Button
            variant="ghost"
            onClick={() => {
              setTyped('')
              onSearch('')
            }}
          >
            Clear
          </Button>
        ) : null}
      </form>
      {query && hits !== null ? (
        hits.length === 0 ? (
          <p className={css({ mt: '3', color: 'muted', fontSize: 'sm' })}>
            No conversations match “{query}”.
          </p>
        ) : (
          <ul
            aria-label="Search results"
            className={css({ mt: '3', display: 'flex', flexDirection: 'column', gap: '2' })}
          >
            {hits.map(({ conversation, snippet }) => (
              <li key={conversation.id}>
                <button
                  type="button"
                  onClick={() => onOpen(conversation.id)}
                  className={css({
                    w: 'full',
                    textAlign: 'left',
                    px: '4',
                    py: '3',
                    bg: 'surface',
                    borderWidth: '1px',
                    borderColor: 'border',
                    borderRadius: 'xl',
                    cursor: 'pointer',
                  })}
                >
                  <span className={css({ display: 'block', fontWeight: 'medium', truncate: true })}>
                    {conversation.title}
                  </span>
                  {snippet ? (
                    <span className={css({ display: 'block', fontSize: 'sm', color: 'muted' })}>
                      {snippet}
                    </span>
                  ) : null}
                </button>
              </li>
            ))}
          </ul>
        )
      ) : null}
    </section>
  )
}
