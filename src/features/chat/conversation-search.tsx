import { Fragment, useState } from 'react'
import { SEARCH_MAX_LENGTH } from '#contracts/chat.ts'
import type { ConversationItem } from '#machines/chat/chat-types.ts'
import { Button } from '#src/components/ui/button.tsx'
import { card } from '#src/theme/card.ts'
import { css, cx } from '../../../styled-system/css'

type Hit = { conversation: ConversationItem; snippet: string }

type ConversationSearchProps = {
  query: string
  onSearch: (query: string) => void
}

/**
 * The search box above History's list: it searches as the person types (the chat machine waits
 * for a pause); Clear goes back to the whole list. The list itself is `SearchResults`.
 */
export function ConversationSearch({ query, onSearch }: ConversationSearchProps) {
  const [typed, setTyped] = useState(query)
  const type = (text: string) => {
    setTyped(text)
    onSearch(text)
  }
  return (
    <search aria-label="Search conversations" className={css({ maxW: '3xl', mb: '6' })}>
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
          onChange={(event) => type(event.target.value)}
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
        {typed ? (
          <Button variant="ghost" onClick={() => type('')}>
            Clear
          </Button>
        ) : null}
      </form>
    </search>
  )
}

/**
 * What History lists for a query: the server's hits (words in any message, stemmed) together with
 * the conversations whose title or last message contain what was typed, so a word half typed
 * ("budg") already finds them; newest first, each once, the server's passage preferred.
 */
export function matchesOf(
  conversations: readonly ConversationItem[],
  query: string,
  hits: Hit[] | null,
): Hit[] {
  const needle = query.toLowerCase()
  const found = new Map((hits ?? []).map((hit) => [hit.conversation.id, hit]))
  for (const conversation of conversations) {
    if (found.has(conversation.id)) continue
    if (
      conversation.title.toLowerCase().includes(needle) ||
      conversation.lastMessage.toLowerCase().includes(needle)
    )
      found.set(conversation.id, { conversation, snippet: conversation.lastMessage })
  }
  return [...found.values()].sort((a, b) => b.conversation.timestamp.localeCompare(a.conversation.timestamp))
}

/** History's list while a search is typed: only the matches, each with its passage, the words searched marked. */
export function SearchResults({
  query,
  hits,
  searching,
  onOpen,
}: {
  query: string
  hits: Hit[]
  /** The server has not answered this query yet. */
  searching: boolean
  onOpen: (conversationId: string) => void
}) {
  if (hits.length === 0)
    return (
      <p role="status" className={css({ color: 'muted', fontSize: 'sm', maxW: '3xl' })}>
        {searching ? 'Searching...' : `No conversations match “${query}”.`}
      </p>
    )
  return (
    <ul
      aria-label="Search results"
      className={css({ display: 'flex', flexDirection: 'column', gap: '2', maxW: '3xl' })}
    >
      {hits.map(({ conversation, snippet }) => (
        <li key={conversation.id}>
          <button
            type="button"
            onClick={() => onOpen(conversation.id)}
            className={cx(
              card({ variant: 'row' }),
              css({ w: 'full', textAlign: 'left', px: '4', py: '3', cursor: 'pointer' }),
            )}
          >
            <span className={css({ display: 'block', fontWeight: 'medium', truncate: true })}>
              <Marked text={conversation.title} query={query} />
            </span>
            {snippet ? (
              <span className={css({ display: 'block', fontSize: 'sm', color: 'muted' })}>
                <Marked text={snippet} query={query} />
              </span>
            ) : null}
          </button>
        </li>
      ))}
    </ul>
  )
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/**
 * `text` with each word of `query` marked where it starts a word (the server's search matches
 * word forms: "budget" finds "budgets").
 */
export function Marked({ text, query }: { text: string; query: string }) {
  const words = query
    .split(/\s+/)
    .map((word) => word.replace(/^[-"]+|"+$/g, ''))
    .filter((word) => word.length > 1)
  if (words.length === 0) return text
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])(${words.map(escaped).join('|')})`, 'giu')
  const parts = text.split(pattern)
  return (
    <>
      {parts.map((part, i) =>
        i % 2 === 1 ? (
          <mark
            // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed text, in order
            key={i}
            className={css({ bg: 'brand.100', color: 'inherit', borderRadius: 'sm' })}
          >
            {part}
          </mark>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed text, in order
          <Fragment key={i}>{part}</Fragment>
        ),
      )}
    </>
  )
}
