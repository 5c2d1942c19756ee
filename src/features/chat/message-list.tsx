import type { Feedback } from '#contracts/chat.ts'
import type { MessageItem } from '#machines/chat/chat-types.ts'
import { css } from '../../../styled-system/css'
import { MessageBubble } from './message-bubble.tsx'
import { TypingIndicator } from './typing-indicator.tsx'

type MessageListProps = {
  messages: MessageItem[]
  awaitingReply: boolean
  ratingMessageIds: string[]
  onRate: (messageId: string, feedback: Feedback) => void
}

/** Scrolls the list to its end; called by the end marker each time it is (re)mounted. */
function scrollListToEnd(marker: HTMLElement | null) {
  const list = marker?.parentElement
  if (list) list.scrollTop = list.scrollHeight
}

/** The conversation, oldest first, kept scrolled to the newest message. */
export function MessageList({ messages, awaitingReply, ratingMessageIds, onRate }: MessageListProps) {
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
          />
        ))}
      </ol>
      {awaitingReply ? <TypingIndicator /> : null}
      {/* A new key on every change remounts the marker, and its ref scrolls to the newest message. */}
      <div key={`${messages.length}:${awaitingReply}`} ref={scrollListToEnd} aria-hidden="true" />
    </div>
  )
}
