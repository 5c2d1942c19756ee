import { useState } from 'react'
import { clockTime } from '#machines/chat/chat-time.ts'
import type { ConversationItem } from '#machines/chat/chat-types.ts'
import { Button } from '#src/components/ui/button.tsx'
import { TrashIcon } from '#src/components/ui/dashboard-icons.tsx'
import { card } from '#src/theme/card.ts'
import { css, cx } from '../../../styled-system/css'
import { assistantLabel } from './assistant-label.ts'

type HistoryItemProps = {
  conversation: ConversationItem
  deleting: boolean
  onOpen: (conversationId: string) => void
  onDelete: (conversationId: string) => void
}

const countLabel = (count: number) => `${count} ${count === 1 ? 'message' : 'messages'}`

/**
 * One conversation: opening it is the whole row; deleting is a separate button beside it, which
 * asks first (a deleted conversation cannot come back).
 */
export function HistoryItem({ conversation, deleting, onOpen, onDelete }: HistoryItemProps) {
  const [confirming, setConfirming] = useState(false)
  return (
    <li
      aria-busy={deleting || undefined}
      className={cx(
        card({ variant: 'row' }),
        css({
          display: 'flex',
          alignItems: 'center',
          gap: '2',
          pr: '2',
        }),
      )}
    >
      <button
        type="button"
        onClick={() => onOpen(conversation.id)}
        className={css({
          flex: '1',
          minW: '0',
          display: 'flex',
          flexDirection: 'column',
          gap: '1',
          px: '4',
          py: '3',
          textAlign: 'left',
          cursor: 'pointer',
          borderRadius: 'xl',
        })}
      >
        <span className={css({ fontWeight: 'medium', truncate: true })}>{conversation.title}</span>
        {conversation.lastMessage ? (
          <span className={css({ fontSize: 'sm', color: 'muted', truncate: true })}>
            {conversation.lastMessage}
          </span>
        ) : null}
        <span className={css({ display: 'flex', gap: '3', fontSize: 'xs', color: 'muted' })}>
          <span>{countLabel(conversation.messageCount)}</span>
          {conversation.assistant ? <span>{assistantLabel(conversation.assistant)}</span> : null}
          <time dateTime={conversation.timestamp}>{clockTime(conversation.timestamp)}</time>
        </span>
      </button>
      {confirming ? (
        <fieldset
          aria-label="Delete this conversation?"
          className={css({ display: 'flex', gap: '1', border: 'none', p: '0', m: '0' })}
        >
          <Button
            variant="danger"
            size="sm"
            disabled={deleting}
            onClick={() => {
              setConfirming(false)
              onDelete(conversation.id)
            }}
          >
            Delete
          </Button>
          <Button variant="ghost" size="sm" onClick={() => setConfirming(false)}>
            Cancel
          </Button>
        </fieldset>
      ) : (
        <Button
          variant="ghost"
          size="icon"
          title="Delete conversation"
          aria-label="Delete conversation"
          disabled={deleting}
          onClick={() => setConfirming(true)}
        >
          <TrashIcon size={16} />
        </Button>
      )}
    </li>
  )
}
