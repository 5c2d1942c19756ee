import type { Feedback, Source } from '#contracts/chat.ts'
import type { MessageItem } from '#machines/chat/chat-types.ts'
import { css } from '../../../styled-system/css'
import { MessageBubble } from './message-bubble.tsx'
import { TypingIndicator } from './typing-indicator.tsx'

type MessageListProps = {
  messages: MessageItem[]
  awaitingReply: boolean
  ratingMessageIds: string[]
  onRate: (messageId: string, feedback: Feedback) => void
  /** The answer that can be written again (the last one), if any. */
  regenerableId: string | null
  onRegenerate: (messageId: string) => void
  onShowSource: (messageId: string, source: Source, opener: HTMLElement) => void
}

/**
 * Brings the newest message into view; called by the end marker each time it is (re)mounted. A
 * finished answer shows from its start (it is read from the top); anything else, from the end.
 */
function scrollToNewest(marker: HTMLElement | null) {
  const list = marker?.parentElement
  if (!list) return
  const last = list.querySelector<HTMLElement>('ol > li:last-child')
  if (last?.dataset.sender === 'bot' && last.dataset.streaming !== 'true') {
    list.scrollTop += last.getBoundingClientRect().top - list.getBoundingClientRect().top
  } else {
    list.scrollTop = list.scrollHeight
  }
}

/** The conversation, oldest first, kept scrolled to the newest message. */
export function MessageList({
  messages,
  awaitingReply,
  ratingMessageIds,
  onRate,
  regenerableId,
  onRegenerate,
  onShowSource,
}: MessageListProps) {
  const last = messages.at(-1)
  return (
    <div
      role="log"
      aria-label="Conversation"
      className={css({
        flex: '1',
        minH: '0',
        overflowY: 'auto',
        display: 'flex',
        flexDirection: 'column',
        gap: '4',
        pb: '4',
      })}
    >
      <ol className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}>
        {messages.map((message) => (
          <MessageBubble
            key={message.id}
            message={message}
            rating={ratingMessageIds.includes(message.id)}
            onRate={onRate}
            onRegenerate={message.id === regenerableId ? onRegenerate : undefined}
            onShowSource={onShowSource}
          />
        ))}
      </ol>
      {awaitingReply ? <TypingIndicator /> : null}
      {/* A new key on every change remounts the marker, and its ref scrolls to the newest message. */}
      <div
        key={`${messages.length}:${awaitingReply}:${last?.streaming ? last.content.length : last?.id}`}
        ref={scrollToNewest}
        aria-hidden="true"
      />
    </div>
  )
}
